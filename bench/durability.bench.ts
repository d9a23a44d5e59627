import { afterAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN } from '../tests/support/app.ts';
import { createPayment } from '../tests/support/payments.ts';
import { type ExternalServer, measure, startExternal } from './support/external.ts';
import { type BenchRow, recordBench, round } from './support/report.ts';

/**
 * What the embedded database's flush before each answer costs (PAYLINK_PGLITE_SYNC, src/db/pglite-sync.ts):
 * POST /api/v1/refund PARTIAL spread over 64 payments on the built server, PGlite on a data directory,
 * with `commit` (the default: each commit's log fdatasync'd before the answer) and with `off`, under 16
 * connections (commits share flushes) and under one (every refund pays its own). The modes alternate
 * over two rounds, so a busy machine weighs on both alike. docs/deploy.md#durability has the figures.
 */
const CONNECTIONS = Number(process.env.PAYLINK_BENCH_CONCURRENCY ?? 16);
const SECONDS = Number(process.env.PAYLINK_BENCH_SECONDS ?? 5);
const SPREAD = 64;
const ROUNDS = 2;
const rows: BenchRow[] = [];

afterAll(() => {
  recordBench('Durability: refunds on PGlite with the log flushed before each answer, and without', rows);
});

const refunded = (status: number, body: string) => status === 200 && body.includes('"status_code":"OK.04.00"');

describe('the built server on PGlite, PAYLINK_PGLITE_SYNC', () => {
  let server: ExternalServer | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it(`measures refunds with commit and off (${CONNECTIONS} connections and 1, ${SECONDS} s each, ${ROUNDS} rounds)`, async () => {
    const results: Record<string, { many: number[]; one: number[]; p99: number[]; oneP50: number[] }> = {};
    for (let pass = 0; pass < ROUNDS; pass++)
      for (const mode of ['commit', 'off'] as const) {
        const started = await startExternal(
          'pglite',
          { PAYLINK_PGLITE_SYNC: mode, PAYLINK_REFUND_MAX_COUNT: '1000000', PAYLINK_LIMIT_API_REQUESTS: 'off' },
          async (t) => {
            const ids: string[] = [];
            for (let i = 0; i < SPREAD; i++) ids.push((await createPayment(t, { amount: '1000000.00', callbackUrl: null })).id);
            return ids;
          },
        );
        server = started.server;
        const ids = started.prepared;
        const request = {
          method: 'POST' as const,
          path: '/api/v1/refund',
          headers: { authorization: TEST_TOKEN, 'content-type': 'application/json' },
          body: (i: number) => JSON.stringify({ transaction_id: ids[i % SPREAD], notify_user: false, reason: 'bench', amount: '0.01' }),
        };
        await measure({ url: server.url, seconds: 1, connections: CONNECTIONS, requests: [request], ok: refunded });
        const many = await measure({ url: server.url, seconds: SECONDS, connections: CONNECTIONS, requests: [request], ok: refunded });
        const one = await measure({ url: server.url, seconds: SECONDS, connections: 1, requests: [request], ok: refunded });
        expect(many.errors + one.errors).toBe(0);
        await server.stop();
        server = undefined;
        const r = (results[mode] ??= { many: [], one: [], p99: [], oneP50: [] });
        r.many.push(many.rps);
        r.p99.push(many.p99);
        r.one.push(one.rps);
        r.oneP50.push(one.p50);
      }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const off = results.off!;
    for (const mode of ['commit', 'off'] as const) {
      const r = results[mode]!;
      rows.push({
        name: `refund PARTIAL, PAYLINK_PGLITE_SYNC=${mode}`,
        values: {
          [`req/s (${CONNECTIONS} conn.)`]: r.many.join(' / '),
          [`p99 ms (${CONNECTIONS} conn.)`]: r.p99.join(' / '),
          'req/s (1 conn.)': r.one.join(' / '),
          'p50 ms (1 conn.)': r.oneP50.join(' / '),
          'vs off': `${round((median(r.many) / median(off.many)) * 100, 1)} % / ${round((median(r.one) / median(off.one)) * 100, 1)} %`,
        },
        note: `each round's figure, ${ROUNDS} rounds alternating the modes`,
      });
    }
    console.log(`[bench] durability: ${rows.map((row) => `${row.name}: ${JSON.stringify(row.values)}`).join('; ')}`);
  });
});
