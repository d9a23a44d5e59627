import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Payment, payments } from '../../../src/db/schema.ts';
import { insertRows, insertSelect, prepareStatement, rowsOf, setClause } from '../../../src/db/statements.ts';
import { findIntegratorByToken } from '../../../src/domain/integrators/service.ts';
import { createTestApp, provision, TEST_TOKEN, type TestApp } from '../../support/app.ts';

/**
 * insertRows (src/db/statements.ts) builds the scheduler's multi-row inserts without Drizzle's
 * builder, and prepareStatement builds a refund's single-statement writes once: what they store and
 * return must be exactly what Drizzle's insert stores and returns, for every kind of column, on
 * both databases.
 */
let t: TestApp;
let integratorId: string;

beforeAll(async () => {
  t = await createTestApp();
  await provision(t);
  integratorId = (await findIntegratorByToken(t.app.db, TEST_TOKEN))!.id;
});
afterAll(() => t?.close());

let n = 0;
/** A payment with every kind of value: bigint, jsonb object and array, booleans, timestamps, nulls; `omit` leaves columns to their defaults. */
function payment(overrides: Partial<typeof payments.$inferInsert> = {}): typeof payments.$inferInsert {
  n++;
  return {
    id: `txn_insert_rows_${n}`,
    integratorId,
    status: 'succeeded',
    amountMinor: 123_456_789_012_345n,
    currency: 'PHP',
    refundedMinor: 5n,
    refundCount: 2,
    description: `Ünïcode "quoted" 'single' $1 -- ${n}`,
    merchantReferenceId: null,
    otherReferences: ['a', 'b"c', ''],
    customer: { 'customer.name': 'Ana Reyes', 'customer.note': 'x\ny' },
    customerEmail: 'ana@example.com',
    notifyUser: true,
    cardLast4: '4242',
    idempotencyKey: `insert-rows-${n}`,
    createdAt: new Date('2026-05-01T01:02:03.456Z'),
    paidAt: new Date('2026-05-01T01:02:04.000Z'),
    failedAt: null,
    ...overrides,
  };
}

/** Without the fields that differ between two otherwise equal rows. */
const comparable = ({ id: _id, idempotencyKey: _key, description: _d, ...rest }: Payment) => rest;

describe('insertRows', () => {
  it('stores and returns what Drizzle’s insert stores and returns', async () => {
    const viaDrizzle = await t.app.db
      .insert(payments)
      .values([payment(), payment({ status: 'failed', paidAt: null, failedAt: new Date('2026-05-02T00:00:00Z'), notifyUser: false })])
      .returning();
    const viaRows = await insertRows(t.app.db, payments, [
      payment(),
      payment({ status: 'failed', paidAt: null, failedAt: new Date('2026-05-02T00:00:00Z'), notifyUser: false }),
    ]);
    const byId = (rows: Payment[]) => [...rows].sort((a, b) => a.id.localeCompare(b.id));
    expect(byId(viaRows).map(comparable)).toEqual(byId(viaDrizzle).map(comparable));
    expect(typeof viaRows[0]!.amountMinor).toBe('bigint');
    expect(viaRows[0]!.createdAt).toBeInstanceOf(Date);
    expect(byId(viaRows)[0]!.description).toBe(`Ünïcode "quoted" 'single' $1 -- 3`);
    // And read back by Drizzle, each is what was given.
    const stored = await t.app.db
      .select()
      .from(payments)
      .where(
        inArray(
          payments.id,
          viaRows.map((r) => r.id),
        ),
      );
    expect(byId(stored)).toEqual(byId(viaRows));
  });

  it('gives a column a row leaves out its default, in a batch where another row sets it', async () => {
    const rows = await insertRows(t.app.db, payments, [
      payment({ otherReferences: undefined, customer: undefined, refundedMinor: undefined, notifyUser: undefined, createdAt: undefined }),
      payment({ notifyUser: true }),
    ]);
    const left = rows.find((r) => r.otherReferences.length === 0)!;
    expect(left).toMatchObject({ otherReferences: [], customer: {}, refundedMinor: 0n, notifyUser: false });
    expect(Math.abs(left.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
    expect(rows.find((r) => r !== left)!.notifyUser).toBe(true);
  });

  it('on conflict does nothing for the rows that conflict and returns only the others; without returning, returns none', async () => {
    const first = payment();
    await insertRows(t.app.db, payments, [first]);
    const fresh = payment();
    const rows = await insertRows(t.app.db, payments, [{ ...first, id: `${first.id}_again` }, fresh], { onConflictDoNothing: [payments.idempotencyKey] });
    expect(rows.map((r) => r.id)).toEqual([fresh.id]);
    await expect(insertRows(t.app.db, payments, [{ ...first, id: `${first.id}_third` }])).rejects.toThrow();
    const quiet = payment();
    expect(await insertRows(t.app.db, payments, [quiet], { returning: false })).toEqual([]);
    expect(
      await t.app.db
        .select({ id: payments.id })
        .from(payments)
        .where(inArray(payments.id, [quiet.id])),
    ).toEqual([{ id: quiet.id }]);
    expect(await insertRows(t.app.db, payments, [])).toEqual([]);
  });
});

describe('prepareStatement', () => {
  const setStatus = prepareStatement(
    (p) =>
      sql`update ${payments} set ${setClause(payments, { status: p('status'), paidAt: p('paidAt'), refundedMinor: p('refundedMinor') })} where id = ${p('id')} returning id`,
  );

  it('stores every kind of value as Drizzle’s insert does, run after run, nulls included', async () => {
    const odd = { merchantReferenceId: null, otherReferences: [], paidAt: null, notifyUser: false, amountMinor: 1n };
    const [a, b] = [payment(), payment(odd)];
    const viaDrizzle = [payment(), payment(odd)];
    const insertPayment = prepareStatement((p) => {
      const values = Object.fromEntries(Object.keys(a).map((key) => [key, p(key)]));
      return sql`with source as (select 1) ${insertSelect(payments, values, sql`source`)} returning id`;
    });
    await t.app.db.insert(payments).values(viaDrizzle);
    for (const row of [a, b]) expect(rowsOf(await insertPayment.execute(t.app.db, row))).toEqual([{ id: row.id }]);
    const stored = await t.app.db
      .select()
      .from(payments)
      .where(inArray(payments.id, [a.id, b.id, viaDrizzle[0]!.id, viaDrizzle[1]!.id]));
    // The fields payment() numbers are left out: the rows differ only there.
    const byId = new Map(stored.map((r) => [r.id, { ...r, id: '', description: '', idempotencyKey: '', createdAt: null }]));
    expect(byId.get(a.id)).toEqual(byId.get(viaDrizzle[0]!.id));
    expect(byId.get(b.id)).toEqual(byId.get(viaDrizzle[1]!.id));
  });

  it('runs its SET with placeholders, a null timestamp too', async () => {
    const row = payment();
    await t.app.db.insert(payments).values(row);
    await setStatus.execute(t.app.db, { id: row.id, status: 'failed', paidAt: null, refundedMinor: 9_007_199_254_740_993n });
    const [after] = await t.app.db.select().from(payments).where(eq(payments.id, row.id));
    expect(after).toMatchObject({ status: 'failed', paidAt: null, refundedMinor: 9_007_199_254_740_993n });
    const paidAt = new Date('2026-11-24T01:02:03.456Z');
    await setStatus.execute(t.app.db, { id: row.id, status: 'succeeded', paidAt, refundedMinor: 0n });
    expect((await t.app.db.select().from(payments).where(eq(payments.id, row.id)))[0]).toMatchObject({ status: 'succeeded', paidAt, refundedMinor: 0n });
  });

  it('refuses a value that is not a placeholder (it would be kept from the first run), a run without a value, and a value with no place', () => {
    expect(() => prepareStatement(() => sql`select ${'fixed'}::text`)).toThrow(/every value must be a placeholder/);
    expect(() => setStatus.execute(t.app.db, { id: 'txn_x', status: 'failed', paidAt: null } as never)).toThrow(/no value for refundedMinor/);
    const extra = { id: 'txn_x', status: 'failed', paidAt: null, refundedMinor: 0n, failureCode: 'x' };
    expect(() => setStatus.execute(t.app.db, extra)).toThrow(/failureCode has no place in the statement/);
  });
});
