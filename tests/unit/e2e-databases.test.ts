import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { e2eDatabaseName, finishedRuns, markerFor, serverOf } from '../e2e/e2e-databases.ts';

/** tests/e2e/serve.mjs on a shared PostgreSQL: what a starting e2e run drops. */
const here = hostname();
const server = '127.0.0.1:5432';
const marker = (database: string, pid: number, over: Partial<{ host: string; server: string }> = {}) => ({ database, pid, host: here, server, ...over });

describe('e2e databases › clean-up', () => {
  it('drops a finished run of this machine on this server, nothing else', () => {
    const alive = (pid: number) => pid === 200;
    const chosen = finishedRuns(
      [
        marker('paylink_e2e_100_aa', 100),
        marker('paylink_e2e_200_bb', 200),
        marker('paylink_e2e_300_cc', 300, { host: 'another-host' }),
        marker('paylink_e2e_400_dd', 400, { server: 'db.example:5432' }),
      ],
      { server, alive },
    );
    expect(chosen.map((m) => m.database)).toEqual(['paylink_e2e_100_aa']);
  });

  it('never chooses a database no marker names, although its name carries a pid not running here', () => {
    // Another host's run on the shared server: `paylink_e2e_<its pid>_…`, no marker on this machine.
    const otherHosts = ['paylink_e2e_4242_0123abcd', `paylink_e2e_${2 ** 22 + 1}_ffff0000`];
    const chosen = finishedRuns([marker('paylink_e2e_100_aa', 100)], { server, alive: () => false });
    for (const name of otherHosts) expect(chosen.map((m) => m.database)).not.toContain(name);
    expect(finishedRuns([], { server, alive: () => false })).toEqual([]);
    // A marker naming anything but an e2e run's database is not believed.
    expect(finishedRuns([marker('production', 100), marker('paylink_e2e_1_x"; drop', 100)], { server, alive: () => false })).toEqual([]);
  });

  it('names a run’s database and its marker: this host, this process, the server of DATABASE_URL', () => {
    const name = e2eDatabaseName('123_abcd');
    expect(name).toBe('paylink_e2e_123_abcd');
    expect(markerFor(name, 'postgres://postgres@127.0.0.1/test', 123)).toEqual({ database: name, pid: 123, host: here, server: '127.0.0.1:5432' });
    expect(serverOf('postgres://u:p@db.internal:6543/x')).toBe('db.internal:6543');
  });
});
