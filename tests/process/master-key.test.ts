import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startPaylink } from '../support/process.ts';

/**
 * The built server with the wrong master key, or none, on a data directory that has secrets: it
 * exits 1 with one line naming the key (no stack), before it listens. And the rotation command.
 */
let dataDir: string | undefined;
afterEach(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

/** A data directory with the demo integrator's secrets sealed under `key`. */
async function deployment(key: string): Promise<string> {
  dataDir = mkdtempSync(join(tmpdir(), 'paylink-key-proc-'));
  const p = startPaylink({ PAYLINK_DATA_DIR: dataDir, PAYLINK_MASTER_KEY: key });
  await p.ready;
  p.child.kill('SIGTERM');
  expect(await p.exited).toBe(0);
  return dataDir;
}

const refusal = (output: string) => output.trim().split('\n');

describe('master key › the process', () => {
  it('exits 1 with one line naming PAYLINK_MASTER_KEY when the key is not the database’s', async () => {
    const dir = await deployment(randomBytes(32).toString('base64'));
    const wrong = startPaylink({ PAYLINK_DATA_DIR: dir, PAYLINK_MASTER_KEY: randomBytes(32).toString('base64') });
    expect(await wrong.exited).toBe(1);
    expect(refusal(wrong.output())).toEqual([
      expect.stringMatching(/^PAYLINK_MASTER_KEY is not the master key this database's secrets are sealed with\. .*"Master key rotation"\.$/),
    ]);
    expect(wrong.output()).not.toContain('    at ');
  });

  it('exits 1 naming the missing key when started with none on a database that has secrets, and makes no key file', async () => {
    const dir = await deployment(randomBytes(32).toString('base64'));
    const none = startPaylink({ PAYLINK_DATA_DIR: dir });
    expect(await none.exited).toBe(1);
    expect(refusal(none.output())).toEqual([
      `PAYLINK_MASTER_KEY is not set and ${join(dir, 'master.key')} does not exist, but this database holds secrets sealed under a master key. Set PAYLINK_MASTER_KEY to that key, or restore the key file; paylink makes a new key only for an empty database.`,
    ]);
    expect(existsSync(join(dir, 'master.key'))).toBe(false);
  });

  it('npm run admin -- rotate-master-key refuses while paylink runs, then moves a key-file deployment to a new key: the new file starts it, the old key is refused', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'paylink-key-proc-'));
    const admin = () =>
      spawnSync('npm', ['run', '-s', 'admin', '--', 'rotate-master-key'], {
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PAYLINK_DATA_DIR: dataDir },
        encoding: 'utf8',
      });
    const first = startPaylink({ PAYLINK_DATA_DIR: dataDir });
    await first.ready;
    // Not while paylink runs: the embedded database is the server's.
    const refused = admin();
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/is in use by another paylink process .* Stop paylink before rotating the master key\.\n$/);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const oldKey = readFileSync(join(dataDir, 'master.key'), 'utf8').trim();
    const demo = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8')) as { token: string };

    const rotated = admin();
    expect(rotated.stderr).toBe('');
    expect(rotated.status).toBe(0);
    expect(rotated.stdout).toMatch(/^master key rotated/);
    expect(rotated.stdout).toContain('integrators: 1');
    const newKey = readFileSync(join(dataDir, 'master.key'), 'utf8').trim();
    expect(newKey).not.toBe(oldKey);
    expect(readFileSync(join(dataDir, 'master.key.previous'), 'utf8').trim()).toBe(oldKey);

    const withOld = startPaylink({ PAYLINK_DATA_DIR: dataDir, PAYLINK_MASTER_KEY: oldKey });
    expect(await withOld.exited).toBe(1);
    const again = startPaylink({ PAYLINK_DATA_DIR: dataDir });
    const url = await again.ready;
    try {
      const me = await fetch(`${url}/api/v1/integrator`, { headers: { authorization: `Bearer ${demo.token}` } });
      expect(me.status).toBe(200);
    } finally {
      again.child.kill('SIGTERM');
      expect(await again.exited).toBe(0);
    }
  });
});
