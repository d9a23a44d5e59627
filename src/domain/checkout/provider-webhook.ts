import { and, eq } from 'drizzle-orm';
import { isWebhookVerificationError } from '../../acquirer/connector.ts';
import { providerWebhookEvents } from '../../db/schema.ts';
import { settleCardSetupEvent } from '../cards/setup.ts';
import type { DomainContext } from '../context.ts';
import { DomainError } from '../errors.ts';
import { acquirerByWebhookId } from '../integrators/acquirer.ts';
import { settleProviderRefund } from '../refunds/recovery.ts';
import { settleSetupTrial } from '../subscriptions/trial-setup.ts';
import { settleProviderPayment } from './provider-pay.ts';

/**
 * A provider webhook at /webhooks/{provider}/{webhook id}: verified with the integrator's webhook
 * secret, applied once (a duplicate event id changes nothing; a late or out-of-order event never
 * moves a payment or refund backwards, because only a still-open attempt or pending refund is settled).
 */
export async function receiveProviderWebhook(
  app: DomainContext,
  req: { provider: string; webhookId: string; rawBody: string; headers: Headers },
): Promise<'applied' | 'duplicate' | 'ignored'> {
  const found = await acquirerByWebhookId(app, req.provider, req.webhookId);
  if (!found || found.settings.provider === 'sandbox') throw new DomainError('ER.02.34', 'Resource not found', { messages: { path: ['does not exist'] } });
  const connector = app.connectors.forSettings(found.integratorId, found.settings);
  let event: ReturnType<typeof connector.parseWebhook>;
  try {
    event = connector.parseWebhook({
      rawBody: req.rawBody,
      headers: req.headers,
      now: app.now(),
      toleranceSeconds: app.config.providerWebhookToleranceSeconds,
    });
  } catch (error) {
    if (isWebhookVerificationError(error)) {
      // Each provider's refusal names its own header (Stripe-Signature, Paymongo-Signature).
      const messages = { [error.header]: [error.message] };
      if (error.stale) throw new DomainError('ER.01.21', 'Provider webhook outside the time tolerance', { messages });
      throw new DomainError('ER.01.20', 'Provider webhook not verified', { messages });
    }
    throw error;
  }
  // Per integrator: two integrators may be sent the same event (one provider account behind both).
  const key = and(
    eq(providerWebhookEvents.provider, req.provider),
    eq(providerWebhookEvents.integratorId, found.integratorId),
    eq(providerWebhookEvents.eventId, event.eventId),
  );
  const [seen] = await app.db.select().from(providerWebhookEvents).where(key);
  if (seen) return 'duplicate';
  if (event.kind === 'payment') await settleProviderPayment(app, found.integratorId, event.payment);
  if (event.kind === 'refund') await settleProviderRefund(app, found.integratorId, event.refund);
  // Every refund the event names: those still pending at paylink settle, the rest change nothing.
  if (event.kind === 'refunds') for (const refund of event.refunds) await settleProviderRefund(app, found.integratorId, refund);
  if (event.kind === 'card_setup' && event.status === 'succeeded') {
    const state = await settleCardSetupEvent(app, found.integratorId, connector, event.setupId);
    // Or a free trial's setup (its reference is the checkout session's): the trial starts, once.
    if (state?.status === 'succeeded') await settleSetupTrial(app, found.integratorId, state);
  }
  await app.db
    .insert(providerWebhookEvents)
    .values({
      provider: req.provider,
      eventId: event.eventId,
      integratorId: found.integratorId,
      type: event.kind === 'ignored' ? event.type : event.kind,
      receivedAt: app.now(),
    })
    .onConflictDoNothing();
  return event.kind === 'ignored' ? 'ignored' : 'applied';
}
