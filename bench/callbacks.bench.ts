import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { integrators } from '../src/db/schema.ts';
import { enqueueEvent } from '../src/domain/notifications/outbox.ts';
import { startCallbackLoop } from '../src/workers/callbacks.ts';
import { createTestApp, provision, type TestApp } from '../tests/support/app.ts';
import { type BenchRow, benchDatabases as databases, percentile, recordBench, round } from './support/report.ts';

/**
 * Callback delivery: (1) throughput — a backlog of events drained by one process's callback
 * loop into a local receiver that answers 200 at once (signing, SSRF resolution, HTTP, recording
 * the attempt); (2) outbox lag — events written at a steady rate while the loop runs, measured
 * from created_at to arrival at the receiver, at the default poll interval (writes wake the loop).
 */
const BACKLOG = Number(process.env.PAYLINK_BENCH_CALLBACKS ?? 2000);
const RATE_PER_S = 100;
const STEADY_MS = Number(process.env.PAYLINK_BENCH_SECONDS ?? 5) * 1000;

const label = { pglite: 'PGlite', postgres: 'PostgreSQL' };
const rows: BenchRow[] = [];

afterAll(() => {
  recordBench('Callbacks: delivery to a local receiver', rows);
});

async function startReceiver() {
  const arrivals: Array<{ id: string; createdAt: number; at: number }> = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; created_at: string };
      arrivals.push({ id: body.id, createdAt: Date.parse(body.created_at), at });
      res.writeHead(200).end();
      for (const w of waiters.filter((w) => arrivals.length >= w.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    waitFor: (n: number) => (arrivals.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }))),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe.each(databases)('callback bench on %s', (db) => {
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
  });

  it(`drains a backlog of ${BACKLOG} events and measures outbox lag`, async () => {
    const setup = async (pollMs: number) => {
      await t?.close();
      t = await createTestApp({ db, env: { LOG_LEVEL: 'warn', PAYLINK_WORKER_POLL_MS: String(pollMs) } });
      await provision(t);
      const [acme] = await t.app.db.select().from(integrators).where(eq(integrators.email, 'billing@acme.example'));
      return acme!.id;
    };
    const data = (i: number) => ({
      transaction_id: `txn_bench_${i}`,
      status: 'succeeded',
      amount: '250.00',
      currency: 'PHP',
      merchant_reference_id: `order-${i}`,
    });

    // (1) throughput
    const receiver = await startReceiver();
    let integratorId = await setup(1000);
    for (let i = 0; i < BACKLOG; i += 100) {
      await t!.app.db.transaction(async (tx) => {
        for (let j = i; j < Math.min(i + 100, BACKLOG); j++) {
          await enqueueEvent(tx, { integratorId, type: 'payment.succeeded', data: data(j), callbackUrl: receiver.url, now: t!.app.now() });
        }
      });
    }
    const started = performance.now();
    let loop = startCallbackLoop(t!.app, t!.app.log);
    await receiver.waitFor(BACKLOG);
    const seconds = (performance.now() - started) / 1000;
    await loop.stop();
    expect(new Set(receiver.arrivals.map((a) => a.id)).size).toBe(BACKLOG);
    rows.push({
      name: `backlog drain, one process (${label[db]})`,
      values: { 'events/s': round(BACKLOG / seconds, 0), events: BACKLOG, 'lag p50 ms': '', 'lag p99 ms': '' },
      note: `concurrency ${t!.app.config.webhookConcurrency}, receiver answers 200 at once`,
    });
    console.log(`[bench] ${label[db]}: ${round(BACKLOG / seconds, 0)} callbacks/s`);

    // (2) outbox lag at the default poll interval (1 s): a written event wakes the worker (LISTEN /
    // NOTIFY), so lag should not depend on the poll. Near idle (10 events/s) and at 100 events/s.
    for (const rate of [10, RATE_PER_S]) {
      const pollMs = 1000;
      receiver.arrivals.length = 0;
      integratorId = await setup(pollMs);
      loop = startCallbackLoop(t!.app, t!.app.log);
      const total = Math.round((rate * STEADY_MS) / 1000);
      const begin = performance.now();
      for (let i = 0; i < total; i++) {
        const due = begin + (i * 1000) / rate;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        await enqueueEvent(t!.app.db, { integratorId, type: 'payment.succeeded', data: data(i), callbackUrl: receiver.url, now: t!.app.now() });
      }
      await receiver.waitFor(total);
      await loop.stop();
      const lags = receiver.arrivals.map((a) => a.at - a.createdAt);
      rows.push({
        name: `outbox lag at ${rate} events/s, poll ${pollMs} ms (${label[db]})`,
        values: { 'events/s': rate, events: total, 'lag p50 ms': round(percentile(lags, 50), 0), 'lag p99 ms': round(percentile(lags, 99), 0) },
        note: 'created_at → arrival at the receiver; target p99 ≤ 100 ms (woken by the write)',
      });
      console.log(`[bench] ${label[db]}: lag p50 ${percentile(lags, 50)} ms, p99 ${percentile(lags, 99)} ms (${rate}/s, poll ${pollMs} ms)`);
    }
    await receiver.close();
  });
});
