import type { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { bigint, boolean, integer, jsonb, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPglite, forDrizzle, PreparedStatements } from '../../../src/db/pglite.ts';

/**
 * Statements with parameters run as prepared statements on PGlite (src/db/pglite.ts,
 * PreparedStatements): each text is parsed once, each run is one message. What Drizzle gets back
 * must be exactly what PGlite's own query gives, errors included, and PGlite's ordering of
 * statements and transactions must hold.
 */
let plain: PGlite;
let client: PGlite;

const things = pgTable('things', {
  id: text('id').primaryKey(),
  at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
  amount: numeric('amount').notNull(),
  big: bigint('big', { mode: 'bigint' }).notNull(),
  doc: jsonb('doc').$type<Record<string, unknown>>(),
  tags: text('tags').array(),
  yes: boolean('yes').notNull(),
  count: integer('count'),
});
const CREATE = `create table things (id text primary key, at timestamptz not null, amount numeric not null, big bigint not null,
  doc jsonb, tags text[], yes boolean not null, count integer)`;

const row = (id: string) => ({
  id,
  at: new Date('2026-11-23T02:11:12.345Z'),
  amount: '12.50',
  big: 9007199254740993n,
  doc: { a: [1, 'b'], quote: 'it\'s "quoted"' },
  tags: ['one', 'two, three', 'quote"d', null as unknown as string],
  yes: true,
  count: null,
});

/** The texts PostgreSQL holds prepared for this session. */
const prepared = async (pg: PGlite) => (await pg.query<{ statement: string }>('select statement from pg_prepared_statements')).rows.map((r) => r.statement);

beforeAll(async () => {
  plain = await createPglite({});
  client = forDrizzle(await createPglite({}));
  await plain.exec(CREATE);
  await client.exec(CREATE);
});
afterAll(async () => {
  await plain?.close();
  await client?.close();
});

describe('prepared statements on PGlite', () => {
  it('writes and reads every kind of value exactly as PGlite’s own query does, in and out of a transaction', async () => {
    const reference = drizzle({ client: plain });
    const db = drizzle({ client });
    await reference.insert(things).values([row('a'), row('b')]);
    await db.insert(things).values(row('a'));
    await db.transaction(async (tx) => {
      await tx.insert(things).values(row('b'));
    });
    const expected = await reference.select().from(things).orderBy(things.id);
    expect(await db.select().from(things).orderBy(things.id)).toEqual(expected);
    expect(await db.select().from(things).where(eq(things.id, 'b'))).toEqual([expected[1]]);
    expect(await db.transaction((tx) => tx.select().from(things).where(eq(things.id, 'a')))).toEqual([expected[0]]);
    // Raw statements in object rows, parameters of every kind.
    const raw = sql`select ${'x'}::text as word, ${12}::int as n, ${true}::boolean as flag, ${null}::text as nothing, ${new Date('2026-01-01T00:00:00Z')}::timestamptz as at`;
    expect((await db.execute(raw)).rows).toEqual((await reference.execute(raw)).rows);
  });

  it('parses a text once and runs it again by name', async () => {
    const db = drizzle({ client });
    const find = (id: string) => db.select({ id: things.id }).from(things).where(eq(things.id, id));
    await find('a');
    await find('b');
    await find('nobody');
    const texts = (await prepared(client)).filter((t) => t.startsWith('select "id" from "things" where'));
    expect(texts).toHaveLength(1);
    // A statement without parameters goes PGlite's own way (migrations' DDL, one-off texts).
    await db.execute(sql`select 1 as one`);
    expect(await prepared(client)).not.toContain('select 1 as one');
  });

  it('fails as PGlite does: the code and constraint, the query attached, and the next statement runs', async () => {
    const db = drizzle({ client });
    const error = await db
      .insert(things)
      .values(row('a'))
      .then(
        () => undefined,
        (e: unknown) => e as { cause: { code: string; constraint: string; query: string } },
      );
    expect(error?.cause).toMatchObject({ code: '23505', constraint: 'things_pkey', query: expect.stringContaining('insert into "things"') });
    expect(await db.select({ id: things.id }).from(things).where(eq(things.id, 'a'))).toEqual([{ id: 'a' }]);
    // In a transaction the error rolls it back, and its earlier writes with it.
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(things).values(row('c'));
        await tx.insert(things).values(row('a'));
      }),
    ).rejects.toThrow();
    expect(await db.select({ id: things.id }).from(things).where(eq(things.id, 'c'))).toEqual([]);
  });

  it('prepares a statement again when its table changed shape', async () => {
    await client.exec('create table shapes (a int)');
    await client.query('insert into shapes values ($1)', [1]);
    const select = () => client.query<Record<string, unknown>>('select * from shapes where a = $1', [1]);
    expect((await select()).rows).toEqual([{ a: 1 }]);
    await client.exec('alter table shapes add column b text');
    expect((await select()).rows).toEqual([{ a: 1, b: null }]);
  });

  it('keeps at most its limit prepared, closing the least recently run', async () => {
    const pg = await createPglite({});
    try {
      const statements = new PreparedStatements(pg, 3);
      const run = (n: number) => statements.query(`select $1::int + ${n} as v`, [1], undefined, false);
      for (const n of [1, 2, 3]) await run(n);
      await run(1); // 1 is now the most recently run; 2 the least
      await run(4); // closes 2
      await run(5); // closes 3
      expect(statements.size).toBe(3);
      const held = (await prepared(pg)).sort();
      expect(held).toEqual(['select $1::int + 1 as v', 'select $1::int + 4 as v', 'select $1::int + 5 as v']);
      expect((await run(2)).rows).toEqual([{ v: 3 }]); // prepared again
    } finally {
      await pg.close();
    }
  });

  it('runs a statement from outside a transaction only after the transaction ends', async () => {
    const db = drizzle({ client });
    let inside: Promise<void> | undefined;
    const counted = db.transaction(async (tx) => {
      await tx.insert(things).values(row('uncommitted'));
      // Started while the transaction is open: it must not run inside it (and see its row).
      inside = db
        .select({ id: things.id })
        .from(things)
        .where(eq(things.id, 'uncommitted'))
        .then((rows) => expect(rows).toEqual([]));
      await new Promise((r) => setTimeout(r, 50));
      tx.rollback();
    });
    await expect(counted).rejects.toThrow();
    await inside;
  });

  it('sends every text parameter byte for byte: empty, null, accents, emoji, a long one, thousands in one statement', async () => {
    const texts = ['', 'é€', 'a😀b', 'quote\'s "and" \\ backslash', 'x'.repeat(100_000), 'ñ'.repeat(40_000)];
    for (const value of texts) {
      const { rows } = await client.query<{ v: string; bytes: number }>('select $1::text as v, octet_length($1::text) as bytes', [value]);
      expect(rows).toEqual([{ v: value, bytes: Buffer.byteLength(value) }]);
    }
    expect((await client.query<{ v: string | null }>('select $1::text as v', [null])).rows).toEqual([{ v: null }]);
    // 20,000 parameters (a batch insert of hundreds of rows has thousands).
    const many = Array.from({ length: 20_000 }, (_, i) => (i % 3 === 0 ? null : `v${i}é`));
    const placeholders = many.map((_, i) => `($${i + 1}::text)`).join(', ');
    const { rows } = await client.query<{ n: number; nulls: number; joined: string }>(
      `select count(*)::int as n, count(*) filter (where v is null)::int as nulls, string_agg(v, '|') as joined from (values ${placeholders}) as t(v)`,
      many,
    );
    expect(rows).toEqual([{ n: 20_000, nulls: many.filter((v) => v === null).length, joined: many.filter((v) => v !== null).join('|') }]);
  });
});
