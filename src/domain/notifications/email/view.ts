import type { OutboxEmailView } from '../../../db/schema.ts';
import { formatDecimal } from '../../money.ts';
import type { DomainEvent } from '../domain-events.ts';

/**
 * What a customer e-mail says about its event, built from the domain fact when the event is
 * written and kept on the outbox row (email_view), so the mailer never reads the integrator's
 * wire format. Amounts are decimal strings in the currency's scale; times are ISO 8601.
 */
export type EmailView = OutboxEmailView;

/** A view that names nothing: an event with no e-mail facts (the generic words). */
export const EMPTY_EMAIL_VIEW: EmailView = {
  amount: null,
  currency: null,
  card: null,
  paymentMethod: null,
  transactionId: null,
  refundId: null,
  scheduleReference: null,
  merchantReferenceId: null,
  description: null,
  failureMessage: null,
  payLink: null,
};

const money = (minor: bigint, currency: string) => ({ amount: formatDecimal(minor, currency), currency });

/** The e-mail's view of a fact. */
export function emailViewOf(event: DomainEvent): EmailView {
  switch (event.type) {
    case 'payment.succeeded':
    case 'payment.failed':
    case 'schedule.charge_succeeded':
    case 'schedule.charge_failed': {
      const p = event.payment;
      return {
        ...EMPTY_EMAIL_VIEW,
        ...money(p.amountMinor, p.currency),
        card: p.cardBrand ? { brand: p.cardBrand, last4: p.cardLast4 } : null,
        paymentMethod: p.paymentMethod,
        transactionId: p.id,
        scheduleReference: 'run' in event ? event.run.scheduleId : null,
        merchantReferenceId: p.merchantReferenceId,
        description: p.description,
        failureMessage: p.failureMessage,
        sale: p.sale,
      };
    }
    case 'refund.succeeded':
    case 'refund.failed':
      return {
        ...EMPTY_EMAIL_VIEW,
        ...money(event.refund.amountMinor, event.refund.currency),
        card: event.payment.cardBrand ? { brand: event.payment.cardBrand, last4: event.payment.cardLast4 } : null,
        paymentMethod: event.payment.paymentMethod,
        transactionId: event.payment.id,
        refundId: event.refund.id,
        merchantReferenceId: event.payment.merchantReferenceId,
        description: event.payment.description,
        failureMessage: event.refund.failureMessage,
      };
    case 'card_registration.completed':
      return { ...EMPTY_EMAIL_VIEW, card: { brand: event.registration.brand, last4: event.registration.last4 } };
    case 'card_registration.deleted':
      return EMPTY_EMAIL_VIEW;
    case 'schedule.created':
      return {
        ...EMPTY_EMAIL_VIEW,
        ...money(event.schedule.amountMinor, event.schedule.currency),
        scheduleReference: event.schedule.id,
        merchantReferenceId: event.schedule.merchantReferenceId,
        ...(event.trial ? { trialEndsAt: event.schedule.nextRunAt?.toISOString() ?? null } : {}),
      };
    case 'schedule.cancelled':
    case 'schedule.resumed':
      return { ...EMPTY_EMAIL_VIEW, scheduleReference: event.scheduleId };
    case 'schedule.suspended':
      return {
        ...EMPTY_EMAIL_VIEW,
        scheduleReference: event.scheduleId,
        transactionId: event.payment?.id ?? null,
        failureMessage: event.payment ? event.payment.failureMessage : event.failure.message,
      };
    case 'schedule.payment_link_sent':
      return {
        ...EMPTY_EMAIL_VIEW,
        ...money(event.amountMinor, event.currency),
        scheduleReference: event.run.scheduleId,
        merchantReferenceId: event.merchantReferenceId,
        description: event.description,
        failureMessage: event.failure?.message ?? null,
        payLink: { url: event.paymentUrl, expiresAt: event.expiresAt.toISOString(), reason: event.reason },
      };
    case 'schedule.payment_link_expired':
      return { ...EMPTY_EMAIL_VIEW, scheduleReference: event.run.scheduleId, failureMessage: event.failure.message };
  }
}
