import { and, asc, eq, isNotNull, lt } from 'drizzle-orm';
import { type ChargeResult, declineMessages } from '../../acquirer/acquirer.ts';
import { type AcceptedBrand, amountAccepted, type Connector, finalPaymentStatuses, methodSupport, type PaymentState } from '../../acquirer/connector.ts';
import { type CheckoutSession, checkoutSessions } from '../../db/schema.ts';
import { setupConnector } from '../cards/setup.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, invalidFields } from '../errors.ts';
import { acquirerMinimum } from '../links/acquirer-fit.ts';
import { linkAvailability, linkUnavailableError } from '../links/lifecycle.ts';
import { findLinkById } from '../links/service.ts';
import { isTrialLink } from '../links/subscription.ts';
import { formatDecimal } from '../money.ts';
import { releaseRedemption } from '../promotions/redemptions.ts';
import { afterProviderPayment } from '../subscriptions/checkout.ts';
import { startSetupTrial } from '../subscriptions/trial-setup.ts';
import { endChangedProviderAttempt } from './changed-order.ts';
import { endOpenMethodAttempt } from './method-pay.ts';
import { type AttemptClaim, attemptKey, claimAttempt, ensurePayable, type PayRequest, recordAttempt, resolveSession, staticSession } from './pay.ts';
import { releaseAttempt, resumeOrCreatePayment } from './provider-attempt.ts';
import { checkoutPath } from './sessions.ts';
import { validateCustomer } from './submission.ts';

/**
 * Checkout where the card goes from the customer's browser straight to the acquirer (PayMongo's
 * client-side flow; docs/acquirers.md): paylink never receives the card number.
 *   1. start: the customer's fields are checked, the attempt claimed (as for a card on our page),
 *      and the connector creates the provider's payment under the attempt's idempotency key; the
 *      browser gets the client key, the public key and the return address;
 *   2. the browser creates the PaymentMethod and attaches it (src/components/PaymongoCardForm.tsx),
 *      following a 3-D Secure redirect when asked;
 *   3. the outcome is recorded once, by whichever comes first: the return page's sync, the
 *      provider's webhook, or the reconciliation pass over attempts left in processing. The
 *      payment's idempotency key (unique) and the session row lock make a second recording a no-op.
 */

export interface ProviderAttempt {
  providerPaymentId: string;
  clientKey: string;
  publicKey: string;
  apiBaseUrl: string;
  returnUrl: string;
  /** A free trial: the key confirms a card setup (Stripe: a SetupIntent), nothing is charged. */
  mode?: 'setup';
}

const wrongModeError = () =>
  new DomainError('ER.03.26', 'Card form not available', {
    messages: { '(request)': ['This payment page takes cards another way. Reload the page to pay.'] },
  });

const providerRefusedError = (reason: string) =>
  new DomainError('ER.03.31', 'Payment refused by the acquirer', {
    messages: { '(request)': ['The payment provider did not accept this payment. Try another payment method, or ask the merchant for help.'] },
    data: { reason },
    say: 'refusal.provider_refused',
  });

/** Step 1. Throws like the on-page card flow (paid, expired, locked, in progress, invalid fields). */
export async function startProviderAttempt(
  app: DomainContext,
  req: PayRequest,
): Promise<ProviderAttempt | { settled: true; receiptPath: string } | { nextActionUrl: string }> {
  const raw = typeof req.input === 'object' && req.input !== null ? (req.input as Record<string, unknown>) : {};
  const target = await resolveSession(app, req, raw.session);
  if (target.session) ensurePayable(target.session, target.token, app.now());
  const availability = await linkAvailability(app.db, target.link.link, app.now(), target.session?.id);
  if (availability !== 'open') throw availability === 'inactive' ? wrongModeError() : linkUnavailableError(availability);
  const connector = await app.connectors.forIntegrator(target.link.link.integratorId);
  if (
    (connector.capabilities.cardCollection !== 'paymongo_client' && connector.capabilities.cardCollection !== 'stripe_element') ||
    !('publicKey' in connector) ||
    // A free trial charges nothing: only an acquirer that saves a card without a payment takes one (docs/subscriptions.md).
    (isTrialLink(target.link.link) && !setupConnector(connector))
  )
    throw wrongModeError();
  const submission = await validateCustomer(app, target, req.input, false, req.clientIp);
  const currency = target.session?.currency ?? target.link.link.currency;
  const accepted = amountAccepted(connector.capabilities, submission.amountMinor, currency);
  if (!accepted.ok) {
    throw invalidFields({
      amount: [
        accepted.reason === 'minimum'
          ? `must be at least ${formatDecimal(accepted.minimumMinor!, currency)} ${currency} with this merchant's acquirer`
          : `cannot be paid in ${currency} with this merchant's acquirer`,
      ],
    });
  }
  await app.cardVelocity.beforeAttempt({
    clientIp: req.clientIp ?? 'unknown',
    scope: target.link.link.id,
    open: (target.session?.kind ?? 'static') === 'static',
    fingerprint: `provider:${target.token}`,
  });
  // A QR code or an authorisation still waiting on this session is ended first (never two payable attempts).
  if (target.session) await endOpenMethodAttempt(app, target.session);
  // A card attempt made for another order (the customer changed the code or a quantity since) is not resumed.
  const settle = (state: PaymentState) => settleProviderPayment(app, target.link.link.integratorId, state);
  if (target.session) await endChangedProviderAttempt(app, connector, target.session, submission, settle);
  const session = target.session ?? (await staticSession(app, target.link, target.token));
  const claim = await claimAttempt(app, session, target.token, undefined, submission);
  const returnUrl = `${app.origin()}${checkoutPath(target.token)}/return`;
  // What the browser's form needs besides the attempt's key: the provider's public key and API, and where to come back.
  const forBrowser = {
    publicKey: (connector as unknown as { publicKey: string }).publicKey,
    apiBaseUrl: (connector as unknown as { apiBaseUrl: string }).apiBaseUrl,
    returnUrl,
  };
  if (isTrialLink(target.link.link)) {
    const setup = await startSetupTrial(app, session, claim, submission, returnUrl);
    return { providerPaymentId: setup.setupId, clientKey: setup.clientSecret, ...forBrowser, mode: 'setup' };
  }
  const attemptFor = {
    attempt: claim.attempt,
    amountMinor: submission.amountMinor.toString(),
    customerValues: submission.customerValues,
    sale: submission.sale,
  };
  if (connector.hostedCheckoutChosen && connector.createHostedCheckout && !(claim.resumed && session.providerAttempt?.attempt === claim.attempt)) {
    // PayMongo's own page: the customer types the card only there (docs/pci.md).
    let hosted: Awaited<ReturnType<NonNullable<Connector['createHostedCheckout']>>>;
    try {
      hosted = await connector.createHostedCheckout(
        {
          amountMinor: submission.amountMinor,
          currency: session.currency,
          description: session.description ?? undefined,
          reference: session.id,
          returnUrl,
          cancelUrl: `${app.origin()}${checkoutPath(target.token)}`,
          itemName: target.link.link.title,
        },
        { idempotencyKey: attemptKey(session, claim) },
      );
    } catch (error) {
      await releaseAttempt(app, session.id);
      throw error;
    }
    if ('status' in hosted) {
      // Refused by the provider (no page was made): as a refused payment intent below.
      await endRefusedAttempt(app, session, claim);
      throw providerRefusedError(hosted.message);
    }
    await app.db
      .update(checkoutSessions)
      .set({ providerPaymentId: hosted.providerPaymentId, providerAttempt: { ...attemptFor, checkoutUrl: hosted.checkoutUrl } })
      .where(eq(checkoutSessions.id, session.id));
    return { nextActionUrl: hosted.checkoutUrl };
  }
  const state = await resumeOrCreatePayment(app, connector, session, claim, {
    amountMinor: submission.amountMinor,
    currency: session.currency,
    description: session.description ?? undefined,
    reference: session.id,
    returnUrl,
    // A subscription link's card is kept for the next periods, where the acquirer can (Stripe).
    ...(target.link.link.subscription ? { saveCard: true } : {}),
  });
  // The provider refused to start the payment (nothing was made there): the customer is told so
  // plainly and nothing is recorded as paid or declined. The attempt ends (its place on the link is
  // free again); the next one has a key of its own, since the provider replays a refusal under the same key.
  if (state.status === 'declined' && !state.providerPaymentId) {
    await endRefusedAttempt(app, session, claim);
    throw providerRefusedError(state.message);
  }
  const earlierCheckout = earlierCheckoutOf(session, claim.attempt);
  await app.db
    .update(checkoutSessions)
    .set({
      providerPaymentId: state.providerPaymentId ?? null,
      providerAttempt: { ...attemptFor, ...(earlierCheckout ? { checkoutUrl: earlierCheckout } : {}) },
    })
    .where(eq(checkoutSessions.id, session.id));
  // A resumed hosted attempt still waiting for the customer: back to the same provider page (a new
  // one would leave the first payable but no longer watched).
  if (earlierCheckout && state.status === 'requires_payment_method') return { nextActionUrl: earlierCheckout };
  if (state.status === 'requires_payment_method' && state.clientKey) {
    return { providerPaymentId: state.providerPaymentId, clientKey: state.clientKey, ...forBrowser };
  }
  // A resumed attempt whose customer left during 3-D Secure: back to the provider's page.
  if (state.status === 'requires_action') return { nextActionUrl: state.redirectUrl };
  // A resumed attempt the provider already settled (or still processing): the page says which.
  await settleProviderPayment(app, session.integratorId, state);
  return { settled: true, receiptPath: checkoutPath(target.token) };
}

/** The provider made nothing for the attempt: it ends, and gives back its place and its promotion code. */
const endRefusedAttempt = (app: DomainContext, session: CheckoutSession, claim: AttemptClaim) =>
  app.db.transaction(async (tx) => {
    await tx.update(checkoutSessions).set({ processingAt: null }).where(eq(checkoutSessions.id, session.id));
    await releaseRedemption(tx, attemptKey(session, claim), app.now());
  });

const earlierCheckoutOf = (session: CheckoutSession, attempt: number) =>
  session.providerAttempt?.attempt === attempt ? session.providerAttempt.checkoutUrl : undefined;

const toChargeResult = (state: PaymentState): ChargeResult | undefined => {
  if (state.status === 'succeeded') return { ...state, status: 'succeeded', chargeId: state.chargeId } as ChargeResult;
  if (state.status === 'declined') return { ...state, status: 'declined' } as ChargeResult;
  return undefined;
};

/**
 * Records a final provider state on the attempt that started it, once. Anything not final, an
 * attempt already recorded, or a payment of another attempt changes nothing.
 */
export async function settleProviderPayment(app: DomainContext, integratorId: string, state: PaymentState): Promise<'recorded' | 'unchanged'> {
  const result = toChargeResult(state);
  if (!result || !state.providerPaymentId || !finalPaymentStatuses.has(state.status)) return 'unchanged';
  const [session] = await app.db
    .select()
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.providerPaymentId, state.providerPaymentId), eq(checkoutSessions.integratorId, integratorId)));
  if (session?.status !== 'open' || !session.processingAt || !session.providerAttempt) return 'unchanged';
  const link = await findLinkById(app.db, session.linkId);
  if (!link) return 'unchanged';
  const attempt = session.providerAttempt;
  try {
    await recordAttempt(
      app,
      session,
      { token: '', session, link },
      { attempt: attempt.attempt, resumed: false },
      { amountMinor: BigInt(attempt.amountMinor), customerValues: attempt.customerValues, sale: attempt.sale ?? null },
      // Online banking: the bank chosen on the page, kept with the payment (its refund rules can differ by bank).
      attempt.bank === undefined ? result : { ...result, bank: attempt.bank },
    );
    if (result.status === 'succeeded') await afterProviderPayment(app, link.link, session, attempt.customerValues, app.now(), state);
    return 'recorded';
  } catch (error) {
    // Recorded meanwhile by the webhook, the return page or the reconciler (the payment's key is unique).
    if (isUniqueViolation(error)) return 'unchanged';
    throw error;
  }
}

const isUniqueViolation = (error: unknown): boolean => {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: string }).code === '23505') return true;
  }
  return false;
};

/** How long after its end a waiting attempt is taken as ended when the provider has not said so yet (clocks differ). */
export const ACTION_WINDOW_GRACE_MS = 60_000;

/**
 * The return page, the status poll and the reconciler: ask the provider where the session's
 * attempt stands, and record it when final. A local method's attempt (QR Ph, e-wallet, bank)
 * whose window has passed (the QR's expiry, the method's authorisation window) is ended: at the
 * provider when it can (`cancelPayment`), else taken as expired, the provider's own window having passed too.
 */
export async function syncProviderSession(app: DomainContext, session: CheckoutSession): Promise<PaymentState | undefined> {
  if (!session.providerPaymentId) return undefined;
  const connector = await app.connectors.forIntegrator(session.integratorId);
  const method = session.providerAttempt?.method;
  const local = method !== undefined && method !== 'card';
  // A card charged from the vault answers in the request: there is no provider payment to ask about.
  if (connector.vault && !local) return undefined;
  let state = await connector.syncPayment(session.providerPaymentId);
  if (local && session.processingAt && windowPassed(connector, session, state, app.now())) {
    state = connector.cancelPayment
      ? await connector.cancelPayment(session.providerPaymentId)
      : { status: 'declined', providerPaymentId: session.providerPaymentId, method, code: 'expired', message: declineMessages.expired };
  }
  await settleProviderPayment(app, session.integratorId, state);
  return state;
}

function windowPassed(connector: Connector, session: CheckoutSession, state: PaymentState, now: Date): boolean {
  if (state.status === 'awaiting_scan') return now.getTime() > state.qr.expiresAt.getTime() + ACTION_WINDOW_GRACE_MS;
  if (state.status !== 'requires_action' || !session.processingAt || !session.providerAttempt?.method) return false;
  const seconds = methodSupport(connector.capabilities, session.providerAttempt.method)?.actionWindowSeconds;
  return seconds !== undefined && now.getTime() > session.processingAt.getTime() + seconds * 1000 + ACTION_WINDOW_GRACE_MS;
}

/**
 * Attempts still in processing after `olderThanSeconds` (the webhook never came, the customer
 * never returned): synced with the provider and recorded when final. Returns how many were asked.
 */
export async function reconcileProviderPayments(app: DomainContext, opts: { olderThanSeconds?: number; limit?: number } = {}): Promise<number> {
  const cutoff = new Date(app.now().getTime() - (opts.olderThanSeconds ?? 60) * 1000);
  const stuck = await app.db
    .select()
    .from(checkoutSessions)
    .where(
      and(
        eq(checkoutSessions.status, 'open'),
        isNotNull(checkoutSessions.providerPaymentId),
        isNotNull(checkoutSessions.processingAt),
        lt(checkoutSessions.processingAt, cutoff),
      ),
    )
    .orderBy(asc(checkoutSessions.processingAt))
    .limit(opts.limit ?? 50);
  for (const session of stuck) {
    try {
      await syncProviderSession(app, session);
    } catch (error) {
      app.log.warn('provider payment reconciliation failed; will retry', { sessionId: session.id, error });
    }
  }
  return stuck.length;
}

/** For a payment or registration page: the card brands the merchant's acquirer takes (the accepted-cards strip). */
export async function acceptedBrands(app: DomainContext, integratorId: string): Promise<readonly AcceptedBrand[]> {
  return (await app.connectors.forIntegrator(integratorId)).capabilities.cardBrands;
}

/** What a payment page needs for an acquirer that takes the card in the browser. */
export type ProviderCardForm = (
  | { kind: 'paymongo'; startUrl: string; apiOrigin: string; live: boolean; hosted: boolean }
  | { kind: 'stripe'; startUrl: string; publishableKey: string; live: boolean; hosted: false }
) & {
  /** The acquirer's smallest charge in the page's currency (minor units), which an amount the customer types must reach; null: none. */
  minimumMinor: bigint | null;
};

/** For a payment page: the provider's card form when the merchant's acquirer takes the card in the browser. */
export function providerCardForm(connector: Connector, startUrl: string, currency: string): ProviderCardForm | undefined {
  const minimumMinor = acquirerMinimum(connector, currency) ?? null;
  if (connector.capabilities.cardCollection === 'stripe_element' && 'publicKey' in connector) {
    const publishableKey = String((connector as unknown as { publicKey: string }).publicKey);
    return { kind: 'stripe', startUrl, publishableKey, live: /^pk_live_/.test(publishableKey), hosted: false, minimumMinor };
  }
  if (connector.capabilities.cardCollection !== 'paymongo_client' || !('apiBaseUrl' in connector)) return undefined;
  const base = String((connector as unknown as { apiBaseUrl: string }).apiBaseUrl);
  const publicKey = String((connector as unknown as { publicKey: string }).publicKey);
  return {
    kind: 'paymongo',
    startUrl,
    apiOrigin: new URL(base).origin,
    live: /^pk_live_/.test(publicKey),
    hosted: connector.hostedCheckoutChosen === true,
    minimumMinor,
  };
}
