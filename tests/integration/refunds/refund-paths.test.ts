import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RefundResult } from '../../../src/acquirer/acquirer.ts';
import { integrators, outboxEvents, payments, refunds } from '../../../src/db/schema.ts';
import { findIntegratorByToken } from '../../../src/domain/integrators/service.ts';
import type { Payment } from '../../../src/domain/payments/record.ts';
import { refundReservation, reserveIfUnchanged, reserveUnderLock } from '../../../src/domain/refunds/reserve.ts';
import { settleRefund, settleUnlocked } from '../../../src/domain/refunds/settle.ts';
import { createTestApp, provision, TEST_TOKEN, type TestApp } from '../../support/app.ts';
import { createPayment } from '../../support/payments.ts';

/**
 * Each refund step has two forms: one statement that writes only if the payment's refund_version
 * is still the one read (the usual case), and a transaction under the payment's row lock (when
 * another refund got there first). The same cases go through both, one payment each, from the same
 * starting point: the refund rows, the payment's balances and the events must come out the same.
 */
const clock = new Date('2026-08-03T10:00:00.000Z');
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: () => clock });
  await provision(t);
});
afterAll(async () => {
  await t?.close();
});

type Case = { type: 'full' | 'partial'; amountMinor?: bigint; result: RefundResult };
const succeeded = (refundId: string): RefundResult => ({ status: 'succeeded', refundId });
const failed: RefundResult = { status: 'failed', code: 'card_declined', message: 'The card issuer refused the refund.' };
const cases: Case[] = [
  { type: 'partial', amountMinor: 1000n, result: succeeded('re_first') },
  { type: 'partial', amountMinor: 2550n, result: failed },
  { type: 'partial', amountMinor: 3000n, result: succeeded('re_second') },
  // The rest of the payment: 100.00 - 10.00 - 30.00.
  { type: 'full', result: succeeded('re_rest') },
];

const refundColumns = (p: Payment) => ({
  refundedMinor: p.refundedMinor,
  refundReservedMinor: p.refundReservedMinor,
  refundCount: p.refundCount,
  refundedAt: p.refundedAt,
  refundVersion: p.refundVersion,
});

/** What a payment's refunds left in the database, with each form's own ids replaced by placeholders. */
async function books(paymentId: string) {
  const [payment] = await t.app.db.select().from(payments).where(eq(payments.id, paymentId));
  const rows = await t.app.db.select().from(refunds).where(eq(refunds.paymentId, paymentId)).orderBy(refunds.createdAt, refunds.amountMinor);
  const events = await t.app.db
    .select()
    .from(outboxEvents)
    .where(and(sql`${outboxEvents.type} like 'refund.%'`, sql`${outboxEvents.data}->>'transaction_id' = ${paymentId}`));
  const ids = new Map<string, string>([[paymentId, '<payment>']]);
  for (const [n, r] of rows.entries()) ids.set(r.id, `<refund ${n}>`);
  const anonymous = (value: unknown) =>
    JSON.parse(
      [...ids].reduce(
        (text, [id, name]) => text.replaceAll(id, name),
        JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `${v}n` : v)),
      ),
    );
  const named = anonymous({
    payment: refundColumns(payment!),
    refunds: rows.map(({ id: _id, ...r }) => r),
    events: events.map(({ id: _id, ...e }) => e),
  });
  // Written at the same instant (the clock stands still): in the order of the refunds they are about.
  named.events.sort((a: unknown, b: unknown) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return named;
}

async function twoPayments(opts: { callbackUrl: string | null }) {
  const same = { amount: '100.00', merchantReferenceId: 'order-paths', callbackUrl: opts.callbackUrl };
  return { quick: await createPayment(t, same), locked: await createPayment(t, same) };
}

async function refundBothWays(pair: { quick: Payment; locked: Payment }) {
  const integrator = (await findIntegratorByToken(t.app.db, TEST_TOKEN))!;
  for (const c of cases) {
    const draft = (p: Payment) => ({
      paymentId: p.id,
      currency: p.currency,
      type: c.type,
      amountMinor: c.amountMinor,
      reason: 'Customer request',
      notifyUser: true,
      idempotencyKey: null,
      now: clock,
    });
    const [quickPayment] = await t.app.db.select().from(payments).where(eq(payments.id, pair.quick.id));
    const quick = await reserveIfUnchanged(t.app, quickPayment!, refundReservation(t.app, integrator, draft(quickPayment!)));
    expect(quick, 'the one-statement reservation wrote').toBeDefined();
    const settledQuickly = await settleUnlocked(
      t.app,
      quick!.refund,
      { payment: quick!.reserved, defaultCallbackUrl: integrator.defaultCallbackUrl },
      c.result,
    );
    expect(settledQuickly, 'the one-statement settlement wrote').toBeDefined();

    const [lockedPayment] = await t.app.db.select().from(payments).where(eq(payments.id, pair.locked.id));
    const locked = await reserveUnderLock(t.app, lockedPayment!, refundReservation(t.app, integrator, draft(lockedPayment!)), { now: clock });
    await settleRefund(t.app, locked.refund.id, lockedPayment!.id, c.result);

    expect(await books(pair.locked.id)).toEqual(await books(pair.quick.id));
  }
}

describe('refund › both forms of reserve and settle write the same rows', () => {
  it('partial, failed, partial and full refunds: the same refunds, balances and events either way', async () => {
    const pair = await twoPayments({ callbackUrl: 'https://merchant.example/hooks/paylink' });
    await refundBothWays(pair);
    const after = await books(pair.quick.id);
    expect(after.payment).toMatchObject({ refundedMinor: '10000n', refundReservedMinor: '0n', refundCount: 3 });
    expect(after.refunds.map((r: { status: string }) => r.status)).toEqual(['succeeded', 'failed', 'succeeded', 'succeeded']);
  });

  it("a payment that names no callback URL: both forms send the events to the account's default", async () => {
    await t.app.db.update(integrators).set({ defaultCallbackUrl: 'https://merchant.example/hooks/default' });
    const pair = await twoPayments({ callbackUrl: null });
    await refundBothWays(pair);
    const after = await books(pair.locked.id);
    expect(after.events.map((e: { callbackUrl: string }) => e.callbackUrl)).toEqual(Array(4).fill('https://merchant.example/hooks/default'));
  });
});
