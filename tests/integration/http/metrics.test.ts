import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Metrics, parseListenAddress, startMetricsServer } from '../../../src/http/metrics.ts';
import { closeServer } from '../../../src/http/server.ts';
import { call, useServedApp } from '../../support/app.ts';
import { createPayment } from '../../support/payments.ts';

const served = useServedApp();
let metricsUrl: string;
let stop: () => Promise<void>;

beforeAll(async () => {
  const metrics = new Metrics(served.t.app);
  served.t.app.observeRequest = (method, route, status, seconds) => metrics.observeRequest(method, route, status, seconds);
  const started = await startMetricsServer(served.t.app, metrics, { host: '127.0.0.1', port: 0 });
  metricsUrl = `http://127.0.0.1:${started.port}/metrics`;
  stop = () => closeServer(started.server, 500);
});
afterAll(async () => {
  served.t.app.observeRequest = undefined;
  await stop?.();
});

/** The value of one series in a Prometheus text exposition (0 when absent). */
function seriesValue(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}
const scrape = async () => {
  const res = await fetch(metricsUrl);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.text();
};

describe('metrics', () => {
  it('metrics › counters move after a journey: requests by route and status, payments and refunds by method, callbacks waiting', async () => {
    const before = await scrape();
    const paid = await createPayment(served.t, { amount: '100.00', callbackUrl: 'https://merchant.example/callback' });
    expect((await fetch(`${served.server.url}/pay/acme-books`)).status).toBe(200);
    expect((await call(served.server.url, 'GET', '/api/v1/transactions')).status).toBe(200);
    const refunded = await call(served.server.url, 'POST', '/api/v1/refund', {
      body: { transaction_id: paid.id, notify_user: false, reason: 'Partly returned', amount: '40.00' },
    });
    expect(refunded.json.data.status_code).toBe('OK.04.00');
    const after = await scrape();

    const payments = 'paylink_payments{status="succeeded",method="card",currency="PHP"}';
    expect(seriesValue(after, payments)).toBe(seriesValue(before, payments) + 1);
    const amount = 'paylink_payments_amount_minor{status="succeeded",method="card",currency="PHP"}';
    expect(seriesValue(after, amount)).toBe(seriesValue(before, amount) + 10_000);
    const refunds = 'paylink_refunds{status="succeeded",method="card",currency="PHP"}';
    expect(seriesValue(after, refunds)).toBe(seriesValue(before, refunds) + 1);
    expect(seriesValue(after, 'paylink_refunds_amount_minor{status="succeeded",method="card",currency="PHP"}')).toBeGreaterThanOrEqual(4_000);
    // No worker runs in this test: the payment's and the refund's callbacks wait.
    expect(seriesValue(after, 'paylink_callbacks{state="pending"}')).toBeGreaterThanOrEqual(2);

    const page = 'paylink_http_request_duration_seconds_count{method="GET",route="/pay/[slug]",status="200"}';
    expect(seriesValue(after, page)).toBe(seriesValue(before, page) + 1);
    const list = 'paylink_http_request_duration_seconds_count{method="GET",route="/api/v1/transactions",status="200"}';
    expect(seriesValue(after, list)).toBe(seriesValue(before, list) + 1);
    expect(after).toContain('paylink_process_resident_memory_bytes');
  });

  it('metrics › a path no route matches is counted under one label, never its own series', async () => {
    await fetch(`${served.server.url}/no-such-page-${Date.now()}`);
    // A request is counted when its connection's response closes, which may come just after the client read it.
    await vi.waitFor(async () => expect(await scrape()).toMatch(/route="\(not found\)",status="404"/));
    expect(await scrape()).not.toContain('no-such-page');
  });

  it('metrics › are not on the public port, and the metrics listener answers only GET /metrics', async () => {
    expect((await fetch(`${served.server.url}/metrics`)).status).toBe(404);
    expect((await fetch(metricsUrl.replace('/metrics', '/'))).status).toBe(404);
    expect((await fetch(metricsUrl, { method: 'POST' })).status).toBe(405);
  });

  it('metrics › PAYLINK_METRICS_LISTEN is read as host:port, IPv6 in brackets', () => {
    expect(parseListenAddress('127.0.0.1:9464')).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(parseListenAddress('[::1]:9464')).toEqual({ host: '::1', port: 9464 });
    expect(() => parseListenAddress('9464')).toThrow(/host:port/);
  });
});
