import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { CARD_EXPIRY } from '../tests/support/cards.ts';
import { type LoadResult, loadRow, runLoad } from './support/load.ts';
import { type Memory, npmStart, type StartedServer, untilBanner } from './support/npm-start.ts';
import { type BenchRow, percentile, recordBench, round } from './support/report.ts';

/**
 * Memory and start time of the real thing: `npm start` (built) as a separate process, its resident
 * memory read from /proc/<pid>/status every 0.5 s (VmRSS) plus the kernel's high-water mark (VmHWM,
 * which also catches a spike shorter than the sampling interval). docs/deploy.md states the targets
 * and what each figure means; issue 17 asked for them:
 *  - PGlite, fresh data directory: peak during the first start ≤ 512 MB;
 *  - PGlite idle ≤ 300 MB, and after the refund + payment-page load RSS back within 20 % of idle;
 *  - start on an existing data directory to a ready /readyz ≤ 3 s (median of several starts);
 *  - PostgreSQL (DATABASE_URL) idle ≤ 200 MB.
 * The load runs PAYLINK_BENCH_MEMORY_LOAD_SECONDS (default 60; 600 for the 10-minute figure); the
 * figure after it is read PAYLINK_BENCH_MEMORY_AFTER_LOAD_SECONDS later (default 30).
 */
const LOAD_SECONDS = Number(process.env.PAYLINK_BENCH_MEMORY_LOAD_SECONDS ?? 60);
const SETTLE_SECONDS = Number(process.env.PAYLINK_BENCH_MEMORY_SETTLE_SECONDS ?? 15);
/** How long after the load the "within 20 % of idle" figure is read (sampled every second on the way). */
const AFTER_LOAD_SECONDS = Number(process.env.PAYLINK_BENCH_MEMORY_AFTER_LOAD_SECONDS ?? 30);
const STARTS = Number(process.env.PAYLINK_BENCH_MEMORY_STARTS ?? 5);
const CONCURRENCY = Number(process.env.PAYLINK_BENCH_CONCURRENCY ?? 16);
const SPREAD_PAYMENTS = 16;

const root = process.cwd();
const rows: BenchRow[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

afterAll(() => {
  recordBench('Memory and start time: npm start as its own process (RSS from /proc)', rows);
});

const mem = (name: string, memory: Partial<Memory> & { peakMb?: number }, target: string, met: boolean | undefined, note?: string): BenchRow => ({
  name,
  values: {
    'RSS MB': memory.rssMb ?? '',
    'peak (VmHWM) MB': memory.hwmMb ?? '',
    target,
    '': met === undefined ? '' : met ? 'meets' : 'MISSES',
  },
  note,
});

/** The velocity limits would answer the load generator (one IP, one integrator) with refusals. */
const benchEnv = (dataDir: string) => ({
  PAYLINK_DATA_DIR: dataDir,
  DATABASE_URL: undefined,
  LOG_LEVEL: 'warn',
  PAYLINK_REFUND_MAX_COUNT: '1000000',
  PAYLINK_LIMIT_API_REQUESTS: 'off',
  PAYLINK_LIMIT_CARD_ATTEMPTS_PER_IP: 'off',
  PAYLINK_LIMIT_CARD_ATTEMPTS_PER_LINK: 'off',
});

async function post(url: string, body: unknown, token?: string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as any };
}

/** A paid payment through the demo link, as a customer's browser makes it. */
async function pay(server: StartedServer, token: string, n: number): Promise<{ transactionId: string; checkoutPath: string }> {
  const dynamic = await post(`${server.url}/pay/demo`, {
    key: token,
    customer: { first_name: 'Ana', last_name: 'Reyes', contact: { email: 'ana@example.com' } },
    payment: { description: `Memory bench ${n}`, merchant_reference_id: `MEM-${n}` },
    route: { notify_user: 'false' },
  });
  if (dynamic.status !== 200 || !dynamic.json.link) throw new Error(`creating a checkout failed: ${JSON.stringify(dynamic.json)}`);
  const checkoutPath = new URL(dynamic.json.link).pathname;
  const paid = await post(`${server.url}${checkoutPath}/pay`, {
    fields: {},
    card: { number: '4242 4242 4242 4242', expiry: CARD_EXPIRY, cvc: '123', name: 'Ana Reyes' },
  });
  if (paid.json.data?.status_code !== 'OK.03.00') throw new Error(`paying failed: ${JSON.stringify(paid.json)}`);
  return { transactionId: paid.json.data.transaction_id, checkoutPath };
}

const started: StartedServer[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const server of started) await server.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function start(env: Record<string, string | undefined>): Promise<StartedServer> {
  const server = await npmStart({ cwd: root, env });
  started.push(server);
  return server;
}

describe('memory', () => {
  it(
    'PGlite: a fresh start, starts on the existing data directory, idle, and a long refund + page load',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'paylink-mem-'));
      dirs.push(dataDir);
      const env = benchEnv(dataDir);

      // 1. First start on an empty data directory: template unpacked, migrations, demo provisioning.
      const fresh = await start(env);
      await untilBanner(fresh);
      await sleep(SETTLE_SECONDS * 1000);
      const afterFresh = fresh.memory();
      rows.push(
        mem(
          'PGlite: first start on an empty data directory (peak)',
          { hwmMb: afterFresh.hwmMb },
          '≤ 512 MB',
          afterFresh.hwmMb <= 512,
          `healthy after ${fresh.healthyMs} ms`,
        ),
        mem(`PGlite: idle ${SETTLE_SECONDS} s after the first start`, afterFresh, '', undefined, 'includes the demo provisioning (Argon2 hash)'),
      );
      await fresh.stop();

      // 2. Starts on the existing data directory: time to a ready /readyz, the median of several.
      const times: number[] = [];
      let server: StartedServer | undefined;
      for (let i = 0; i < STARTS; i++) {
        server = await start(env);
        times.push(server.healthyMs);
        await untilBanner(server);
        if (i < STARTS - 1) await server.stop();
      }
      const median = percentile(times, 50);
      rows.push({
        name: `PGlite: start on the existing data directory to a ready /readyz (median of ${STARTS})`,
        values: { 'ms (median)': median, 'ms (all)': times.join(' / '), target: '≤ 3000 ms', '': median <= 3000 ? 'meets' : 'MISSES' },
        note: 'CPU-bound: noisy on a shared machine',
      });

      // 3. Idle on the existing data directory.
      const s = server!;
      await sleep(SETTLE_SECONDS * 1000);
      const idle = s.memory();
      rows.push(mem(`PGlite: idle ${SETTLE_SECONDS} s after a start on the existing data directory`, idle, '≤ 300 MB', idle.rssMb <= 300));

      // 4. Load: partial refunds over many payments and the two payment pages, then rest.
      const credentials = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8')) as { token: string };
      const payments: { transactionId: string; checkoutPath: string }[] = [];
      for (let i = 0; i < SPREAD_PAYMENTS; i++) payments.push(await pay(s, credentials.token, i));
      const refund = (i: number) =>
        fetch(`${s.url}/api/v1/refund`, {
          method: 'POST',
          headers: { authorization: credentials.token, 'content-type': 'application/json' },
          body: JSON.stringify({ transaction_id: payments[i % SPREAD_PAYMENTS]!.transactionId, notify_user: false, reason: 'bench', amount: '0.01' }),
        });
      const pages = ['/pay/demo', ...payments.slice(0, 4).map((p) => p.checkoutPath)];
      const send = (i: number) => (i % 2 === 0 ? refund(i >> 1) : fetch(s.url + pages[(i >> 1) % pages.length]));
      const ok = (res: Response, text: string) => res.status === 200 && (text.includes('"status_code":"OK.04.00"') || text.includes('</html>'));
      const timeline: number[] = [];
      const recorder = setInterval(() => timeline.push(s.memory().rssMb), 10_000);
      let load: LoadResult;
      try {
        load = await runLoad({ concurrency: CONCURRENCY, durationMs: LOAD_SECONDS * 1000, send, ok });
      } finally {
        clearInterval(recorder);
      }
      const underLoad = s.memory();
      // V8's memory reducer, not any call of ours, gives the grown heap back: it looks again about
      // 8 s after its last full collection once allocation has slowed, so sample the way down.
      const rest: number[] = [];
      for (let second = 1; second <= AFTER_LOAD_SECONDS; second++) {
        await sleep(1000);
        rest.push(s.memory().rssMb);
      }
      const after = s.memory();
      const growth = (after.rssMb / idle.rssMb - 1) * 100;
      rows.push(
        loadRow(`PGlite: ${LOAD_SECONDS} s of refunds + payment pages (${CONCURRENCY} clients)`, load, undefined, 'every other request a refund of 0.01'),
        mem(
          `PGlite: during the ${LOAD_SECONDS} s load`,
          { rssMb: underLoad.rssMb, hwmMb: underLoad.hwmMb },
          '≤ 512 MB',
          underLoad.hwmMb <= 512,
          `RSS every 10 s: ${timeline.map((v) => Math.round(v)).join(', ')}`,
        ),
        mem(
          `PGlite: ${AFTER_LOAD_SECONDS} s after the load stopped`,
          after,
          'within 20 % of idle',
          Math.abs(growth) <= 20,
          `${growth >= 0 ? '+' : ''}${round(growth, 1)} % against idle before the load; RSS 1, 5, 10, 15, 20 … s after: ` +
            rest
              .filter((_, i) => i === 0 || (i + 1) % 5 === 0)
              .map((v) => Math.round(v))
              .join(', '),
        ),
      );
      await s.stop();
      expect(load.errors, load.firstError).toBe(0);
    },
    (LOAD_SECONDS + 600) * 1000,
  );

  it.runIf(process.env.DATABASE_URL)('PostgreSQL: idle after a start', async () => {
    const database = `paylink_mem_${process.pid}_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${database}`);
    const dataDir = mkdtempSync(join(tmpdir(), 'paylink-mem-pg-'));
    dirs.push(dataDir);
    try {
      const url = new URL(process.env.DATABASE_URL!);
      url.pathname = `/${database}`;
      const server = await start({ ...benchEnv(dataDir), DATABASE_URL: url.toString() });
      await untilBanner(server);
      await server.stop();
      const again = await start({ ...benchEnv(dataDir), DATABASE_URL: url.toString() });
      await untilBanner(again);
      await sleep(SETTLE_SECONDS * 1000);
      const idle = again.memory();
      rows.push(mem(`PostgreSQL: idle ${SETTLE_SECONDS} s after a start`, idle, '≤ 200 MB', idle.rssMb <= 200, `healthy after ${again.healthyMs} ms`));
      await again.stop();
    } finally {
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.end();
    }
  });
});
