import { eq } from 'drizzle-orm';
import type { CardInput, VerifyResult } from '../../acquirer/acquirer.ts';
import type { CardVault } from '../../acquirer/connector.ts';
import type { CheckoutSession, Schedule } from '../../db/schema.ts';
import { checkoutSessions } from '../../db/schema.ts';
import type { Locale } from '../../i18n/index.ts';
import type { AttemptClaim, ResolvedSession } from '../checkout/pay.ts';
import { attemptKey, declinedAttemptEnd } from '../checkout/pay.ts';
import { releaseAttempt } from '../checkout/provider-attempt.ts';
import { checkoutPath } from '../checkout/sessions.ts';
import type { ValidSubmission } from '../checkout/submission.ts';
import type { DomainContext } from '../context.ts';
import { startLinkSubscription } from './start.ts';

/**
 * A free trial started on a subscription link's page (docs/subscriptions.md §2, "Trials"), in
 * place of the first charge and inside the same claimed attempt (so a double submit meets the
 * session's lock, and a replay its hash): the typed card is verified into the acquirer's vault
 * under the attempt's key, nothing is charged and no payment recorded; verified, the saved-card
 * registration and the schedule start (`paid: false`: first charge at the trial's end) and the
 * session is closed as done, so its page shows the trial's confirmation; declined, the attempt
 * counts as a payment's decline would, and nothing starts.
 */
export type TrialOutcome =
  | { status: 'trial_started'; schedule: Schedule; receiptPath: string }
  | { status: 'trial_declined'; code: string; message: string; attemptsLeft: number };

export async function startTrial(
  app: DomainContext,
  vault: CardVault,
  session: CheckoutSession,
  target: ResolvedSession,
  claim: AttemptClaim,
  submission: ValidSubmission,
  locale: Locale | undefined,
): Promise<TrialOutcome> {
  const { card, expiry } = submission;
  const input: CardInput = { number: card.number, expMonth: expiry.month, expYear: expiry.year, cvc: card.cvc, holderName: card.name };
  let verified: VerifyResult;
  try {
    verified = await vault.verifyCard(input, { idempotencyKey: `trial:${attemptKey(session, claim)}` });
  } catch (error) {
    // No answer: the attempt is free to be tried again at once, under the same key.
    await releaseAttempt(app, session.id);
    throw error;
  }
  if (verified.status !== 'verified') return declined(app, session, verified.code, verified.message);
  try {
    const started = await startLinkSubscription(app, {
      link: target.link.link,
      session,
      customerValues: submission.customerValues,
      card: input,
      verified,
      at: app.now(),
      paid: false,
      locale: locale ?? null,
    });
    // A vault that keeps cards always starts one: anything else is a fault, not the customer's.
    if ('skipped' in started) throw new Error(`free trial not started: ${started.skipped}`);
    await app.db
      .update(checkoutSessions)
      .set({ status: 'paid', paidAt: app.now(), processingAt: null, ...(locale ? { locale } : {}) })
      .where(eq(checkoutSessions.id, session.id));
    return { status: 'trial_started', schedule: started.schedule, receiptPath: checkoutPath(target.token) };
  } catch (error) {
    await releaseAttempt(app, session.id);
    throw error;
  }
}

/** The card was refused: the attempt counts, and the session locks at the limit, as a declined payment's would. */
async function declined(app: DomainContext, session: CheckoutSession, code: string, message: string): Promise<TrialOutcome> {
  const done = app.now();
  return app.db.transaction(async (tx) => {
    const [row] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, session.id)).for('update');
    await tx
      .update(checkoutSessions)
      .set(declinedAttemptEnd(app, row!.attempts, done))
      .where(eq(checkoutSessions.id, session.id));
    return { status: 'trial_declined', code, message, attemptsLeft: app.config.checkoutMaxAttempts - row!.attempts };
  });
}
