import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, provision, startTestServer, TEST_TOKEN, type TestApp } from '../tests/support/app.ts';
import { loadRow as row, runLoad } from './support/load.ts';
import { type BenchRow, benchDatabases as databases, recordBench, round } from './support/report.ts';

/**
 * What the velocity limits cost an API request: GET /api/v1/integrator (authentication, one
 * query) with every limit off, then with the defaults' limits on (each request counted against
 * its integrator, in memory on PGlite and by one upsert into `rate_limits` on PostgreSQL), with a
 * count high enough that nothing is refused. Same server shape, same run.
 */
const CONCURRENCY = Number(process.env.PAYLINK_BENCH_CONCURRENCY ?? 16);
const DURATION_MS = Number(process.env.PAYLINK_BENCH_SECONDS ?? 5) * 1000;
const WARMUP_MS = 1000;

const rows: BenchRow[] = [];
const label = { pglite: 'PGlite', postgres: 'PostgreSQL' };
afterAll(() => recordBench('Velocity limits: an authenticated API request with limits off and on', rows));

const ok = (res: Response) => res.status === 200;

describe.each(databases)('rate-limit bench on %s', (db) => {
  const apps: { t: TestApp; server: { url: string; close(): Promise<void> } }[] = [];
  afterAll(async () => {
    for (const { t, server } of apps) {
      await server.close();
      await t.close();
    }
  });

  it(`measures GET /api/v1/integrator with limits off and on (${CONCURRENCY} concurrent clients)`, async () => {
    const results = [];
    const variants: Record<string, string>[] = [{}, { PAYLINK_LIMIT_API_REQUESTS: '1000000/1', PAYLINK_LIMIT_AUTH_FAILURES: '20/900' }];
    for (const limits of variants) {
      const t = await createTestApp({ db, env: { LOG_LEVEL: 'warn', ...limits } });
      await provision(t);
      const server = await startTestServer(t.app);
      apps.push({ t, server });
      const send = () => fetch(`${server.url}/api/v1/integrator`, { headers: { authorization: TEST_TOKEN } });
      await runLoad({ concurrency: CONCURRENCY, durationMs: WARMUP_MS, send, ok });
      results.push(await runLoad({ concurrency: CONCURRENCY, durationMs: DURATION_MS, send, ok }));
    }
    const [off, on] = results as [Awaited<ReturnType<typeof runLoad>>, Awaited<ReturnType<typeof runLoad>>];
    const name = label[db];
    rows.push(row(`limits off (${name})`, off), row(`limits on (${name})`, on, off, 'every request counted'));
    console.log(`[bench] ${name}: limits off ${off.rps} req/s, on ${on.rps} req/s (${round((on.rps / off.rps) * 100, 1)} %)`);
    for (const r of results) expect(r.errors, r.firstError).toBe(0);
  });
});
