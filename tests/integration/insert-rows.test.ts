import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Payment, payments } from '../../src/db/schema.ts';
import { insertRows } from '../../src/db/statements.ts';
import { findIntegratorByToken } from '../../src/domain/integrators/service.ts';
import { createTestApp, provision, TEST_TOKEN, type TestApp } from '../support/app.ts';

/**
 * insertRows (src/db/statements.ts) builds the scheduler's multi-row inserts without Drizzle's
 * builder: what it stores and what it returns must be exactly what Drizzle's insert stores and
 * returns, for every kind of column, on both databases.
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
