import { and, eq, inArray, isNotNull, lte } from 'drizzle-orm';
import { type CheckoutSession, checkoutSessions, payments } from '../../db/schema.ts';
import type { Locale } from '../../i18n/index.ts';
import { setupConnector } from '../cards/setup.ts';
import type { DomainContext } from '../context.ts';
import { findLinkById } from '../links/service.ts';
import { afterProviderPayment, startOwedSubscription } from './checkout.ts';

/**
 * A subscription link's first payment is recorded with a mark on its checkout session
 * (`subscription_pending_at`); the subscription starts just after, outside that transaction (it
 * may ask the acquirer for the kept card). A process stopped in between, or a start that failed,
 * leaves the mark: the provider-reconcile loop finds such sessions after GRACE_MS and starts them
 * here, once (one schedule per session: its payload hash is unique).
 *   - Paid at a provider (Stripe, PayMongo): as just after the payment, the card the provider kept
 *     read again (a saved-card subscription), else a payment link each period.
 *   - Paid by a card typed on paylink's page (the sandbox): that card was never stored, so the
 *     subscription is collected by a payment link e-mailed each period (docs/subscriptions.md).
 * The mark is renewed as a lease while a session is tried, so two processes never try it at once;
 * after GIVE_UP_MS the attempt stops and an error is logged for the operator.
 */
export const SUBSCRIPTION_GRACE_MS = 2 * 60_000;
export const SUBSCRIPTION_GIVE_UP_MS = 24 * 3_600_000;

export async function recoverSubscriptionStarts(app: DomainContext, { limit }: { limit: number }): Promise<number> {
  const now = app.now();
  const claimed = await app.db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(checkoutSessions)
      .where(
        and(isNotNull(checkoutSessions.subscriptionPendingAt), lte(checkoutSessions.subscriptionPendingAt, new Date(now.getTime() - SUBSCRIPTION_GRACE_MS))),
      )
      .orderBy(checkoutSessions.subscriptionPendingAt)
      .limit(limit)
      .for('update', { skipLocked: true });
    if (due.length > 0)
      await tx
        .update(checkoutSessions)
        .set({ subscriptionPendingAt: now })
        .where(
          inArray(
            checkoutSessions.id,
            due.map((s) => s.id),
          ),
        );
    return due;
  });
  for (const session of claimed) await recoverOne(app, session, now);
  return claimed.length;
}

async function recoverOne(app: DomainContext, session: CheckoutSession, now: Date): Promise<void> {
  const clear = () => app.db.update(checkoutSessions).set({ subscriptionPendingAt: null }).where(eq(checkoutSessions.id, session.id));
  const [payment] = session.paymentId ? await app.db.select().from(payments).where(eq(payments.id, session.paymentId)) : [];
  const link = await findLinkById(app.db, session.linkId);
  const paidAt = payment?.paidAt ?? session.paidAt;
  const setupId = session.providerAttempt?.setupId;
  if ((!payment && !setupId) || !link?.link.subscription || !paidAt) {
    await clear();
    return;
  }
  if (now.getTime() - paidAt.getTime() > SUBSCRIPTION_GIVE_UP_MS) {
    await clear();
    app.log.error('subscription: not started after its first payment; given up, the merchant must follow up', {
      sessionId: session.id,
      ...(payment ? { paymentId: payment.id } : {}),
    });
    return;
  }
  app.log.warn('subscription: starting one its payment left unstarted', { sessionId: session.id, ...(payment ? { paymentId: payment.id } : {}) });
  if (!payment) {
    // A free trial whose card the acquirer saved (./trial-setup.ts): the setup read again for its card.
    const connector = setupConnector(await app.connectors.forIntegrator(session.integratorId));
    const state = connector ? await connector.syncCardSetup(setupId!).catch(() => undefined) : undefined;
    if (state?.status !== 'succeeded') return; // asked again on the next pass (the mark is its lease)
    await startOwedSubscription(app, session, {
      link: link.link,
      session,
      customerValues: session.providerAttempt!.customerValues,
      savedCard: state,
      at: paidAt,
      paid: false,
      locale: session.locale as Locale | null,
    });
    return;
  }
  if (session.providerPaymentId) {
    await afterProviderPayment(app, link.link, session, payment.customer, paidAt, {
      providerPaymentId: session.providerPaymentId,
      method: payment.paymentMethod,
    });
    return;
  }
  await startOwedSubscription(app, session, {
    link: link.link,
    session,
    customerValues: payment.customer,
    at: paidAt,
    paid: true,
    locale: session.locale as Locale | null,
  });
}
