import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN } from '../tests/support/app.ts';
import { createPayment } from '../tests/support/payments.ts';
import { type ExternalServer, type Measured, measure, ratioRow, startExternal } from './support/external.ts';
import { type BenchRow, recordBench, round } from './support/report.ts';

/**
 * Scale-out on one PostgreSQL (docs/deploy.md): the refund load against one web process, then split
 * across two web processes (PAYLINK_WORKERS=0) with a third process running only the workers
 * (`npm run worker`), all built servers on their own ports. Then the books are checked: every answered
 * refund moved money once (no refund doubled), and the payments' refunded totals equal the refunds and
 * the sandbox ledger. Target: the pair ≥ 1.5 × one process, or the bottleneck named.
 */
const SECONDS = Number(process.env.PAYLINK_BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.PAYLINK_BENCH_CONCURRENCY ?? 16);
const PAYMENTS = 64;
const rows: BenchRow[] = [];

afterAll(() => {
  if (rows.length > 0) recordBench('Scale-out: two web processes and a worker on one PostgreSQL', rows);
});

describe.runIf(process.env.DATABASE_URL)('scale-out on PostgreSQL', () => {
  const stops: ExternalServer[] = [];
  afterAll(async () => {
    for (const s of stops.reverse()) await s.stop();
  });

  it(`refunds through two web processes at once, and no refund is doubled (${CONNECTIONS} connections in all)`, async () => {
    // A refund interrupted for good (its client gone mid-request) is recovered after 10 s, not 60.
    const env = { PAYLINK_REFUND_MAX_COUNT: '1000000', PAYLINK_LIMIT_API_REQUESTS: 'off', PAYLINK_REFUND_RECOVERY_SECONDS: '10' };
    const started = await startExternal('postgres', { ...env, PAYLINK_WORKERS: '0' }, async (t) => {
      const ids: string[] = [];
      for (let i = 0; i < PAYMENTS; i++) ids.push((await createPayment(t, { amount: '1000000.00', callbackUrl: null })).id);
      return { ids, databaseUrl: t.databaseUrl! };
    });
    stops.push(started.server);
    const { ids, databaseUrl } = started.prepared;
    const second = await started.spawn({ PAYLINK_WORKERS: '0' });
    stops.push(second);
    const worker = await started.spawn({}, ['--worker']);
    stops.push(worker);

    const refunds = (url: string, connections: number) =>
      measure({
        url,
        seconds: SECONDS,
        connections,
        requests: [
          {
            method: 'POST',
            path: '/api/v1/refund',
            headers: { authorization: TEST_TOKEN, 'content-type': 'application/json' },
            body: (i) => JSON.stringify({ transaction_id: ids[i % PAYMENTS], notify_user: false, reason: 'bench', amount: '0.01' }),
          },
        ],
        ok: (status, body) => status === 200 && body.includes('"status_code":"OK.04.00"'),
      });

    await refunds(started.server.url, CONNECTIONS); // warm up both
    await refunds(second.url, CONNECTIONS);
    const one = await refunds(started.server.url, CONNECTIONS);
    const [a, b] = await Promise.all([refunds(started.server.url, CONNECTIONS / 2), refunds(second.url, CONNECTIONS / 2)]);
    const pair: Measured = {
      rps: a!.rps + b!.rps,
      p50: Math.max(a!.p50, b!.p50),
      p99: Math.max(a!.p99, b!.p99),
      requests: a!.requests + b!.requests,
      errors: a!.errors + b!.errors,
    };

    // The books: each succeeded refund is 0.01 once, on the payment and in the acquirer's ledger.
    // Refunds still in flight when the load stopped finish first (a request whose client went away
    // completes on the server; one interrupted for good is finished by the refund-recovery worker).
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    type Books = { refunds: number; refunded: string; on_payments: string; at_acquirer: string; pending: number };
    const readBooks = async () =>
      (
        await client.query(`select
          (select count(*) from refunds where status = 'succeeded')::int as refunds,
          (select coalesce(sum(amount_minor), 0) from refunds where status = 'succeeded')::bigint as refunded,
          (select coalesce(sum(refunded_minor), 0) from payments)::bigint as on_payments,
          (select coalesce(sum(refunded_minor), 0) from sandbox_charges)::bigint as at_acquirer,
          (select count(*) from refunds where status = 'pending')::int as pending`)
      ).rows[0] as Books;
    let books = await readBooks();
    for (let waited = 0; books.pending > 0 && waited < 120_000; waited += 1000) {
      await new Promise((r) => setTimeout(r, 1000));
      books = await readBooks();
    }
    await client.end();

    rows.push(
      ratioRow('refund PARTIAL, one web process', one, undefined, ''),
      ratioRow('refund PARTIAL, two web processes (load split)', pair, one, '≥ 150 %', `${a!.rps} + ${b!.rps} req/s; a third process runs the workers`),
      {
        name: 'books after the run',
        values: {
          refunds: books.refunds,
          'refunded (minor)': books.refunded,
          'on payments': books.on_payments,
          'at acquirer': books.at_acquirer,
          pending: books.pending,
        },
        note: 'every succeeded refund counted once on its payment and once at the acquirer',
      },
    );
    console.log(`[bench] scale-out: one ${one.rps}/s, pair ${pair.rps}/s (${round((pair.rps / one.rps) * 100, 0)} %)`);
    expect(one.errors + pair.errors).toBe(0);
    expect(books.pending).toBe(0);
    expect(books.on_payments).toBe(books.refunded);
    expect(books.at_acquirer).toBe(books.refunded);
  });
});
