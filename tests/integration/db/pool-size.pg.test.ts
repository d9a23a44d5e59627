import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';

/** DATABASE_POOL_SIZE bounds the PostgreSQL connections one process opens (PostgreSQL only: PGlite has no pool). */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ db: 'postgres', env: { DATABASE_POOL_SIZE: '2' } });
});
afterAll(() => t?.close());

describe('DATABASE_POOL_SIZE', () => {
  it('runs at most that many queries at once, on that many connections', async () => {
    const started = Date.now();
    const rows = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.app.db.execute(sql`select pg_backend_pid() as pid, pg_sleep(0.2)`).then((r) => (r as unknown as { rows: { pid: number }[] }).rows[0]!.pid),
      ),
    );
    expect(new Set(rows).size).toBe(2);
    // Six 200 ms queries two at a time: three rounds.
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
  });
});
