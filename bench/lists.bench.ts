import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { integrators } from '../src/db/schema.ts';
import { listTransactions } from '../src/domain/payments/query.ts';
import { transactionsQuerySchema } from '../src/schemas/transaction.ts';
import { createTestApp, provision, startTestServer, TEST_TOKEN, type TestApp } from '../tests/support/app.ts';
import { type BenchRow, benchDatabases as databases, percentile, recordBench, round } from './support/report.ts';

/**
 * GET /api/v1/transactions on a large table, over HTTP against the built app: the first page,
 * a page deep in the list (starting_after), and each filter. The rows are written by one
 * generate_series statement; every list query is a keyset range scan on one of the
 * (…, created_at, id) indexes, so its time should not grow with the table.
 * PAYLINK_BENCH_LIST_ROWS sets the count (default 1,000,000 on PostgreSQL, 200,000 on PGlite,
 * whose in-memory WASM database is a single process and slow to fill).
 */
const REQUESTS = Number(process.env.PAYLINK_BENCH_LIST_REQUESTS ?? 200);
const ROWS = { postgres: Number(process.env.PAYLINK_BENCH_LIST_ROWS ?? 1_000_000), pglite: Number(process.env.PAYLINK_BENCH_LIST_ROWS ?? 200_000) };
const label = { pglite: 'PGlite', postgres: 'PostgreSQL' };
const rows: BenchRow[] = [];

afterAll(() => {
  recordBench('Lists: GET /api/v1/transactions on a large table', rows);
});

describe.each(databases)('list bench on %s', (db) => {
  let t: TestApp;
  let server: { url: string; close(): Promise<void> };
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  it(`lists ${ROWS[db].toLocaleString('en')} transactions: first page, deep page and each filter`, async () => {
    t = await createTestApp({ db });
    await provision(t);
    server = await startTestServer(t.app);
    const [acme] = await t.app.db.select({ id: integrators.id }).from(integrators).where(sql`${integrators.email} = 'billing@acme.example'`);
    const n = ROWS[db];
    const fillStart = performance.now();
    // One statement: a second apart, every tenth failed, 50,000 distinct customers, a unique order reference each.
    await t.app.db.execute(sql`
      insert into payments (id, integrator_id, status, amount_minor, currency, merchant_reference_id, customer_email, created_at, paid_at, failed_at)
      select 'txn_' || md5(g::text), ${acme!.id}, case when g % 10 = 0 then 'failed' else 'succeeded' end, 10000 + g % 1000, 'PHP',
             'ord-' || g, 'customer' || (g % 50000) || '@example.com',
             timestamptz '2024-01-01 00:00:00+00' + g * interval '1 second',
             case when g % 10 = 0 then null else timestamptz '2024-01-01 00:00:00+00' + g * interval '1 second' end,
             case when g % 10 = 0 then timestamptz '2024-01-01 00:00:00+00' + g * interval '1 second' end
      from generate_series(1, ${n}) g`);
    await t.app.db.execute(sql`analyze payments`);
    const fillSeconds = (performance.now() - fillStart) / 1000;
    const middle = `txn_${(await import('node:crypto'))
      .createHash('md5')
      .update(String(Math.floor(n / 2)))
      .digest('hex')}`;
    // [name, path, items expected, the WHERE the list query runs (for EXPLAIN: which index answers it)]
    const mine = sql`integrator_id = ${acme!.id}`;
    const hourFrom = new Date(Date.UTC(2024, 0, 1) + Math.floor(n / 2) * 1000);
    const hourTo = new Date(hourFrom.getTime() + 3_600_000);
    const cases: Array<[string, string, number, ReturnType<typeof sql>]> = [
      ['first page (20)', '/api/v1/transactions', 20, mine],
      ['first page (100)', '/api/v1/transactions?limit=100', 100, mine],
      [
        'deep page: starting_after the middle row',
        `/api/v1/transactions?starting_after=${middle}`,
        20,
        sql`${mine} and (created_at, id) < ((select created_at from payments where id = ${middle}), ${middle})`,
      ],
      ['status=failed', '/api/v1/transactions?status=failed', 20, sql`${mine} and status = 'failed'`],
      [
        'customer_email (case-insensitive)',
        '/api/v1/transactions?customer_email=Customer123@example.com',
        Math.min(20, Math.floor((n - 123) / 50_000) + 1),
        sql`${mine} and lower(customer_email) = 'customer123@example.com'`,
      ],
      [
        'merchant_reference_id',
        `/api/v1/transactions?merchant_reference_id=ord-${Math.floor(n / 3)}`,
        1,
        sql`${mine} and merchant_reference_id = ${`ord-${Math.floor(n / 3)}`}`,
      ],
      [
        'created range (one hour in the middle)',
        `/api/v1/transactions?created_gte=${hourFrom.toISOString()}&created_lt=${hourTo.toISOString()}`,
        20,
        sql`${mine} and created_at >= ${hourFrom.toISOString()}::timestamptz and created_at < ${hourTo.toISOString()}::timestamptz`,
      ],
    ];
    for (const [name, path, expected, where] of cases) {
      const plan = (
        (await t.app.db.execute(sql`explain select * from payments where ${where} order by created_at desc, id desc limit 21`)) as unknown as {
          rows: Array<Record<string, string>>;
        }
      ).rows
        .map((r) => Object.values(r)[0])
        .join('\n');
      const index = [...new Set([...plan.matchAll(/Index (?:Only )?Scan(?: Backward)? using (\w+)/g)].map((m) => m[1]))].join(' + ');
      expect(plan, `${name}: expected an index range scan without a sort\n${plan}`).not.toMatch(/Seq Scan on payments|Sort\b/);
      const latencies: number[] = [];
      for (let i = 0; i < REQUESTS + 10; i++) {
        const t0 = performance.now();
        const res = await fetch(server.url + path, { headers: { authorization: TEST_TOKEN } });
        const body = (await res.json()) as { data: { items: unknown[] } };
        if (i >= 10) latencies.push(performance.now() - t0);
        expect(res.status).toBe(200);
        expect(body.data.items).toHaveLength(expected);
      }
      // The same list through the domain query alone (no HTTP, no auth): what the database costs.
      const query = transactionsQuerySchema.parse(Object.fromEntries(new URL(path, server.url).searchParams));
      const queryLatencies: number[] = [];
      for (let i = 0; i < REQUESTS + 10; i++) {
        const t0 = performance.now();
        const page = await listTransactions(t.app, acme!, query);
        if (i >= 10) queryLatencies.push(performance.now() - t0);
        expect(page.items).toHaveLength(expected);
      }
      rows.push({
        name: `${name} (${label[db]}, ${n.toLocaleString('en')} rows)`,
        values: {
          'p50 ms': round(percentile(latencies, 50), 2),
          'p99 ms': round(percentile(latencies, 99), 2),
          'query p50 ms': round(percentile(queryLatencies, 50), 2),
          'query p99 ms': round(percentile(queryLatencies, 99), 2),
          requests: REQUESTS,
        },
        note: `index ${index || '?'}; p50/p99 over HTTP, query p50/p99 the domain query alone; sequential, after 10 warm-up requests`,
      });
    }
    rows.push({
      name: `fill (${label[db]})`,
      values: {},
      note: `${n.toLocaleString('en')} rows by one generate_series insert in ${round(fillSeconds, 1)} s`,
    });
  }, 900_000);
});
