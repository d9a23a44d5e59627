import { eq } from 'drizzle-orm';
import type { Connector, CreatePaymentRequest, PaymentState } from '../../acquirer/connector.ts';
import { type CheckoutSession, checkoutSessions } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { type AttemptClaim, attemptKey } from './pay.ts';

/**
 * The acquirer's payment for a claimed attempt, by card or any other method. A resumed attempt
 * asks where its payment stands (the provider replays a create under the same key with its first
 * answer, which may be stale); a new one is created under the attempt's idempotency key. When the
 * provider cannot be reached, the attempt is released (releaseAttempt) and the error goes on.
 */
export async function resumeOrCreatePayment(
  app: DomainContext,
  connector: Connector,
  session: CheckoutSession,
  claim: AttemptClaim,
  request: CreatePaymentRequest,
): Promise<PaymentState> {
  try {
    return claim.resumed && session.providerPaymentId && session.providerAttempt?.attempt === claim.attempt
      ? await connector.syncPayment(session.providerPaymentId)
      : await connector.createPayment(request, { idempotencyKey: attemptKey(session, claim) });
  } catch (error) {
    await releaseAttempt(app, session.id);
    throw error;
  }
}

/**
 * The provider gave no answer when the attempt was started (no intent or checkout): the attempt may
 * be started again at once, and the same idempotency key finds whatever the provider did make.
 */
export async function releaseAttempt(app: DomainContext, sessionId: string): Promise<void> {
  await app.db
    .update(checkoutSessions)
    .set({ processingAt: new Date(0) })
    .where(eq(checkoutSessions.id, sessionId));
}
