import { afterAll, describe, expect, it } from 'vitest';
import { createDynamicLink } from '../src/domain/checkout/dynamic.ts';
import { findActiveLink } from '../src/domain/links/service.ts';
import { createTestApp, provision, startTestServer, TEST_TOKEN, type TestApp } from '../tests/support/app.ts';
import { CHECKOUT_JS_BUDGET, measurePageScripts } from '../tests/support/checkout-weight.ts';
import { loadRow as row, runLoad } from './support/load.ts';
import { type BenchRow, benchDatabases as databases, recordBench, round } from './support/report.ts';

/**
 * The payment pages over HTTP against the built app: GET /pay/{slug} (static link: link lookup,
 * a fresh session token, the SSR'd card island) and GET /checkout/{token} (session lookup by
 * token hash, link, form), next to a no-op Astro page (GET /: the same layout, no database) on
 * the same server in the same run. Plus the JS weight a browser loads for the checkout page.
 */
const CONCURRENCY = Number(process.env.PAYLINK_BENCH_CONCURRENCY ?? 16);
const DURATION_MS = Number(process.env.PAYLINK_BENCH_SECONDS ?? 5) * 1000;
const WARMUP_MS = 1000;

const label = { pglite: 'PGlite', postgres: 'PostgreSQL' };
const rows: BenchRow[] = [];

afterAll(() => {
  recordBench('Payment pages: GET /pay/{slug} and /checkout/{token} vs a no-op Astro page', rows);
});

const html200 = (res: Response, text: string) => res.status === 200 && text.includes('</html>');

describe.each(databases)('payment pages bench on %s', (db) => {
  let t: TestApp;
  let server: { url: string; close(): Promise<void> };
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  it(`measures the payment pages and the no-op baseline (${CONCURRENCY} concurrent clients)`, async () => {
    t = await createTestApp({ db, env: { LOG_LEVEL: 'warn' } });
    await provision(t);
    server = await startTestServer(t.app);
    const link = (await findActiveLink(t.app.db, 'acme-books'))!;
    const { token } = await createDynamicLink(t.app, link, { key: TEST_TOKEN, payment: { amount: '250.00', merchant_reference_id: 'bench-1' } });
    const get = (path: string) => () => fetch(server.url + path);

    for (const path of ['/', '/pay/acme-books', `/checkout/${token}`])
      await runLoad({ concurrency: CONCURRENCY, durationMs: WARMUP_MS, send: get(path), ok: html200 });
    const noop = await runLoad({ concurrency: CONCURRENCY, durationMs: DURATION_MS, send: get('/'), ok: html200 });
    const staticPage = await runLoad({ concurrency: CONCURRENCY, durationMs: DURATION_MS, send: get('/pay/acme-books'), ok: html200 });
    const checkoutPage = await runLoad({ concurrency: CONCURRENCY, durationMs: DURATION_MS, send: get(`/checkout/${token}`), ok: html200 });
    const name = label[db];
    rows.push(
      row(`no-op Astro page GET / (${name})`, noop, undefined, 'same layout and stylesheet, no database'),
      row(`GET /pay/{slug} (${name})`, staticPage, noop, 'static link form'),
      row(`GET /checkout/{token} (${name})`, checkoutPage, noop, 'dynamic link form'),
    );
    expect(staticPage.errors + checkoutPage.errors + noop.errors).toBe(0);

    if (db === 'pglite') {
      const html = await (await fetch(`${server.url}/pay/acme-books`)).text();
      const weight = await measurePageScripts(server.url, html);
      rows.push({
        name: 'checkout page JS (all scripts, transitively)',
        values: {
          'gzip KB': round(weight.totalGzip / 1024, 2),
          'raw KB': round(weight.totalBytes / 1024, 2),
          scripts: weight.scripts.length,
          'budget KB': CHECKOUT_JS_BUDGET / 1024,
        },
        note: weight.scripts.map((s) => `${s.name.replace('/_astro/', '')} ${s.gzip} B`).join(', '),
      });
      const page = await fetch(`${server.url}/pay/acme-books`, { headers: { 'accept-encoding': 'gzip' } });
      rows.push({
        name: 'checkout page HTML',
        values: { 'gzip KB': round(Number(page.headers.get('content-length') ?? (await page.arrayBuffer()).byteLength) / 1024, 2) },
        note: 'as sent (compression on)',
      });
    }
  });
});
