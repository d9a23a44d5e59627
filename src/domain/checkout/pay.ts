import { eq } from 'drizzle-orm';
import { type ChargeResult, declineMessages } from '../../acquirer/acquirer.ts';
import type { CardVault } from '../../acquirer/connector.ts';
import type { Tx } from '../../db/client.ts';
import type { CheckoutSession, Payment } from '../../db/schema.ts';
import { checkoutSessions } from '../../db/schema.ts';
import type { Locale } from '../../i18n/index.ts';
import type { PaymentSale } from '../../schemas/link-sale.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, invalidFields } from '../errors.ts';
import { merchantSuspendedError } from '../integrators/suspension.ts';
import { isDynamicOnly } from '../links/form.ts';
import { linkAvailability, linkDateState, linkUnavailableError, reservePlace } from '../links/lifecycle.ts';
import { findActiveLink, findLinkById, type LinkWithMerchant } from '../links/service.ts';
import { isTrialLink } from '../links/subscription.ts';
import { recordCharge } from '../payments/record.ts';
import { redeemPromotion, releaseRedemption } from '../promotions/redemptions.ts';
import { closeRunPaid, runPaidThroughSession } from '../schedules/pay-links.ts';
import { withSubscription } from '../subscriptions/checkout.ts';
import { startTrial, type TrialOutcome } from '../subscriptions/trial.ts';
import { ensureSameCode } from './changed-order.ts';
import { endOpenMethodAttempt } from './method-pay.ts';
import { checkoutPath, findSessionByToken, insertSession, openStaticTicket, PROCESSING_LEASE_MS, sessionState } from './sessions.ts';
import { type ValidSubmission, validateSubmission } from './submission.ts';
import type { CardAttempt } from './velocity.ts';

/**
 * One card attempt on a checkout session, in three steps so no database transaction is open
 * while the acquirer works (PGlite has one connection; the acquirer uses the database too):
 *   tx1  lock the session row; refuse if paid, expired, locked or another attempt is in flight;
 *        count the attempt and mark the session as processing;
 *   the acquirer charges the card with the key `checkout:<session>:<attempt>` (a retry of the
 *        same attempt can never move money twice);
 *   tx2  record the transaction and its outbox event (recordCharge), mark the session paid, or
 *        count the decline and lock the session at the attempt limit.
 * A paid session is never charged again: a second submit gets ER.03.22 with the receipt address.
 * An attempt whose answer was lost (acquirer error, or the process died between the charge and
 * tx2) is resumed by the next submit under the same key, never replaced by a new attempt.
 */

export type PayOutcome =
  | { status: 'succeeded'; payment: Payment; receiptPath: string }
  | { status: 'declined'; payment: Payment; code: string; message: string; attemptsLeft: number };

export interface PayRequest {
  /** /checkout/{token}: the session's token. */
  token?: string;
  /** /pay/{slug}: a static link; the session is named by the page's ticket in `input.session`. */
  slug?: string;
  input: unknown;
  /** The customer's address, for the velocity limits (src/domain/checkout/velocity.ts). */
  clientIp?: string;
  /** The customer's language, when they named one of ours: kept on the session for the e-mails. */
  locale?: Locale;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const paidError = (token: string) =>
  new DomainError('ER.03.22', 'Checkout session already paid', {
    messages: { '(request)': ['This payment has already been made. You have not been charged again.'] },
    data: { redirect_url: checkoutPath(token) },
    say: 'refusal.paid',
  });
const expiredError = () =>
  new DomainError('ER.03.21', 'Checkout session expired', {
    messages: { '(request)': ['This payment link has expired. Ask the merchant for a new one.'] },
    say: 'refusal.expired',
  });
const inProgressError = () =>
  new DomainError('ER.03.24', 'Payment already in progress', {
    messages: { '(request)': ['Your payment is already being processed. Wait a moment, then reload the page to see the result.'] },
    say: 'refusal.in_progress',
  });
const lockedError = () =>
  new DomainError('ER.03.23', 'Too many payment attempts', {
    messages: { '(request)': ['Too many attempts were made with this payment link, so it is locked. Ask the merchant for a new one.'] },
    say: 'refusal.locked',
  });
const notFoundError = () =>
  new DomainError('ER.03.20', 'Checkout session not found', {
    messages: { '(request)': ['This payment page does not exist. Check the link you were sent.'] },
    say: 'refusal.not_found',
  });
const notIssuedError = () =>
  new DomainError('ER.03.20', 'Checkout session not found', {
    messages: { '(request)': ['This payment form was not issued by this payment page. Reload the page, then pay there.'] },
    say: 'refusal.not_issued',
  });
const staleTicketError = () =>
  new DomainError('ER.03.21', 'Checkout session expired', {
    messages: { '(request)': ['This payment form has been open too long and has expired. Reload the page to pay.'] },
    say: 'refusal.form_expired',
  });

/** The session and link a submission is for; a static link's first submit has no session yet. */
export interface ResolvedSession {
  token: string;
  /** Absent on a static link's first submit. */
  session?: CheckoutSession;
  link: LinkWithMerchant;
}

export async function resolveSession(app: DomainContext, req: PayRequest, pageToken: unknown): Promise<ResolvedSession> {
  if (req.slug !== undefined) {
    const found = await findActiveLink(app.db, req.slug);
    const link = found && !isDynamicOnly(found.link) ? found : undefined;
    if (!link)
      throw new DomainError('ER.03.10', 'Payment link not found', { messages: { '(request)': ['This payment link does not exist or is no longer active.'] } });
    // Checked before the ticket: an expired page's form says why, whatever it sends.
    const dated = linkDateState(link.link, app.now());
    if (dated !== 'open') throw linkUnavailableError(dated);
    if (link.merchant.suspended) throw merchantSuspendedError();
    if (typeof pageToken !== 'string') throw invalidFields({ session: ['The payment form is out of date: reload the page'] });
    const ticket = openStaticTicket(app, link.link.id, pageToken);
    if (!ticket.ok) {
      if (ticket.reason === 'malformed') throw invalidFields({ session: ['The payment form is out of date: reload the page'] });
      throw notIssuedError();
    }
    const { token } = ticket;
    const existing = await findSessionByToken(app.db, token);
    if (existing) {
      if (existing.linkId !== link.link.id) throw notFoundError();
      return { token, session: existing, link };
    }
    if (ticket.stale) throw staleTicketError();
    return { token, link };
  }
  const token = req.token ?? '';
  const session = await findSessionByToken(app.db, token);
  if (!session) throw notFoundError();
  const link = await findLinkById(app.db, session.linkId);
  if (!link) throw notFoundError();
  if (link.merchant.suspended && sessionState(session, app.now()) !== 'paid') throw merchantSuspendedError();
  return { token, session, link };
}

/** A static link's session, created on the customer's first submit (see docs/payment-links.md). */
export function staticSession(app: DomainContext, found: LinkWithMerchant, token: string) {
  const l = found.link;
  return insertSession(app, app.db, token, {
    linkId: l.id,
    integratorId: l.integratorId,
    kind: 'static',
    amountMinor: l.amountMinor,
    currency: l.currency,
    description: l.description ?? l.title,
    callbackUrl: l.callbackUrl,
    // The customer typed an e-mail on a public page: they get an e-mail receipt when one is asked.
    notifyUser: true,
  });
}

export function ensurePayable(session: CheckoutSession, token: string, now: Date) {
  const state = sessionState(session, now);
  if (state === 'paid') throw paidError(token);
  if (state === 'expired') throw expiredError();
  if (state === 'locked') throw lockedError();
}

/** A card submission on a link that is not a free trial's (a trial's answer is not a payment). */
export async function payCheckout(app: DomainContext, req: PayRequest): Promise<PayOutcome> {
  const outcome = await submitCard(app, req);
  if (outcome.status === 'trial_started' || outcome.status === 'trial_declined') throw new Error('payCheckout: a free trial link (use submitCard)');
  return outcome;
}

/** The payment page's card form: a payment, or on a free trial's link the trial's start. */
export async function submitCard(app: DomainContext, req: PayRequest): Promise<PayOutcome | TrialOutcome> {
  const raw = isRecord(req.input) ? req.input : {};
  const target = await resolveSession(app, req, raw.session);
  if (target.session) ensurePayable(target.session, target.token, app.now());
  // The link's lifecycle (src/domain/links/lifecycle.ts), first without a lock so a form on an
  // expired or used-up link says so at once; the claim below counts again under the link's lock.
  const availability = await linkAvailability(app.db, target.link.link, app.now(), target.session?.id);
  if (availability === 'inactive') throw req.slug === undefined ? notFoundError() : linkUnavailableError('inactive');
  if (availability !== 'open') throw linkUnavailableError(availability);
  // A merchant on an acquirer that takes the card in the browser never gets a card number here.
  const { vault } = await app.connectors.forIntegrator(target.link.link.integratorId);
  if (!vault) {
    throw new DomainError('ER.03.26', 'Card form not available', {
      messages: { '(request)': ['This payment page takes cards another way. Reload the page to pay.'] },
    });
  }
  const submission = await validateSubmission(app, target, req.input, req.clientIp);
  // Velocity limits (card testing): counted before a session is created or an attempt claimed.
  const velocity: CardAttempt = {
    clientIp: req.clientIp ?? 'unknown',
    scope: target.link.link.id,
    open: (target.session?.kind ?? 'static') === 'static',
    fingerprint: vault.fingerprint(submission.card.number),
  };
  await app.cardVelocity.beforeAttempt(velocity);
  // A QR code or an authorisation still waiting on this session is ended first (never two payable attempts).
  if (target.session) await endOpenMethodAttempt(app, target.session);
  const session = target.session ?? (await staticSession(app, target.link, target.token));
  const claim = await claimAttempt(app, session, target.token, req.locale, submission);
  // A free trial charges nothing: the card is verified and kept instead (src/domain/subscriptions/trial.ts).
  const outcome = isTrialLink(target.link.link)
    ? await startTrial(app, vault, session, target, claim, submission, req.locale)
    : await recordAttempt(app, session, target, claim, submission, await chargeAttempt(app, vault, session, claim, submission));
  if (outcome.status === 'succeeded') return withSubscription(app, target.link.link, session, submission, outcome, req.locale);
  if (outcome.status === 'trial_started') return outcome;
  // Once declines repeat (from this client, or of this card) the page stops saying why: a
  // card tester learns nothing more than "declined". The transaction keeps the real reason.
  const { showReason } = await app.cardVelocity.afterDecline(velocity);
  return showReason ? outcome : { ...outcome, code: 'card_declined', message: declineMessages.card_declined };
}

export interface AttemptClaim {
  attempt: number;
  /** An interrupted attempt tried again under its own key, rather than a new one. */
  resumed: boolean;
}

/**
 * tx1: lock the session; refuse if paid, expired, locked or another attempt is in flight; count
 * the attempt and mark the session as processing — or resume an attempt that never got its
 * answer recorded.
 */
export function claimAttempt(
  app: DomainContext,
  session: CheckoutSession,
  token: string,
  locale?: Locale,
  sale?: Pick<ValidSubmission, 'redemption' | 'customerValues'>,
): Promise<AttemptClaim> {
  const now = app.now();
  // The code is redeemed in the transaction that claims the attempt, held by the attempt's key: a
  // code used up meanwhile refuses the claim, and nothing is charged.
  const redeem = async (tx: Tx, attempt: number) => {
    if (!sale?.redemption) return;
    await redeemPromotion(tx, {
      ...sale.redemption,
      reference: attemptKey(session, { attempt, resumed: false }),
      email: sale.customerValues['customer.contact.email'] ?? null,
      currency: session.currency,
      now,
    });
  };
  return app.db.transaction(async (tx) => {
    const [row] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, session.id)).for('update');
    ensurePayable(row!, token, now);
    // The claim is the link's reservation (max_payments): counted under the link's row lock, so
    // two attempts on a single-use link cannot both be at the acquirer; a decline releases it.
    await reservePlace(tx, session.linkId, session.id, now);
    if (row!.processingAt) {
      if (now.getTime() - row!.processingAt.getTime() < PROCESSING_LEASE_MS) throw inProgressError();
      // A QR code or an authorisation waits longer than the lease: it ends (expired, cancelled,
      // paid) before another attempt, never by being resumed as one (src/domain/checkout/method-pay.ts).
      const open = row!.providerAttempt;
      if (open?.method && open.method !== 'card' && open.attempt === row!.attempts && row!.providerPaymentId) throw inProgressError();
      // The previous attempt was interrupted (acquirer error, or the process died before tx2):
      // it is tried again under its own key, so if the acquirer did charge, it answers with that
      // charge instead of making a second one; with the code it holds, never another.
      await ensureSameCode(tx, attemptKey(session, { attempt: row!.attempts, resumed: true }), sale?.redemption);
      await tx.update(checkoutSessions).set({ processingAt: now }).where(eq(checkoutSessions.id, session.id));
      return { attempt: row!.attempts, resumed: true };
    }
    // Every attempt used, yet not locked (the limit was lowered since): refused like a locked one.
    if (row!.attempts >= app.config.checkoutMaxAttempts) throw lockedError();
    const next = row!.attempts + 1;
    await redeem(tx, next);
    await tx
      .update(checkoutSessions)
      .set({ attempts: next, processingAt: now, ...(locale ? { locale } : {}) })
      .where(eq(checkoutSessions.id, session.id));
    return { attempt: next, resumed: false };
  });
}

export const attemptKey = (session: CheckoutSession, claim: AttemptClaim) => `checkout:${session.id}:${claim.attempt}`;

/** The acquirer call, outside any transaction, under the attempt's own idempotency key. */
async function chargeAttempt(
  app: DomainContext,
  vault: CardVault,
  session: CheckoutSession,
  claim: AttemptClaim,
  submission: ValidSubmission,
): Promise<ChargeResult> {
  const { card, expiry } = submission;
  try {
    return await vault.charge(
      {
        source: { card: { number: card.number, expMonth: expiry.month, expYear: expiry.year, cvc: card.cvc, holderName: card.name } },
        amountMinor: submission.amountMinor,
        currency: session.currency,
        description: session.description ?? undefined,
      },
      { idempotencyKey: attemptKey(session, claim) },
    );
  } catch (error) {
    // No answer: we cannot know whether money moved. The attempt stays open to be resumed under
    // the same key by the next submit (at once: the lease is released by dating it in the past).
    await app.db
      .update(checkoutSessions)
      .set({ processingAt: new Date(0) })
      .where(eq(checkoutSessions.id, session.id));
    if (!claim.resumed) throw error;
    // A resumed attempt the acquirer refuses (e.g. another card than the interrupted one):
    // never start a new attempt over an unknown outcome.
    app.log.warn('checkout: interrupted attempt could not be resumed', { sessionId: session.id, attempt: claim.attempt, error });
    throw new DomainError('ER.03.24', 'Payment already in progress', {
      messages: { '(request)': ['We are still confirming your previous payment attempt. Try again with the same card and amount, or contact the merchant.'] },
    });
  }
}

/**
 * The session's columns once an attempt ended declined (a payment, or a free trial's card): free
 * for the next attempt, or locked once every attempt is used.
 */
export const declinedAttemptEnd = (app: DomainContext, attempts: number, at: Date) =>
  attempts >= app.config.checkoutMaxAttempts ? { processingAt: null, status: 'locked' as const, lockedAt: at } : { processingAt: null };

/** tx2: record the outcome and its event together; mark the session paid, or count the decline. */
export function recordAttempt(
  app: DomainContext,
  session: CheckoutSession,
  target: ResolvedSession,
  claim: AttemptClaim,
  submission: Pick<ValidSubmission, 'amountMinor' | 'customerValues'> & { sale?: PaymentSale | null },
  result: ChargeResult,
): Promise<PayOutcome> {
  const done = app.now();
  return app.db.transaction(async (tx): Promise<PayOutcome> => {
    const [row] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, session.id)).for('update');
    // A schedule occurrence's payment link (src/domain/schedules/pay-links.ts): paid, the payment is that run's charge.
    const run = result.status === 'succeeded' && row ? await runPaidThroughSession(tx, row) : undefined;
    const payment = await recordCharge(app, tx, {
      integratorId: session.integratorId,
      result,
      amountMinor: submission.amountMinor,
      currency: session.currency,
      idempotencyKey: attemptKey(session, claim),
      linkId: session.linkId,
      checkoutSessionId: session.id,
      description: session.description,
      merchantReferenceId: session.merchantReferenceId,
      customer: submission.customerValues,
      customerEmail: submission.customerValues['customer.contact.email'] ?? null,
      sale: submission.sale ?? null,
      callbackUrl: session.callbackUrl,
      notifyUser: session.notifyUser,
      checkout: { kind: session.kind, linkSlug: target.link.link.slug, attempt: claim.attempt },
      ...(run
        ? { run: run.context, scheduleRunId: run.context.runId, cardRegistrationReference: run.cardRegistrationReference, otherReferences: run.otherReferences }
        : {}),
      now: done,
    });
    if (run) await closeRunPaid(tx, run.context, payment.id, done);
    if (result.status === 'succeeded') {
      await tx
        .update(checkoutSessions)
        // A subscription link's payment: its subscription is owed from now on, even if the process stops before it starts.
        .set({
          status: 'paid',
          paidAt: done,
          paymentId: payment.id,
          processingAt: null,
          ...(target.link.link.subscription && !run ? { subscriptionPendingAt: done } : {}),
        })
        .where(eq(checkoutSessions.id, session.id));
      return { status: 'succeeded', payment, receiptPath: checkoutPath(target.token) };
    }
    // The attempt ended unpaid: its promotion code is free for another payment.
    await releaseRedemption(tx, attemptKey(session, claim), done);
    await tx
      .update(checkoutSessions)
      .set(declinedAttemptEnd(app, row!.attempts, done))
      .where(eq(checkoutSessions.id, session.id));
    return { status: 'declined', payment, code: result.code, message: result.message, attemptsLeft: app.config.checkoutMaxAttempts - row!.attempts };
  });
}
