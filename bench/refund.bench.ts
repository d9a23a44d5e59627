import { afterAll, describe, expect, it } from 'vitest';
import type { Payment } from '../src/domain/payments/record.ts';
import { createTestApp, provision, startTestServer, TEST_TOKEN, type TestApp } from '../tests/support/app.ts';
import { createPayment } from '../tests/support/payments.ts';
import { loadRow as row, runLoad } from './support/load.ts';
import { type BenchRow, benchDatabases as databases, recordBench, round } from './support/report.ts';

/**
 * POST /api/v1/refund throughput and latency over HTTP against the built app, next to a no-op
 * Astro endpoint (GET /api/v1/ping: no auth, no database) measured in the same run on the same
 * server, so the ratio shows what a refund costs above Astro + HTTP. Two refund shapes: PARTIAL
 * refunds spread over many payments (the usual case), and all on one payment (one hot row: every
 * refund waits for the previous one's lock). Each refund is the full path: auth, zod, tx1 with
 * the row lock, the sandbox acquirer's own transaction, tx2 with the outbox event.
 * The load generator runs in the same process as the server (a floor, not a ceiling).
 */
const CONCURRENCY = Number(process.env.PAYLINK_BENCH_CONCURRENCY ?? 16);
const DURATION_MS = Number(process.env.PAYLINK_BENCH_SECONDS ?? 5) * 1000;
const WARMUP_MS = 1000;
const SPREAD_PAYMENTS = 64;

const rows: BenchRow[] = [];
const label = { pglite: 'PGlite', postgres: 'PostgreSQL' };

afterAll(() => {
  recordBench('Refunds: POST /api/v1/refund vs a no-op Astro endpoint', rows);
});

const isCode = (code: string) => (res: Response, text: string) => res.status === 200 && text.includes(`"status_code":"${code}"`);

describe.each(databases)('refund bench on %s', (db) => {
  let t: TestApp;
  let server: { url: string; close(): Promise<void> };

  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  it(`measures refunds and the no-op baseline (${CONCURRENCY} concurrent clients)`, async () => {
    t = await createTestApp({ db, env: { PAYLINK_REFUND_MAX_COUNT: '1000000', LOG_LEVEL: 'warn' } });
    await provision(t);
    server = await startTestServer(t.app);
    const spread: Payment[] = [];
    for (let i = 0; i < SPREAD_PAYMENTS; i++) spread.push(await createPayment(t, { amount: '1000000.00', callbackUrl: null }));
    const hot = await createPayment(t, { amount: '1000000.00', callbackUrl: null });

    const ping = () => fetch(`${server.url}/api/v1/ping`);
    const refund = (transactionId: string) =>
      fetch(`${server.url}/api/v1/refund`, {
        method: 'POST',
        headers: { authorization: TEST_TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify({ transaction_id: transactionId, notify_user: false, reason: 'bench', amount: '0.01' }),
      });

    await runLoad({ concurrency: CONCURRENCY, durationMs: WARMUP_MS, send: ping, ok: isCode('OK.00.00') });
    await runLoad({ concurrency: CONCURRENCY, durationMs: WARMUP_MS, send: (i) => refund(spread[i % SPREAD_PAYMENTS]!.id), ok: isCode('OK.04.00') });

    const noop = await runLoad({ concurrency: CONCURRENCY, durationMs: DURATION_MS, send: ping, ok: isCode('OK.00.00') });
    const spreadResult = await runLoad({
      concurrency: CONCURRENCY,
      durationMs: DURATION_MS,
      send: (i) => refund(spread[i % SPREAD_PAYMENTS]!.id),
      ok: isCode('OK.04.00'),
    });
    const hotResult = await runLoad({ concurrency: CONCURRENCY, durationMs: DURATION_MS, send: () => refund(hot.id), ok: isCode('OK.04.00') });

    const name = label[db];
    rows.push(
      row(`no-op GET /api/v1/ping (${name} app)`, noop, undefined, 'Astro + HTTP + envelope only'),
      row(`refund PARTIAL over ${SPREAD_PAYMENTS} payments (${name})`, spreadResult, noop),
      row(`refund PARTIAL on one payment (${name})`, hotResult, noop, 'one hot row'),
    );
    console.log(
      `[bench] ${name}: no-op ${noop.rps} req/s; refund ${spreadResult.rps} req/s (p50 ${spreadResult.p50} ms, p99 ${spreadResult.p99} ms) = ` +
        `${round((spreadResult.rps / noop.rps) * 100, 1)} % of no-op; one hot payment ${hotResult.rps} req/s`,
    );
    for (const r of [noop, spreadResult, hotResult]) expect(r.errors, r.firstError).toBe(0);
  });
});
