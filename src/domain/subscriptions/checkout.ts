import type { CheckoutSession, Link } from '../../db/schema.ts';
import type { Locale } from '../../i18n/index.ts';
import type { PayOutcome } from '../checkout/pay.ts';
import type { ValidSubmission } from '../checkout/submission.ts';
import type { DomainContext } from '../context.ts';
import { startLinkSubscription } from './start.ts';

/**
 * After a card payment on a link's page: a subscription link's payment starts the subscription
 * (./start.ts) with the card just typed. The payment stands whatever happens here: a failure to
 * start is logged for the merchant to follow up, never shown to the customer as a failed payment.
 */
export async function withSubscription(
  app: DomainContext,
  link: Link,
  session: CheckoutSession,
  submission: ValidSubmission,
  outcome: Extract<PayOutcome, { status: 'succeeded' }>,
  locale?: Locale,
): Promise<PayOutcome> {
  if (!link.subscription) return outcome;
  const { card, expiry } = submission;
  try {
    await startLinkSubscription(app, {
      link,
      session,
      customerValues: submission.customerValues,
      card: { number: card.number, expMonth: expiry.month, expYear: expiry.year, cvc: card.cvc, holderName: card.name },
      at: outcome.payment.paidAt ?? app.now(),
      paid: true,
      locale: locale ?? null,
    });
  } catch (error) {
    app.log.error('subscription: not started after its first payment', { sessionId: session.id, paymentId: outcome.payment.id, error });
  }
  return outcome;
}

/** The same after a payment the provider settles (QR Ph, e-wallets, a provider's card page): a pay-by-link subscription. */
export async function afterProviderPayment(
  app: DomainContext,
  link: Link,
  session: CheckoutSession,
  customerValues: Record<string, string>,
  paidAt: Date,
): Promise<void> {
  if (!link.subscription) return;
  try {
    await startLinkSubscription(app, { link, session, customerValues, at: paidAt, paid: true, locale: session.locale as Locale | null });
  } catch (error) {
    app.log.error('subscription: not started after its first payment', { sessionId: session.id, error });
  }
}
