import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, provision, startTestServer, type TestApp } from '../tests/support/app.ts';
import { CHECKOUT_JS_BUDGET, measurePageScripts } from '../tests/support/checkout-weight.ts';
import { type BenchRow, recordBench, round } from './support/report.ts';

/**
 * What a browser loads for the checkout page: the JS (every script, transitively, gzip) against
 * the budget, and the HTML as sent. The pages' throughput is bench/http.bench.ts (the built server
 * under autocannon).
 */
const rows: BenchRow[] = [];

afterAll(() => {
  recordBench('Payment pages: weight', rows);
});

describe('checkout page weight', () => {
  let t: TestApp;
  let server: { url: string; close(): Promise<void> };
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  it('measures the JS and HTML a browser loads', async () => {
    t = await createTestApp({ env: { LOG_LEVEL: 'warn' } });
    await provision(t);
    server = await startTestServer(t.app);
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
    expect(weight.totalGzip).toBeGreaterThan(0);
  });
});
