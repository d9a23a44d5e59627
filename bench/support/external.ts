import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Pool } from 'undici';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { createTestDatabaseUrl, provision, type TestApp } from '../../tests/support/app.ts';
import { type PaylinkProcess, startPaylink } from '../../tests/support/process.ts';
import { type BenchRow, percentile, round } from './report.ts';

/**
 * Benchmarks against the built server (dist/paylink/server.mjs) in a process of its own, driven by
 * autocannon from the bench process: what `npm start` serves, measured from outside.
 * `prepare` opens the same database first (PGlite data directory or a new PostgreSQL database) to
 * provision it and make payments, then closes it, since an embedded database has one owner.
 */
export interface ExternalServer {
  url: string;
  process: PaylinkProcess;
  stop(): Promise<void>;
}

export async function startExternal<T>(
  db: 'pglite' | 'postgres',
  env: Record<string, string>,
  prepare: (t: TestApp) => Promise<T>,
): Promise<{
  server: ExternalServer;
  prepared: T /** Another process on the same database (PostgreSQL). */;
  spawn(env?: Record<string, string>, args?: string[]): Promise<ExternalServer>;
}> {
  const dataDir = mkdtempSync(join(tmpdir(), 'paylink-bench-'));
  const databaseUrl = db === 'postgres' ? await createTestDatabaseUrl() : undefined;
  const base: Record<string, string> = {
    PAYLINK_DATA_DIR: dataDir,
    PAYLINK_MASTER_KEY: randomBytes(32).toString('base64'),
    PAYLINK_ALLOW_PRIVATE_CALLBACKS: '1',
    LOG_LEVEL: 'warn',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  };
  const app = await createApp({ config: loadConfig(base), log: createLogger('warn', () => {}) });
  const t: TestApp = { app, logs: [], dataDir, databaseUrl, close: () => app.database.close() };
  let prepared: T;
  try {
    await provision(t);
    prepared = await prepare(t);
  } finally {
    await app.database.close();
  }
  const spawnMore = async (extra: Record<string, string> = {}, args: string[] = []): Promise<ExternalServer> => {
    const child = startPaylink({ ...base, ...extra }, args);
    const url = await child.ready;
    return {
      url,
      process: child,
      async stop() {
        child.child.kill('SIGTERM');
        await child.exited;
      },
    };
  };
  const first = await spawnMore();
  return {
    prepared,
    spawn: spawnMore,
    server: {
      ...first,
      async stop() {
        await first.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    },
  };
}

export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  /** Each request's latency in ms (measurePaced), to pool rounds into one percentile. */
  latencies?: number[];
}

/** One autocannon run: `connections` closed-loop clients (or a fixed `rate` in total), `seconds` long. */
export async function measure(opts: {
  url: string;
  seconds: number;
  connections: number;
  rate?: number;
  /** Each request in turn (the list repeats); `body` and `pathOf` may be functions of the request's number. */
  requests: Array<{
    method?: 'GET' | 'POST';
    path: string;
    pathOf?: (i: number) => string;
    headers?: Record<string, string>;
    body?: (i: number) => string;
  }>;
  /** Whether an answer counts as a success (default: HTTP 200). */
  ok?: (status: number, body: string) => boolean;
}): Promise<Measured> {
  let failed = 0;
  let n = 0;
  const ok = opts.ok ?? ((status: number) => status === 200);
  const result = await autocannon({
    url: opts.url,
    connections: opts.connections,
    duration: opts.seconds,
    overallRate: opts.rate,
    requests: opts.requests.map((r) => ({
      method: r.method ?? 'GET',
      path: r.path,
      headers: r.headers,
      setupRequest: (req: autocannon.Request) => {
        const i = n++;
        return { ...req, ...(r.body ? { body: r.body(i) } : {}), ...(r.pathOf ? { path: r.pathOf(i) } : {}) };
      },
      onResponse: (status: number, body: string) => {
        if (!ok(status, body)) failed++;
      },
    })),
  });
  const bad = failed + result.errors + result.timeouts;
  return {
    rps: round(result.requests.average, 0),
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors: bad,
  };
}

/**
 * An open-loop run at a steady `rate`: request i is sent at start + i / rate whatever the earlier ones
 * are doing (on as many connections as are busy, up to 256), and its latency is counted from that
 * planned moment, so a stall delays every request planned behind it (no coordinated omission).
 * autocannon's `overallRate` is not used for this: it sends each second's quota back to back at the
 * start of the second and then waits, so its latencies measure its own bursts.
 */
export async function measurePaced(opts: {
  url: string;
  seconds: number;
  rate: number;
  request: { method?: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: (i: number) => string };
  ok?: (status: number, body: string) => boolean;
}): Promise<Measured> {
  const ok = opts.ok ?? ((status: number) => status === 200);
  const pool = new Pool(opts.url, { connections: 256, pipelining: 1 });
  const total = Math.round(opts.rate * opts.seconds);
  const interval = 1000 / opts.rate;
  const latencies: number[] = [];
  let errors = 0;
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  try {
    for (let i = 0; i < total; i++) {
      const planned = start + i * interval;
      const wait = planned - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      inFlight.push(
        (async () => {
          try {
            const res = await pool.request({
              method: opts.request.method ?? 'GET',
              path: opts.request.path,
              headers: opts.request.headers,
              body: opts.request.body?.(i),
            });
            const text = await res.body.text();
            if (!ok(res.statusCode, text)) errors++;
          } catch {
            errors++;
          }
          latencies.push(performance.now() - planned);
        })(),
      );
    }
    await Promise.all(inFlight);
  } finally {
    await pool.close();
  }
  const seconds = (performance.now() - start) / 1000;
  return {
    rps: round(total / seconds, 0),
    p50: round(percentile(latencies, 50), 1),
    p99: round(percentile(latencies, 99), 1),
    requests: total,
    errors,
    latencies,
  };
}

/** A report row: the figure, the no-op of the same run, the ratio and the target. */
export function ratioRow(name: string, r: Measured, noop: Measured | undefined, target: string, note?: string): BenchRow {
  return {
    name,
    values: {
      'req/s': r.rps,
      'p50 ms': r.p50,
      'p99 ms': r.p99,
      errors: r.errors,
      'vs no-op': noop ? `${round((r.rps / noop.rps) * 100, 1)} %` : '100 %',
      target,
    },
    note,
  };
}
