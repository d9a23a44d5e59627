import { and, asc, desc, eq, gt, lt } from 'drizzle-orm';
import type { RefundResult } from '../../acquirer/acquirer.ts';
import type { PaylinkApp } from '../../app.ts';
import { newId } from '../../crypto.ts';
import type { Tx } from '../../db/client.ts';
import type { Integrator, Payment, Refund } from '../../db/schema.ts';
import { payments, refunds } from '../../db/schema.ts';
import { type Actor, recordAudit } from '../accounts/audit.ts';
import { DomainError, notFound, theRow } from '../errors.ts';
import { refundCapabilityFor } from '../integrators/service.ts';
import { formatDecimal } from '../money.ts';
import { recordEvent } from '../notifications/domain-events.ts';
import { checkRefund, parseRefundAmount, type RefundType } from './rules.ts';

/**
 * A refund is three steps, so money is never lost or moved twice:
 *   tx1  lock the payment row, apply the rules, insert a `pending` refund and reserve its amount
 *        on the payment (refund_reserved_minor), so a concurrent refund sees the smaller balance;
 *   the acquirer call, outside any transaction, with an idempotency key derived from the refund id;
 *   tx2  mark the refund succeeded (move the amount from reserved to refunded) or failed (release
 *        it, keeping the acquirer's code and message), and write the outbox event, in one transaction.
 * A refund left `pending` by a crash between tx1 and tx2 is finished by `recoverPendingRefunds`
 * (the worker, and any later refund request on the same payment): it repeats the acquirer call
 * with the same key, which returns the first result, then runs tx2. tx2 only acts on a refund
 * that is still pending, so finishing one twice changes nothing.
 */

export interface RefundRequest {
  transactionId: string;
  notifyUser: boolean;
  reason: string;
  /** Absent: FULL. Present: PARTIAL, in the payment's currency. */
  amount?: string | number;
  /** The client's Idempotency-Key, if any: a retry after an interruption resumes the same refund. */
  idempotencyKey?: string;
  /** A console user asking: the refund is written to the audit log in the transaction that starts it. */
  actor?: Actor;
}

/** A refund as it stands after the request, with its payment's balances (src/api/presenters/refunds.ts words it). */
export interface RefundOutcome {
  refund: Refund;
  payment: Payment;
}

/** The acquirer's idempotency key for a refund: one refund id, one movement of money. */
export const acquirerRefundKey = (refundId: string) => `paylink-refund:${refundId}`;

export async function refundPayment(app: PaylinkApp, integrator: Integrator, request: RefundRequest): Promise<RefundOutcome> {
  const { refund, payment } = await beginRefund(app, integrator, request);
  return refund.status === 'pending' ? completeRefund(app, refund, payment) : current(app, refund.id);
}

/**
 * Everything before the acquirer call: 404/422 checks, recovery of this payment's stale pending
 * refunds, then tx1. Returns the new pending refund, or the one an earlier request with the same
 * Idempotency-Key started (pending or settled).
 */
export async function beginRefund(app: PaylinkApp, integrator: Integrator, request: RefundRequest): Promise<{ refund: Refund; payment: Payment }> {
  const payment = await findOwnPayment(app, integrator.id, request.transactionId);
  const type: RefundType = request.amount === undefined ? 'full' : 'partial';
  const amountMinor = request.amount === undefined ? undefined : parseRefundAmount(request.amount, payment.currency);

  // A pending refund always holds a reservation, so most requests skip this query.
  if (payment.refundReservedMinor > 0n) await recoverPendingRefunds(app, { paymentId: payment.id });

  const now = app.now();
  const started = await app.db.transaction(async (tx) => {
    const locked = theRow(await tx.select().from(payments).where(eq(payments.id, payment.id)).for('update'), 'the payment being refunded');
    const earlier = request.idempotencyKey ? await findByIdempotencyKey(tx, app, payment.id, request.idempotencyKey, now) : undefined;
    if (earlier) {
      if (earlier.type !== type || (amountMinor !== undefined && earlier.amountMinor !== amountMinor)) {
        throw new DomainError('ER.02.40', 'Idempotency key reused with a different request', {
          messages: { 'idempotency-key': ['was already used for a different refund of this transaction; use a new key for a new refund'] },
        });
      }
      return earlier;
    }
    const refundMinor = checkRefund(
      locked,
      { type, amountMinor },
      {
        capability: refundCapabilityFor(integrator, locked.cardBrand),
        limits: { maxCount: app.config.refundMaxCount, windowDays: app.config.refundWindowDays },
        now,
      },
    );
    const refund = await tx
      .insert(refunds)
      .values({
        id: newId('rfd'),
        paymentId: payment.id,
        integratorId: integrator.id,
        type,
        status: 'pending',
        amountMinor: refundMinor,
        currency: payment.currency,
        reason: request.reason,
        notifyUser: request.notifyUser,
        idempotencyKey: request.idempotencyKey ?? null,
        createdAt: now,
      })
      .returning();
    await tx
      .update(payments)
      .set({ refundReservedMinor: locked.refundReservedMinor + refundMinor, refundCount: locked.refundCount + 1 })
      .where(eq(payments.id, payment.id));
    const started = theRow(refund, 'the new refund');
    if (request.actor) {
      const amount = `${formatDecimal(refundMinor, payment.currency)} ${payment.currency}`;
      await recordAudit(tx, request.actor, 'refund.requested', `${started.id} of ${payment.id} (${type}, ${amount})`, now);
    }
    return started;
  });
  return { refund: started, payment };
}

/**
 * Finishes refunds left pending longer than PAYLINK_REFUND_RECOVERY_SECONDS (a crash or a lost
 * acquirer reply between tx1 and tx2), oldest first. Safe to run from any number of processes.
 */
export async function recoverPendingRefunds(app: PaylinkApp, opts: { paymentId?: string; limit?: number } = {}): Promise<number> {
  const cutoff = new Date(app.now().getTime() - app.config.refundRecoverySeconds * 1000);
  const stale = await app.db
    .select()
    .from(refunds)
    .where(and(eq(refunds.status, 'pending'), lt(refunds.createdAt, cutoff), opts.paymentId ? eq(refunds.paymentId, opts.paymentId) : undefined))
    .orderBy(asc(refunds.createdAt))
    .limit(opts.limit ?? 100);
  let recovered = 0;
  for (const refund of stale) {
    try {
      const payment = theRow(await app.db.select().from(payments).where(eq(payments.id, refund.paymentId)), 'the refunded payment');
      const { refund: settled } = await completeRefund(app, refund, payment);
      recovered++;
      app.log.info('refund recovered', { refundId: refund.id, transactionId: refund.paymentId, status: settled.status });
    } catch (error) {
      // Still pending: the next pass tries again with the same acquirer key.
      app.log.warn('refund recovery failed; will retry', { refundId: refund.id, transactionId: refund.paymentId, error });
    }
  }
  return recovered;
}

/** The acquirer call (same key on every try), then tx2. */
async function completeRefund(app: PaylinkApp, refund: Refund, payment: Payment): Promise<RefundOutcome> {
  const result = await app.acquirer.refund(
    { chargeId: payment.acquirerReference!, amountMinor: refund.amountMinor, currency: refund.currency },
    { idempotencyKey: acquirerRefundKey(refund.id) },
  );
  return settleRefund(app, refund.id, payment.id, result);
}

/** tx2: record the acquirer's answer on a still-pending refund, move the money and write the event. */
async function settleRefund(app: PaylinkApp, refundId: string, paymentId: string, result: RefundResult): Promise<RefundOutcome> {
  const now = app.now();
  return app.db.transaction(async (tx) => {
    const p = theRow(await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update'), 'the refunded payment');
    const succeeded = result.status === 'succeeded';
    const [refund] = await tx
      .update(refunds)
      .set(
        succeeded
          ? { status: 'succeeded', acquirerReference: result.refundId, succeededAt: now }
          : { status: 'failed', failureCode: result.code, failureMessage: result.message, failedAt: now },
      )
      .where(and(eq(refunds.id, refundId), eq(refunds.status, 'pending')))
      .returning();
    if (!refund) {
      // Settled meanwhile by a recovery or a resumed retry: report what was recorded.
      return { refund: theRow(await tx.select().from(refunds).where(eq(refunds.id, refundId)), 'the settled refund'), payment: p };
    }
    const refundedMinor = succeeded ? p.refundedMinor + refund.amountMinor : p.refundedMinor;
    const payment = theRow(
      await tx
        .update(payments)
        .set({
          refundedMinor,
          refundReservedMinor: p.refundReservedMinor - refund.amountMinor,
          // A failed refund gives its place back: only refunds that hold or moved money count.
          refundCount: succeeded ? p.refundCount : p.refundCount - 1,
          refundedAt: succeeded && refundedMinor >= p.amountMinor ? now : p.refundedAt,
        })
        .where(eq(payments.id, paymentId))
        .returning(),
      'the refunded payment',
    );
    await recordEvent(app.presentEvent, tx, {
      integratorId: refund.integratorId,
      event: { type: succeeded ? 'refund.succeeded' : 'refund.failed', refund, payment },
      callbackUrl: payment.callbackUrl,
      // The customer hears about money coming back; a refused refund is the merchant's to resolve.
      emailTo: succeeded && refund.notifyUser ? payment.customerEmail : null,
      now,
    });
    return { refund, payment };
  });
}

async function findOwnPayment(app: PaylinkApp, integratorId: string, transactionId: string): Promise<Payment> {
  const [payment] = await app.db
    .select()
    .from(payments)
    .where(and(eq(payments.id, transactionId), eq(payments.integratorId, integratorId)));
  // Another integrator's transaction is answered exactly like a missing one.
  if (!payment) throw notFound('transaction_id', 'This transaction');
  return payment;
}

/** The refund an earlier request with this Idempotency-Key started, while the key is still valid. */
async function findByIdempotencyKey(tx: Tx, app: PaylinkApp, paymentId: string, key: string, now: Date): Promise<Refund | undefined> {
  const since = new Date(now.getTime() - app.config.idempotencyTtlSeconds * 1000);
  const [refund] = await tx
    .select()
    .from(refunds)
    .where(and(eq(refunds.paymentId, paymentId), eq(refunds.idempotencyKey, key), gt(refunds.createdAt, since)))
    .orderBy(desc(refunds.createdAt))
    .limit(1);
  return refund;
}

async function current(app: PaylinkApp, refundId: string): Promise<RefundOutcome> {
  const refund = theRow(await app.db.select().from(refunds).where(eq(refunds.id, refundId)), 'the refund');
  const payment = theRow(await app.db.select().from(payments).where(eq(payments.id, refund.paymentId)), 'the refunded payment');
  return { refund, payment };
}
