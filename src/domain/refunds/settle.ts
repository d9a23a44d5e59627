import { and, eq, sql } from 'drizzle-orm';
import type { RefundResult } from '../../acquirer/acquirer.ts';
import type { RefundState } from '../../acquirer/connector.ts';
import type { Payment, Refund } from '../../db/schema.ts';
import { outboxEvents, payments, refunds } from '../../db/schema.ts';
import { insertSelect, prefixed, prepareStatement, rowsOf, setClause } from '../../db/statements.ts';
import type { DomainContext } from '../context.ts';
import { theRow } from '../errors.ts';
import { presentedEvent, recordEvent } from '../notifications/domain-events.ts';
import { outboxRow } from '../notifications/outbox.ts';
import type { RefundOutcome } from './service.ts';

/** The acquirer's idempotency key for a refund: one refund id, one movement of money. */
export const acquirerRefundKey = (refundId: string) => `paylink-refund:${refundId}`;

/**
 * The acquirer call (same key on every try), then tx2. `reserved` is the payment as tx1 left it,
 * when this request made tx1: tx2 then tries its one-statement form first.
 */
export async function completeRefund(
  app: DomainContext,
  refund: Refund,
  payment: Payment,
  reserved?: { payment: Payment; defaultCallbackUrl: string | null },
): Promise<RefundOutcome> {
  const result = await callAcquirer(app, refund, payment);
  if (result.status === 'pending') return acceptedAtProvider(app, refund, result.refundId);
  return (reserved && (await settleUnlocked(app, refund, reserved, result))) ?? settleRefund(app, refund.id, payment.id, result);
}

/**
 * The refund at the integrator's acquirer: its one-call refund where it offers one (the sandbox),
 * else the general call, or, once the provider has accepted the refund (its id is on the row), a
 * sync of that refund.
 */
async function callAcquirer(app: DomainContext, refund: Refund, payment: Payment): Promise<RefundResult | RefundState> {
  const connector = await app.connectors.forIntegrator(refund.integratorId);
  if (connector.refundAtOnce) {
    return connector.refundAtOnce(
      { chargeId: payment.acquirerReference!, amountMinor: refund.amountMinor, currency: refund.currency },
      { idempotencyKey: acquirerRefundKey(refund.id) },
    );
  }
  if (refund.acquirerReference) return connector.syncRefund(refund.acquirerReference);
  return connector.refund(
    {
      chargeId: payment.acquirerReference!,
      amountMinor: refund.amountMinor,
      currency: refund.currency,
      paymentAmountMinor: payment.amountMinor,
      // Only a paid payment has refunds (checkRefund), and paid_at is written once, when it is paid.
      paidAt: payment.paidAt!,
      // The connector applies the rules of the payment's own method (a card's window is not GCash's).
      method: payment.paymentMethod,
      ...(payment.paymentBank ? { bank: payment.paymentBank } : {}),
      reason: refund.reason,
    },
    { idempotencyKey: acquirerRefundKey(refund.id) },
  );
}

/**
 * The provider accepted the refund and settles it later: the refund stays `pending` with the
 * amount reserved, and keeps the provider's id, so the provider's webhook or the recovery pass
 * (a sync) finishes it. The answer says pending (OK.02.01 / OK.04.01).
 */
async function acceptedAtProvider(app: DomainContext, refund: Refund, providerRefundId: string): Promise<RefundOutcome> {
  await app.db
    .update(refunds)
    .set({ acquirerReference: providerRefundId })
    .where(and(eq(refunds.id, refund.id), eq(refunds.status, 'pending')));
  return current(app, refund.id);
}

/** The refund columns the acquirer's answer sets. */
const outcomeOf = (result: RefundResult | SettledRefundState, now: Date) =>
  result.status === 'succeeded'
    ? { status: 'succeeded' as const, acquirerReference: result.refundId, succeededAt: now, failureCode: null, failureMessage: null, failedAt: null }
    : {
        status: 'failed' as const,
        acquirerReference: ('refundId' in result ? result.refundId : undefined) ?? null,
        succeededAt: null,
        failureCode: result.code,
        failureMessage: result.message,
        failedAt: now,
      };

/** A connector's final answer on a refund. */
export type SettledRefundState = Exclude<RefundState, { status: 'pending' }>;

/** The payment's refund columns once `refund` (settled) leaves its reservation. */
function paymentAfter(p: Payment, refund: Refund, now: Date): Payment {
  const succeeded = refund.status === 'succeeded';
  const refundedMinor = succeeded ? p.refundedMinor + refund.amountMinor : p.refundedMinor;
  return {
    ...p,
    refundedMinor,
    refundReservedMinor: p.refundReservedMinor - refund.amountMinor,
    // A failed refund gives its place back: only refunds that hold or moved money count.
    refundCount: succeeded ? p.refundCount : p.refundCount - 1,
    refundedAt: succeeded && refundedMinor >= p.amountMinor ? now : p.refundedAt,
    refundVersion: p.refundVersion + 1,
  };
}

/** The payment columns a settlement writes. */
export const refundColumns = ({ refundedMinor, refundReservedMinor, refundCount, refundedAt, refundVersion }: Payment) => ({
  refundedMinor,
  refundReservedMinor,
  refundCount,
  refundedAt,
  refundVersion,
});

/** The refund's outcome, to the customer's e-mail when they asked and money came back. */
export const refundEvent = (s: RefundOutcome, callbackUrl: string | null, now: Date) =>
  ({
    integratorId: s.refund.integratorId,
    event: { type: s.refund.status === 'succeeded' ? 'refund.succeeded' : 'refund.failed', refund: s.refund, payment: s.payment },
    callbackUrl,
    // The customer hears about money coming back; a refused refund is the merchant's to resolve.
    emailTo: s.refund.status === 'succeeded' && s.refund.notifyUser ? s.payment.customerEmail : null,
    now,
  }) as const;

/**
 * tx2 as one statement: if the payment is still as tx1 left it (its refund_version), the payment,
 * the refund and the event are written together. Undefined when another refund changed the
 * payment meanwhile; the caller then settles under the row lock.
 */
export async function settleUnlocked(
  app: DomainContext,
  refund: Refund,
  reserved: { payment: Payment; defaultCallbackUrl: string | null },
  result: RefundResult | SettledRefundState,
): Promise<RefundOutcome | undefined> {
  const now = app.now();
  const outcome = outcomeOf(result, now);
  const settledRefund: Refund = { ...refund, ...outcome };
  const after = { refund: settledRefund, payment: paymentAfter(reserved.payment, settledRefund, now) };
  const event = presentedEvent(app.presentEvent, refundEvent(after, reserved.payment.callbackUrl || reserved.defaultCallbackUrl, now));
  const written = rowsOf<{ id: string }>(
    await settleStatement.execute(app.db, {
      ...refundColumns(after.payment),
      ...outcome,
      paymentId: refund.paymentId,
      refundId: refund.id,
      expectedVersion: reserved.payment.refundVersion,
      ...prefixed('event.', outboxRow(event)),
    }),
  );
  return written.length === 1 ? after : undefined;
}

/**
 * tx2 as one statement: if the payment is still as tx1 left it and the refund still pending, the
 * payment's balances, the refund's outcome and its outbox event, together. Built once.
 */
const settleStatement = prepareStatement(
  (p) => sql`with p as (
      update ${payments} set ${setClause(payments, {
        refundedMinor: p('refundedMinor'),
        refundReservedMinor: p('refundReservedMinor'),
        refundCount: p('refundCount'),
        refundedAt: p('refundedAt'),
        refundVersion: p('refundVersion'),
      })}
      where id = ${p('paymentId')} and refund_version = ${p('expectedVersion')}
        and exists (select 1 from ${refunds} where ${refunds.id} = ${p('refundId')} and ${refunds.status} = 'pending') returning id),
    r as (
      update ${refunds} set ${setClause(refunds, {
        status: p('status'),
        acquirerReference: p('acquirerReference'),
        succeededAt: p('succeededAt'),
        failureCode: p('failureCode'),
        failureMessage: p('failureMessage'),
        failedAt: p('failedAt'),
      })}
      from p where ${refunds.id} = ${p('refundId')} and ${refunds.status} = 'pending' returning ${refunds.id})
    ${insertSelect(
      outboxEvents,
      {
        id: p('event.id'),
        integratorId: p('event.integratorId'),
        type: p('event.type'),
        data: p('event.data'),
        paymentId: p('event.paymentId'),
        createdAt: p('event.createdAt'),
        callbackUrl: p('event.callbackUrl'),
        callbackState: p('event.callbackState'),
        callbackNextAt: p('event.callbackNextAt'),
        emailTo: p('event.emailTo'),
        emailView: p('event.emailView'),
        emailState: p('event.emailState'),
        emailNextAt: p('event.emailNextAt'),
      },
      sql`r`,
    )} returning id`,
);

/** tx2 under the payment row lock: record the acquirer's answer on a still-pending refund, move the money and write the event. */
export async function settleRefund(app: DomainContext, refundId: string, paymentId: string, result: RefundResult | SettledRefundState): Promise<RefundOutcome> {
  const now = app.now();
  return app.db.transaction(async (tx) => {
    const p = theRow(await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update'), 'the refunded payment');
    const [refund] = await tx
      .update(refunds)
      .set(outcomeOf(result, now))
      .where(and(eq(refunds.id, refundId), eq(refunds.status, 'pending')))
      .returning();
    if (!refund) {
      // Settled meanwhile by a recovery or a resumed retry: report what was recorded.
      return { refund: theRow(await tx.select().from(refunds).where(eq(refunds.id, refundId)), 'the settled refund'), payment: p };
    }
    const after = { refund, payment: paymentAfter(p, refund, now) };
    await tx.update(payments).set(refundColumns(after.payment)).where(eq(payments.id, paymentId));
    await recordEvent(app.presentEvent, tx, refundEvent(after, p.callbackUrl, now));
    return after;
  });
}

/** The refund and its payment as recorded now. */
export async function current(app: DomainContext, refundId: string): Promise<RefundOutcome> {
  const refund = theRow(await app.db.select().from(refunds).where(eq(refunds.id, refundId)), 'the refund');
  const payment = theRow(await app.db.select().from(payments).where(eq(payments.id, refund.paymentId)), 'the refunded payment');
  return { refund, payment };
}
