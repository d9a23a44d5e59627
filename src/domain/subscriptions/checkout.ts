import { eq } from 'drizzle-orm';
import type { SetupCard } from '../../acquirer/connector.ts';
import { type CheckoutSession, checkoutSessions, type Link } from '../../db/schema.ts';
import type { Locale } from '../../i18n/index.ts';
import type { PaymentMethod } from '../../schemas/payment-method.ts';
import type { PayOutcome } from '../checkout/pay.ts';
import type { ValidSubmission } from '../checkout/submission.ts';
import type { DomainContext } from '../context.ts';
import { type SubscriptionStart, startLinkSubscription } from './start.ts';

/**
 * After a card payment on a link's page: a subscription link's payment starts the subscription
 * (./start.ts) with the card just typed. The payment stands whatever happens here: a failure to
 * start is never shown to the customer as a failed payment; it is logged and started again by
 * ./recovery.ts (without the typed card, which paylink never keeps: by a payment link each period).
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
  await startOwedSubscription(app, session, {
    link,
    session,
    customerValues: submission.customerValues,
    card: { number: card.number, expMonth: expiry.month, expYear: expiry.year, cvc: card.cvc, holderName: card.name },
    at: outcome.payment.paidAt ?? app.now(),
    paid: true,
    locale: locale ?? null,
  });
  return outcome;
}

/**
 * Starts the subscription a recorded payment owes and clears the session's mark (set with the
 * payment: checkout_sessions.subscription_pending_at), also when it cannot start (no e-mail, as
 * logged by startLinkSubscription). A failure leaves the mark, so ./recovery.ts starts it later.
 */
export async function startOwedSubscription(app: DomainContext, session: Pick<CheckoutSession, 'id'>, start: SubscriptionStart): Promise<void> {
  try {
    const started = await startLinkSubscription(app, start);
    if ('skipped' in started) app.log.warn('subscription: not started after its first payment', { sessionId: session.id, reason: started.skipped });
    await app.db.update(checkoutSessions).set({ subscriptionPendingAt: null }).where(eq(checkoutSessions.id, session.id));
  } catch (error) {
    app.log.error('subscription: not started after its first payment; will retry', { sessionId: session.id, error });
  }
}

/** The provider's payment that paid (its method absent: a card). */
type ProviderPaid = { providerPaymentId?: string; method?: PaymentMethod };

/**
 * The same after a payment the provider settles (QR Ph, e-wallets, a provider's card page). A card
 * payment the acquirer kept the card of (Stripe: a subscription link's PaymentIntent saves it for
 * off-session use) starts a saved-card subscription; anything else, or a card not kept, a
 * pay-by-link one (a payment link by e-mail each period).
 */
export async function afterProviderPayment(
  app: DomainContext,
  link: Link,
  session: CheckoutSession,
  customerValues: Record<string, string>,
  paidAt: Date,
  paid?: ProviderPaid,
): Promise<void> {
  if (!link.subscription) return;
  let savedCard: SetupCard | undefined;
  try {
    savedCard = await cardKeptBy(app, link.integratorId, session.id, paid);
  } catch (error) {
    app.log.error('subscription: not started after its first payment; will retry', { sessionId: session.id, error });
    return;
  }
  await startOwedSubscription(app, session, {
    link,
    session,
    customerValues,
    ...(savedCard ? { savedCard } : {}),
    at: paidAt,
    paid: true,
    locale: session.locale as Locale | null,
  });
}

/** The card the acquirer kept with a card payment, for the next periods; undefined (and why, logged) when it kept none. */
async function cardKeptBy(app: DomainContext, integratorId: string, sessionId: string, paid: ProviderPaid | undefined): Promise<SetupCard | undefined> {
  if (!paid?.providerPaymentId || (paid.method ?? 'card') !== 'card') return undefined;
  const connector = await app.connectors.forIntegrator(integratorId);
  if (!connector.savedCardOf || connector.capabilities.offSession !== 'native') return undefined;
  try {
    const card = await connector.savedCardOf(paid.providerPaymentId);
    if (!card) app.log.warn('subscription: the card payment kept no card; the customer pays by a link each period', { sessionId });
    return card;
  } catch (error) {
    app.log.warn('subscription: the card the payment kept could not be read; the customer pays by a link each period', { sessionId, error });
    return undefined;
  }
}
