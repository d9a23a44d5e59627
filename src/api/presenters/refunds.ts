import type { Payment, Refund } from '../../db/schema.ts';
import type { Messages } from '../../domain/errors.ts';
import { formatDecimal } from '../../domain/money.ts';
import { balances } from '../../domain/refunds/rules.ts';
import type { RefundOutcome } from '../../domain/refunds/service.ts';
import type { RefundDeclinedData, RefundReplyData } from '../../schemas/refund.ts';
import type { StatusCode } from '../../status-codes.ts';
import { customerView } from './customers.ts';

export interface RefundReply {
  code: StatusCode;
  data: RefundReplyData | RefundDeclinedData;
  messages?: Messages;
}

/**
 * POST /refund's answer: OK.02.00 (FULL) or OK.04.00 (PARTIAL); OK.02.01 / OK.04.01 while the
 * refund is pending at an acquirer that settles later; ER.20.26 with HTTP 200 when the acquirer refused.
 */
export function presentRefund({ refund, payment }: RefundOutcome): RefundReply {
  const common = {
    refund_id: refund.id,
    refund_type: refund.type === 'full' ? ('FULL' as const) : ('PARTIAL' as const),
    refund_status: refund.status,
    amount: formatDecimal(refund.amountMinor, refund.currency),
    payment_method: payment.paymentMethod,
  };
  if (refund.status === 'failed') {
    return {
      code: 'ER.20.26',
      data: { ...common, failure_code: refund.failureCode, failure_message: refund.failureMessage, ...balances(payment) },
      messages: { transaction_id: [`the acquirer refused the refund (${refund.failureCode}): ${refund.failureMessage}`] },
    };
  }
  // Pending at the acquirer (it settles refunds later): accepted, not yet done (docs/acquirers.md).
  const code = refund.status === 'pending' ? (refund.type === 'full' ? 'OK.02.01' : 'OK.04.01') : refund.type === 'full' ? 'OK.02.00' : 'OK.04.00';
  return { code, data: { transaction_id: payment.id, ...common, ...balances(payment) } };
}

/** The data of refund.succeeded and refund.failed. */
export function refundEventData(refund: Refund, payment: Payment): Record<string, unknown> {
  const money = balances(payment);
  return {
    transaction_id: payment.id,
    refund_id: refund.id,
    refund_type: refund.type.toUpperCase(),
    status: refund.status,
    amount: formatDecimal(refund.amountMinor, refund.currency),
    currency: refund.currency,
    reason: refund.reason,
    notify_user: refund.notifyUser,
    failure_code: refund.failureCode,
    failure_message: refund.failureMessage,
    merchant_reference_id: payment.merchantReferenceId,
    other_references: payment.otherReferences,
    description: payment.description,
    customer: customerView(payment.customer, payment.customerEmail),
    payment_method: payment.paymentMethod,
    card: payment.cardBrand ? { brand: payment.cardBrand, last4: payment.cardLast4 } : null,
    payment_amount: formatDecimal(payment.amountMinor, payment.currency),
    refunded_amount: money.refunded_amount,
    refundable_amount: money.refundable_amount,
  };
}
