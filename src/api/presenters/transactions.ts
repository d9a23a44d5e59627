import type { Payment, Refund } from '../../db/schema.ts';
import { formatDecimal } from '../../domain/money.ts';
import type { Page } from '../../domain/pagination.ts';
import type { PaymentOrigin, RefundRecord, TransactionRecord } from '../../domain/payments/query.ts';
import { refundableMinor } from '../../domain/refunds/rules.ts';
import type { PageView } from '../../schemas/pagination.ts';
import type { RefundListItem, RefundView, TransactionRefundState, TransactionView } from '../../schemas/transaction.ts';
import { customerView } from './customers.ts';
import { pageView } from './pagination.ts';
import { saleView } from './sale.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function refundView(r: Refund): RefundView {
  return {
    refund_id: r.id,
    refund_type: r.type === 'full' ? 'FULL' : 'PARTIAL',
    status: r.status,
    amount: formatDecimal(r.amountMinor, r.currency),
    currency: r.currency,
    reason: r.reason,
    notify_user: r.notifyUser,
    acquirer_reference: r.acquirerReference,
    failure_code: r.failureCode,
    failure_message: r.failureMessage,
    created_at: r.createdAt.toISOString(),
    succeeded_at: iso(r.succeededAt),
    failed_at: iso(r.failedAt),
  };
}

/** How much of a payment has been refunded: none, part or all of it. */
export const refundStateOf = (p: Pick<Payment, 'refundedMinor' | 'amountMinor'>): TransactionRefundState =>
  p.refundedMinor === 0n ? 'not_refunded' : p.refundedMinor >= p.amountMinor ? 'refunded' : 'partially_refunded';

/** A payment with its refunds, as integrators reconcile it (GET /transactions/{transaction_id}). */
export function transactionView({ payment: p, refunds, ...origin }: TransactionRecord): TransactionView {
  const money = (minor: bigint) => formatDecimal(minor, p.currency);
  const refundState = refundStateOf(p);
  return {
    transaction_id: p.id,
    status: p.status,
    refund_state: refundState,
    amount: money(p.amountMinor),
    currency: p.currency,
    refunded_amount: money(p.refundedMinor),
    pending_refund_amount: money(p.refundReservedMinor),
    refundable_amount: money(p.status === 'succeeded' ? refundableMinor(p) : 0n),
    refund_count: p.refundCount,
    description: p.description,
    merchant_reference_id: p.merchantReferenceId,
    other_references: p.otherReferences,
    link: origin.linkSlug,
    schedule_reference: origin.scheduleReference,
    customer: customerView(p.customer, p.customerEmail),
    payment_method: p.paymentMethod,
    card: cardOf(p, origin),
    failure_code: p.failureCode,
    failure_message: p.failureMessage,
    created_at: p.createdAt.toISOString(),
    paid_at: iso(p.paidAt),
    failed_at: iso(p.failedAt),
    refunded_at: iso(p.refundedAt),
    refunds: refunds.map(refundView),
    sale: saleView(p.sale, p.currency),
  };
}

/** Brand, last 4 and (for a registered card) expiry: never more of a card. */
export function cardOf(p: Pick<Payment, 'cardBrand' | 'cardLast4'>, origin: Pick<PaymentOrigin, 'cardExpiry'>) {
  if (!p.cardBrand && !p.cardLast4) return null;
  return { brand: p.cardBrand, last4: p.cardLast4, exp_month: origin.cardExpiry?.month ?? null, exp_year: origin.cardExpiry?.year ?? null };
}

/** GET /api/v1/transactions. */
export const transactionPageView = (page: Page<TransactionRecord>): PageView<TransactionView> => pageView(page, transactionView, (r) => r.payment.id);

/** A refund as GET /api/v1/refunds lists it: with its transaction's references and customer. */
export function refundListItemView({ refund, payment, origin }: RefundRecord): RefundListItem {
  return {
    ...refundView(refund),
    transaction_id: payment.id,
    merchant_reference_id: payment.merchantReferenceId,
    other_references: payment.otherReferences,
    description: payment.description,
    link: origin.linkSlug,
    customer: customerView(payment.customer, payment.customerEmail),
    payment_method: payment.paymentMethod,
  };
}

export const refundPageView = (page: Page<RefundRecord>): PageView<RefundListItem> => pageView(page, refundListItemView, (r) => r.refund.id);
