import type { Payment } from '../../db/schema.ts';
import { formatDecimal } from '../../domain/money.ts';
import { customerView } from './customers.ts';
import { saleView } from './sale.ts';

/** A payment as its events carry it (payment.* and schedule.charge_*); `sale` is null when it bought one amount and answered nothing. */
export function paymentEventData(payment: Payment): Record<string, unknown> {
  return {
    transaction_id: payment.id,
    status: payment.status,
    amount: formatDecimal(payment.amountMinor, payment.currency),
    currency: payment.currency,
    merchant_reference_id: payment.merchantReferenceId,
    other_references: payment.otherReferences,
    description: payment.description,
    customer: customerView(payment.customer, payment.customerEmail),
    payment_method: payment.paymentMethod,
    card: payment.cardBrand ? { brand: payment.cardBrand, last4: payment.cardLast4 } : null,
    failure_code: payment.failureCode,
    failure_message: payment.failureMessage,
    callback_url: payment.callbackUrl,
    notify_user: payment.notifyUser,
    sale: saleView(payment.sale, payment.currency),
  };
}
