import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { PaylinkApp } from '../app.ts';
import { type OperationalFigures, operationalFigures } from '../domain/operations/figures.ts';
import { listen } from './server.ts';

/**
 * Prometheus metrics (prom-client), off unless the operator sets PAYLINK_METRICS_LISTEN: then a
 * listener of its own on that address serves GET /metrics, never the public port, so they are not
 * public by accident. Request metrics are this process's; the business figures are read from the
 * database at each scrape, so every process reports the same ones.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Histogram<'method' | 'route' | 'status'>;
  private figures?: Promise<OperationalFigures>;

  constructor(private readonly app: PaylinkApp) {
    collectDefaultMetrics({ register: this.registry, prefix: 'paylink_' });
    this.requests = new Histogram({
      name: 'paylink_http_request_duration_seconds',
      help: 'HTTP requests by route pattern, method and status, with their duration.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    const current = () => this.currentFigures();
    const figure = (name: string, help: string, labelNames: string[], read: (f: OperationalFigures, g: Gauge) => void) =>
      new Gauge({
        name,
        help,
        labelNames,
        registers: [this.registry],
        collect: async function (this: Gauge) {
          this.reset();
          read(await current(), this);
        },
      });
    figure('paylink_payments', 'Payments recorded, by status, method and currency.', ['status', 'method', 'currency'], (f, g) => {
      for (const p of f.payments) g.set({ status: p.status, method: p.method, currency: p.currency }, p.count);
    });
    figure(
      'paylink_payments_amount_minor',
      'Sum of payment amounts in minor units, by status, method and currency.',
      ['status', 'method', 'currency'],
      (f, g) => {
        for (const p of f.payments) g.set({ status: p.status, method: p.method, currency: p.currency }, p.amountMinor);
      },
    );
    figure('paylink_refunds', 'Refunds, by status, the payment method and currency.', ['status', 'method', 'currency'], (f, g) => {
      for (const r of f.refunds) g.set({ status: r.status, method: r.method, currency: r.currency }, r.count);
    });
    figure(
      'paylink_refunds_amount_minor',
      'Sum of refund amounts in minor units, by status, method and currency.',
      ['status', 'method', 'currency'],
      (f, g) => {
        for (const r of f.refunds) g.set({ status: r.status, method: r.method, currency: r.currency }, r.amountMinor);
      },
    );
    figure('paylink_callbacks', 'Callback deliveries not done: pending (will be retried) and failed (gave up).', ['state'], (f, g) => {
      g.set({ state: 'pending' }, f.callbacks.pending);
      g.set({ state: 'failed' }, f.callbacks.failed);
    });
    figure('paylink_callback_lag_seconds', 'Age of the oldest callback still pending delivery.', [], (f, g) => g.set(f.callbacks.oldestPendingSeconds));
    figure('paylink_emails', 'Customer e-mails not sent: pending and failed.', ['state'], (f, g) => {
      g.set({ state: 'pending' }, f.emails.pending);
      g.set({ state: 'failed' }, f.emails.failed);
    });
    figure('paylink_email_lag_seconds', 'Age of the oldest customer e-mail still pending.', [], (f, g) => g.set(f.emails.oldestPendingSeconds));
    figure('paylink_schedules_due', 'Active schedules whose next charge is due now or overdue (the scheduler backlog).', [], (f, g) => g.set(f.schedules.due));
    figure('paylink_schedules_lateness_seconds', 'How late the most overdue schedule charge is.', [], (f, g) => g.set(f.schedules.latestSeconds));
    if (app.database.poolStats) {
      const stats = app.database.poolStats.bind(app.database);
      new Gauge({
        name: 'paylink_db_pool_connections',
        help: 'PostgreSQL pool connections (total, idle) and queries waiting for one (waiting).',
        labelNames: ['state'],
        registers: [this.registry],
        collect() {
          const s = stats();
          this.set({ state: 'total' }, s.total);
          this.set({ state: 'idle' }, s.idle);
          this.set({ state: 'waiting' }, s.waiting);
        },
      });
    }
  }

  /** One database read per scrape, shared by the gauges that show it. */
  private currentFigures(): Promise<OperationalFigures> {
    this.figures ??= operationalFigures(this.app);
    return this.figures;
  }

  /** The exposition, with the figures read afresh. */
  async scrape(): Promise<string> {
    this.figures = undefined;
    try {
      return await this.registry.metrics();
    } finally {
      this.figures = undefined;
    }
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.observe({ method, route, status: String(status) }, seconds);
  }
}

/** `host:port` (IPv6 as `[::1]:9464`) as PAYLINK_METRICS_LISTEN gives it. */
export function parseListenAddress(value: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(value);
  if (!match) throw new Error(`must be host:port, such as 127.0.0.1:9464 (was ${JSON.stringify(value)})`);
  const port = Number(match[3]);
  if (port > 65_535) throw new Error(`the port must be 0–65535 (was ${port})`);
  return { host: (match[1] ?? match[2])!, port };
}

/** The metrics listener: GET /metrics only. Returns the server and the port it bound. */
export async function startMetricsServer(
  app: PaylinkApp,
  metrics: Metrics,
  address: { host: string; port: number },
): Promise<{ server: Server; port: number }> {
  const server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: metrics are at /metrics\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('method not allowed\n');
      return;
    }
    try {
      const body = await metrics.scrape();
      res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : body);
    } catch (error) {
      app.log.warn('metrics scrape failed', { error });
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics unavailable: the database did not answer\n');
    }
  });
  const port = await listen(server, address.host, address.port);
  return { server, port };
}
