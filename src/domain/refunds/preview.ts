import type { Integrator, Payment } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { assertStaffCap } from './caps.ts';
import { assertAcquirerCanRefund, findOwnPayment, refundRuleContext } from './reserve.ts';
import { checkRefund, parseRefundAmount, type RefundType, refundableMinor } from './rules.ts';
import type { RefundRequest } from './service.ts';

/** A refund as the console's confirm step states it, before anything is written. */
export interface RefundPreview {
  payment: Payment;
  type: RefundType;
  amountMinor: bigint;
  /** What stays refundable once this refund is made. */
  remainingAfterMinor: bigint;
}

/**
 * Every check a refund makes (the acquirer's, the refund rules, a staff member's caps) on the
 * payment as it stands, without reserving or writing anything: the confirm step says what the
 * refund would do, or why it would be refused. The refund itself checks everything again (tx1).
 */
export async function previewRefund(app: DomainContext, integrator: Integrator, request: RefundRequest): Promise<RefundPreview> {
  const payment = await findOwnPayment(app, integrator.id, request.transactionId);
  const type: RefundType = request.amount === undefined ? 'full' : 'partial';
  const asked = request.amount === undefined ? undefined : parseRefundAmount(request.amount, payment.currency);
  await assertAcquirerCanRefund(app, integrator.id, payment, asked);
  const now = app.now();
  const amountMinor = checkRefund(payment, { type, amountMinor: asked }, refundRuleContext(app, integrator, payment, now));
  await assertStaffCap(app.db, request.actor, { integratorId: integrator.id, currency: payment.currency, amountMinor, now });
  return { payment, type, amountMinor, remainingAfterMinor: refundableMinor(payment) - amountMinor };
}
