import { afterAll, describe, expect, it } from 'vitest';
import { createDynamicLink } from '../src/domain/checkout/dynamic.ts';
import { findActiveLink } from '../src/domain/links/service.ts';
import { TEST_TOKEN } from '../tests/support/app.ts';
import { createPayment } from '../tests/support/payments.ts';
import { type ExternalServer, measure, measurePaced, ratioRow, startExternal } from './support/external.ts';
import { type BenchRow, benchDatabases as databases, recordBench, round } from './support/report.ts';

/**
 * The server as `npm start` runs it (the build, its own process), loaded from outside by autocannon
 * with 16 connections, each figure next to the no-op (GET /api/v1/ping: no auth, no database)
 * measured on the same server in the same run, with the ratio and the target:
 * - POST /api/v1/refund PARTIAL spread over 64 payments (≥ 15 % of the no-op on PostgreSQL, ≥ 8 % on
 *   PGlite), its p99 at half the measured maximum rate (≤ 50 ms), and all on one payment (a hot row);
 * - GET /pay/{slug} and GET /checkout/{token} (≥ 50 % of the no-op): views of one link and reloads
 *   of one session (both served from the rendering kept per version, src/api/page-cache.ts), and
 *   first views of 2,000 distinct sessions (each rendered).
 * The per-integrator request limit is off (it would cap the refund load at 100/s).
 */
const CONNECTIONS = Number(process.env.PAYLINK_BENCH_CONCURRENCY ?? 16);
const SECONDS = Number(process.env.PAYLINK_BENCH_SECONDS ?? 5);
const SPREAD = 64;
const SESSIONS = 2_000;
const label = { pglite: 'PGlite', postgres: 'PostgreSQL' };
const rows: BenchRow[] = [];

afterAll(() => {
  recordBench('HTTP: the built server under autocannon, next to its no-op', rows);
});

const okCode = (code: string) => (status: number, body: string) => status === 200 && body.includes(`"status_code":"${code}"`);
const html = (status: number, body: string) => status === 200 && body.includes('</html>');

describe.each(databases)('the built server on %s', (db) => {
  let server: ExternalServer | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it(`measures refunds and payment pages against the no-op (${CONNECTIONS} connections, ${SECONDS} s each)`, async () => {
    const started = await startExternal(db, { PAYLINK_REFUND_MAX_COUNT: '1000000', PAYLINK_LIMIT_API_REQUESTS: 'off' }, async (t) => {
      const spread: string[] = [];
      for (let i = 0; i < SPREAD; i++) spread.push((await createPayment(t, { amount: '1000000.00', callbackUrl: null })).id);
      const hot = (await createPayment(t, { amount: '1000000.00', callbackUrl: null })).id;
      const link = (await findActiveLink(t.app.db, 'acme-books'))!;
      const { token } = await createDynamicLink(t.app, link, { key: TEST_TOKEN, payment: { amount: '250.00', merchant_reference_id: 'bench-1' } });
      const tokens: string[] = [];
      for (let i = 0; i < SESSIONS; i++)
        tokens.push((await createDynamicLink(t.app, link, { key: TEST_TOKEN, payment: { amount: '250.00', merchant_reference_id: `bench-${i}` } })).token);
      return { spread, hot, token, tokens };
    });
    server = started.server;
    const { spread, hot, token, tokens } = started.prepared;
    const url = server.url;
    const refund = (id: (i: number) => string) => ({
      method: 'POST' as const,
      path: '/api/v1/refund',
      headers: { authorization: TEST_TOKEN, 'content-type': 'application/json' },
      body: (i: number) => JSON.stringify({ transaction_id: id(i), notify_user: false, reason: 'bench', amount: '0.01' }),
    });
    const run = (requests: Parameters<typeof measure>[0]['requests'], ok?: Parameters<typeof measure>[0]['ok'], rate?: number, seconds = SECONDS) =>
      measure({ url, seconds, connections: CONNECTIONS, rate, requests, ok });

    // Warm up: JIT, connection pools, the first render of each page.
    await run([{ path: '/api/v1/ping' }], undefined, undefined, 1);
    await run([refund((i) => spread[i % SPREAD]!)], okCode('OK.04.00'), undefined, 1);
    await run([{ path: '/pay/acme-books' }, { path: `/checkout/${token}` }], html, undefined, 1);

    const noopBefore = await run([{ path: '/api/v1/ping' }], okCode('OK.00.00'));
    const spreadRefunds = await run([refund((i) => spread[i % SPREAD]!)], okCode('OK.04.00'));
    const halfRate = Math.max(1, Math.round(spreadRefunds.rps / 2));
    const atHalf = await measurePaced({ url, seconds: SECONDS, rate: halfRate, request: refund((i) => spread[i % SPREAD]!), ok: okCode('OK.04.00') });
    const hotRefunds = await run([refund(() => hot)], okCode('OK.04.00'));
    const payPage = await run([{ path: '/pay/acme-books' }], html);
    const checkoutPage = await run([{ path: `/checkout/${token}` }], html);
    const firstViews = await run([{ path: '/', pathOf: (i) => `/checkout/${tokens[i % SESSIONS]}` }], html);
    // The no-op again at the end, and the better of the two is the baseline: a slow first run (the
    // machine busy, the JIT still warming) would otherwise flatter every ratio.
    const noopAfter = await run([{ path: '/api/v1/ping' }], okCode('OK.00.00'));
    const noop = noopAfter.rps > noopBefore.rps ? noopAfter : noopBefore;

    const name = label[db];
    const refundTarget = db === 'postgres' ? '≥ 15 %' : '≥ 8 %';
    rows.push(
      ratioRow(
        `no-op GET /api/v1/ping (${name})`,
        noop,
        undefined,
        '',
        `Astro + HTTP + envelope; the better of a run first (${noopBefore.rps}/s) and last (${noopAfter.rps}/s)`,
      ),
      ratioRow(`refund PARTIAL over ${SPREAD} payments (${name})`, spreadRefunds, noop, refundTarget, 'closed loop, the maximum rate'),
      ratioRow(`refund PARTIAL at half that rate, ${halfRate}/s (${name})`, atHalf, noop, 'p99 ≤ 50 ms', 'open loop, evenly spaced'),
      ratioRow(`refund PARTIAL on one payment (${name})`, hotRefunds, noop, '', 'one hot row'),
      ratioRow(`GET /pay/{slug} (${name})`, payPage, noop, '≥ 50 %', 'views of one link'),
      ratioRow(`GET /checkout/{token} (${name})`, checkoutPage, noop, '≥ 50 %', 'reloads of one session'),
      ratioRow(`GET /checkout/{token}, ${SESSIONS} sessions (${name})`, firstViews, noop, '', 'each session rendered on its first view'),
    );
    console.log(
      `[bench] ${name}: no-op ${noop.rps}/s; refund ${spreadRefunds.rps}/s (${round((spreadRefunds.rps / noop.rps) * 100, 1)} %), ` +
        `p99 at ${halfRate}/s ${atHalf.p99} ms; hot ${hotRefunds.rps}/s; /pay ${payPage.rps}/s (${round((payPage.rps / noop.rps) * 100, 1)} %); ` +
        `/checkout ${checkoutPage.rps}/s (${round((checkoutPage.rps / noop.rps) * 100, 1)} %), first views ${firstViews.rps}/s`,
    );
    for (const r of [noopBefore, noopAfter, spreadRefunds, atHalf, hotRefunds, payPage, checkoutPage, firstViews]) expect(r.errors).toBe(0);
  });
});
