import type { EmailView } from '../../src/domain/notifications/email/view.ts';

/**
 * What an event's integrator data says, in the words of its e-mail's view: the reading the
 * migration that added email_view applies to rows written before it. Tests that write an event's
 * data by hand give its e-mail the same view.
 */
export function emailViewFromData(type: string, data: Record<string, unknown>): EmailView {
  const s = (v: unknown) => (v === undefined || v === null ? null : String(v));
  const card = data.card as { brand?: string | null; last4?: string | null } | null | undefined;
  const expires = new Date(String(data.expires_at));
  return {
    amount: s(type.startsWith('refund.') ? (data.refund_amount ?? data.amount) : data.amount),
    currency: s(data.currency),
    card: card && typeof card === 'object' ? { brand: card.brand ?? null, last4: card.last4 ?? null } : null,
    paymentMethod: s(data.payment_method) as EmailView['paymentMethod'],
    transactionId: s(data.transaction_id),
    refundId: s(data.refund_id),
    scheduleReference: s(data.schedule_reference),
    merchantReferenceId: s(data.merchant_reference_id),
    description: s(data.description),
    failureMessage: s(data.failure_message),
    payLink:
      type === 'schedule.payment_link_sent'
        ? {
            url: s(data.payment_url) ?? '',
            expiresAt: Number.isNaN(expires.getTime()) ? '' : expires.toISOString(),
            reason: data.reason === 'authentication_required' ? 'authentication_required' : 'pay_by_link',
          }
        : null,
  };
}
