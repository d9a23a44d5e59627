import type { PGlite, QueryOptions, Transaction } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPglite, forDrizzle } from '../../../src/db/pglite.ts';

/**
 * Drizzle on PGlite without per-query parsers (src/db/pglite.ts, forDrizzle): Drizzle's parsers are
 * recognised and set once on the instance, so PGlite no longer copies its parser table per query,
 * and every value comes back exactly as it did with them.
 */
let plain: PGlite;
let lean: PGlite;
const seen: (QueryOptions | undefined)[] = [];

const ROWS = sql`select
  timestamptz '2026-11-23 10:11:12.345+08' as at,
  timestamp '2026-11-23 10:11:12' as local_at,
  date '2026-02-28' as day,
  interval '1 day 02:03:04' as span,
  array[timestamptz '2026-01-01 00:00:00+00', null] as ats,
  array[date '2026-01-01'] as days,
  array[interval '5 minutes'] as spans,
  array[1.50, 2]::numeric[] as amounts,
  12.50::numeric as amount,
  9007199254740993::bigint as big,
  '{"a": [1, "b"]}'::jsonb as doc,
  true as yes,
  null::text as nothing`;

beforeAll(async () => {
  plain = await createPglite({});
  lean = await createPglite({});
  // Records the options of every query that reaches PGlite, in a transaction or not.
  const spy = <T extends Pick<PGlite, 'query'>>(target: T) => {
    const query = target.query.bind(target);
    target.query = ((text: string, params?: unknown[], options?: QueryOptions) => {
      seen.push(options);
      return query(text, params, options);
    }) as T['query'];
    return target;
  };
  spy(lean);
  const transaction = lean.transaction.bind(lean);
  lean.transaction = ((fn: (tx: Transaction) => Promise<unknown>) => transaction((tx) => fn(spy(tx)))) as PGlite['transaction'];
});
afterAll(async () => {
  await plain?.close();
  await lean?.close();
});

describe('Drizzle on PGlite without per-query parsers', () => {
  it('returns every kind of value exactly as with Drizzle’s own parsers, in and out of a transaction', async () => {
    const before = await drizzle({ client: plain }).execute(ROWS);
    const db = drizzle({ client: forDrizzle(lean) });
    expect((await db.execute(ROWS)).rows).toEqual(before.rows);
    expect(await db.transaction(async (tx) => (await tx.execute(ROWS)).rows)).toEqual(before.rows);
    // Timestamps, dates and intervals stay PostgreSQL's text for Drizzle to parse.
    expect(before.rows[0]).toMatchObject({ at: '2026-11-23 02:11:12.345+00', day: '2026-02-28', span: '1 day 02:03:04' });
  });

  it('takes Drizzle’s parsers off each query, in a transaction too, and keeps its other options', async () => {
    seen.length = 0;
    const db = drizzle({ client: forDrizzle(lean) });
    await db.execute(sql`select 1 as one`);
    await db.transaction(async (tx) => {
      await tx.execute(sql`select 2 as two`);
    });
    // The statement outside, and inside the transaction (PGlite's own BEGIN/COMMIT go another way).
    const queries = seen.filter((options) => options !== undefined);
    expect(queries).toHaveLength(2);
    for (const options of queries) {
      expect(options.parsers).toBeUndefined();
      expect(options.rowMode).toBe('object');
    }
  });

  it('passes any other parsers through untouched', async () => {
    seen.length = 0;
    const client = forDrizzle(lean);
    const own = { 25: (text: string) => text.toUpperCase() };
    const result = await client.query<{ word: string }>(`select 'abc'::text as word`, [], { parsers: own });
    expect(result.rows[0]!.word).toBe('ABC');
    expect(seen.at(-1)?.parsers).toBe(own);
  });
});
