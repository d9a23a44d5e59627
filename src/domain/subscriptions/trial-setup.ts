import { and, eq, sql } from 'drizzle-orm';
import type { CardSetupState } from '../../acquirer/connector.ts';
import { type CheckoutSession, checkoutSessions } from '../../db/schema.ts';
import type { Locale } from '../../i18n/index.ts';
import { setupConnector } from '../cards/setup.ts';
import { type AttemptClaim, attemptKey, declinedAttemptEnd } from '../checkout/pay.ts';
import { releaseAttempt } from '../checkout/provider-attempt.ts';
import type { ValidSubmission } from '../checkout/submission.ts';
import type { DomainContext } from '../context.ts';
import { findLinkById } from '../links/service.ts';
import { startOwedSubscription } from './checkout.ts';

/**
 * A free trial on a subscription link of a merchant whose acquirer takes the card in its own form
 * (Stripe's Payment Element): the card is saved for off-session use with a setup (Stripe: a
 * SetupIntent), never charged, and the trial starts once the setup succeeded (docs/subscriptions.md
 * §2, "Trials"). The sandbox's trial (./trial.ts) verifies the typed card in its vault instead.
 *   1. the customer submits the page: the attempt is claimed as a payment's would be (one at a
 *      time, counted), and the acquirer makes a setup under the attempt's key, its reference the
 *      checkout session's id; the setup's id is kept on the session's attempt;
 *   2. the browser confirms it in the acquirer's form (3-D Secure there) and comes back to the
 *      checkout's return address;
 *   3. whichever comes first, that return or the acquirer's `setup_intent.succeeded` webhook, reads
 *      the setup again: succeeded, the saved-card registration and the schedule start (first charge
 *      at the trial's end) and the session closes as done, once; refused, the attempt counts as a
 *      declined payment's would, and the form takes another card.
 */

/** Step 1: the setup for this attempt; what the island needs to confirm it. */
export async function startSetupTrial(
  app: DomainContext,
  session: CheckoutSession,
  claim: AttemptClaim,
  submission: Pick<ValidSubmission, 'customerValues'>,
  returnUrl: string,
): Promise<{ setupId: string; clientSecret: string }> {
  const connector = setupConnector(await app.connectors.forIntegrator(session.integratorId));
  if (!connector) throw new Error('free trial: the acquirer takes no card setup');
  const values = submission.customerValues;
  const name = [values['customer.first_name'], values['customer.last_name']].filter(Boolean).join(' ');
  const email = values['customer.contact.email'];
  let started: Awaited<ReturnType<typeof connector.createCardSetup>>;
  try {
    started = await connector.createCardSetup(
      { reference: session.id, ...(name ? { customerName: name } : {}), ...(email ? { customerEmail: email } : {}), returnUrl },
      { idempotencyKey: `trial-setup:${attemptKey(session, claim)}` },
    );
  } catch (error) {
    // No answer: the attempt is free to be tried again at once.
    await releaseAttempt(app, session.id);
    throw error;
  }
  await app.db
    .update(checkoutSessions)
    .set({ providerAttempt: { attempt: claim.attempt, amountMinor: '0', customerValues: values, setupId: started.setupId } })
    .where(eq(checkoutSessions.id, session.id));
  return { setupId: started.setupId, clientSecret: started.clientSecret };
}

export type SetupTrialState = 'started' | 'declined' | 'waiting' | 'none';

/** Step 3 from the return address: the session's setup read again and acted on. */
export async function syncSetupTrial(app: DomainContext, session: CheckoutSession): Promise<SetupTrialState> {
  const setupId = session.providerAttempt?.setupId;
  if (!setupId || session.status !== 'open') return 'none';
  const connector = setupConnector(await app.connectors.forIntegrator(session.integratorId));
  if (!connector) return 'none';
  return settleSetupTrial(app, session.integratorId, await connector.syncCardSetup(setupId));
}

/**
 * Step 3 with a setup's state (the return's sync, or a verified webhook's read): only the session
 * whose current attempt made this setup moves, once, under its row lock.
 */
export async function settleSetupTrial(app: DomainContext, integratorId: string, state: CardSetupState): Promise<SetupTrialState> {
  if (!state.reference) return 'none';
  if (state.status === 'pending' || state.status === 'requires_action') return 'waiting';
  const [session] = await app.db
    .select()
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.id, state.reference), eq(checkoutSessions.integratorId, integratorId)));
  const attempt = session?.providerAttempt;
  if (session?.status !== 'open' || !attempt || attempt.setupId !== state.setupId) return 'none';
  if (state.status === 'failed') {
    await app.db.transaction(async (tx) => {
      const [row] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, session.id)).for('update');
      if (row?.status !== 'open' || row.providerAttempt?.setupId !== state.setupId || !row.processingAt) return;
      await tx
        .update(checkoutSessions)
        .set(declinedAttemptEnd(app, row.attempts, app.now()))
        .where(eq(checkoutSessions.id, session.id));
    });
    return 'declined';
  }
  const link = await findLinkById(app.db, session.linkId);
  if (!link?.link.subscription) return 'none';
  // Closed once, whichever path comes first (the return, the webhook): the session owes its
  // subscription from here (the mark ./recovery.ts starts it by if this process stops now).
  const now = app.now();
  const [won] = await app.db
    .update(checkoutSessions)
    .set({ status: 'paid', paidAt: now, processingAt: null, subscriptionPendingAt: now })
    .where(
      and(eq(checkoutSessions.id, session.id), eq(checkoutSessions.status, 'open'), sql`${checkoutSessions.providerAttempt}->>'setupId' = ${state.setupId}`),
    )
    .returning({ id: checkoutSessions.id });
  if (!won) return 'none';
  await startOwedSubscription(app, session, {
    link: link.link,
    session,
    customerValues: attempt.customerValues,
    savedCard: state,
    at: now,
    paid: false,
    locale: session.locale as Locale | null,
  });
  return 'started';
}
