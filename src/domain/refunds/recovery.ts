import { and, asc, eq, lt } from 'drizzle-orm';
import type { RefundState } from '../../acquirer/connector.ts';
import type { Payment, Refund } from '../../db/schema.ts';
import { payments, refunds } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { theRow } from '../errors.ts';
import { recordEvent } from '../notifications/domain-events.ts';
import { completeRefund, refundColumns, refundEvent, settleRefund } from './settle.ts';

// Refunds finished after their request: stale pending ones (a crash, a lost answer), and a provider's later word.

/**
 * Finishes refunds left pending longer than PAYLINK_REFUND_RECOVERY_SECONDS (a crash or a lost
 * acquirer reply between tx1 and tx2), oldest first. Safe to run from any number of processes.
 */
export async function recoverPendingRefunds(app: DomainContext, opts: { paymentId?: string; limit?: number } = {}): Promise<number> {
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

/**
 * A provider's word on a refund it accepted earlier (its webhook): a final answer settles the
 * pending refund once; a duplicate or a refund already settled changes nothing.
 */
export async function settleProviderRefund(
  app: DomainContext,
  integratorId: string,
  state: RefundState & { refundId: string },
): Promise<'settled' | 'unchanged' | 'unknown'> {
  const [refund] = await app.db
    .select()
    .from(refunds)
    .where(and(eq(refunds.integratorId, integratorId), eq(refunds.acquirerReference, state.refundId)));
  if (!refund) return 'unknown';
  // Stripe: a refund reported succeeded can still fail later (the card's bank returns it).
  if (refund.status === 'succeeded' && state.status === 'failed') return (await reverseRefund(app, refund, state)) ? 'settled' : 'unchanged';
  if (refund.status !== 'pending' || state.status === 'pending') return 'unchanged';
  // Settled now, or by a recovery pass meanwhile: either way no longer pending.
  await settleRefund(app, refund.id, refund.paymentId, state);
  return 'settled';
}

/**
 * A refund recorded as succeeded that the provider now reports failed: the money did not reach the
 * customer, so the refund becomes failed and its amount is refundable again (refund.failed event),
 * in one transaction under the payment's row lock. False when it was already reversed.
 */
async function reverseRefund(app: DomainContext, recorded: Refund, state: Extract<RefundState, { status: 'failed' }>): Promise<boolean> {
  const now = app.now();
  return app.db.transaction(async (tx) => {
    const p = theRow(await tx.select().from(payments).where(eq(payments.id, recorded.paymentId)).for('update'), 'the refunded payment');
    const [refund] = await tx
      .update(refunds)
      .set({ status: 'failed', failureCode: state.code, failureMessage: state.message, failedAt: now })
      .where(and(eq(refunds.id, recorded.id), eq(refunds.status, 'succeeded')))
      .returning();
    if (!refund) return false;
    const payment: Payment = {
      ...p,
      refundedMinor: p.refundedMinor - refund.amountMinor,
      refundCount: p.refundCount - 1,
      // A refund moves at least one minor unit, so the payment is no longer refunded in full.
      refundedAt: null,
      refundVersion: p.refundVersion + 1,
    };
    await tx.update(payments).set(refundColumns(payment)).where(eq(payments.id, p.id));
    await recordEvent(app.presentEvent, tx, refundEvent({ refund, payment }, p.callbackUrl, now));
    return true;
  });
}
