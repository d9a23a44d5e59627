import { eq } from 'drizzle-orm';
import { amountAccepted, type Connector, type MethodSupport, type PaymentState } from '../../acquirer/connector.ts';
import { type CheckoutSession, checkoutSessions, type Link } from '../../db/schema.ts';
import { type CustomerFieldPath, customerFieldError } from '../../schemas/checkout.ts';
import { methodFlow, type PaymentMethod, paymentMethodNames, paymentMethodSchema, paymentMethods } from '../../schemas/payment-method.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, invalidFields, type Messages } from '../errors.ts';
import { qrExpirySecondsOf } from '../integrators/acquirer.ts';
import { linkAvailability, linkUnavailableError } from '../links/lifecycle.ts';
import { allowedMethods } from '../links/payment-methods.ts';
import type { LinkWithMerchant } from '../links/service.ts';
import { formatDecimal } from '../money.ts';
import { sameOrder } from './changed-order.ts';
import { claimAttempt, ensurePayable, type PayRequest, resolveSession, staticSession } from './pay.ts';
import { releaseAttempt, resumeOrCreatePayment } from './provider-attempt.ts';
import { settleProviderPayment, syncProviderSession } from './provider-pay.ts';
import { checkoutPath, findSessionByToken } from './sessions.ts';
import { validateCustomer } from './submission.ts';

/**
 * Paying by a method other than a card: QR Ph, the e-wallets, online banking and
 * BillEase, on any connector that declares the method (ConnectorCapabilities.methods). It reuses
 * the provider attempt of src/domain/checkout/provider-pay.ts:
 *   1. start: the method is checked (offered by the link, taken by the acquirer, in this
 *      currency, the amount within its limits, its required fields and bank given), the attempt
 *      claimed, and the connector creates the payment under the attempt's idempotency key; the
 *      attempt keeps the method, the bank and the QR code (or the authorisation address) on the
 *      session, so the page shows the same code again and a second start answers the same attempt;
 *   2. the customer scans the code or authorises on the provider's page;
 *   3. the outcome is recorded once by whichever comes first: the status poll, the return page,
 *      the webhook or the reconciliation pass (settleProviderPayment).
 * An attempt ends without money when the code expires, the authorisation is declined or
 * cancelled, or the customer comes back without paying: it is recorded as a declined transaction
 * (decline code `expired` or `cancelled`), like a declined card, and the session is open again.
 * Before another attempt starts (another method, a new code, a card), a waiting one is ended at
 * the acquirer (`cancelPayment`): one session never has two payable attempts.
 */

export type MethodStarted =
  /** Send the customer to the provider's authorisation page (e-wallets, banks, BillEase). */
  | { kind: 'redirect'; url: string; method: PaymentMethod }
  /** Show the QR code on the checkout page (`checkoutPath`). */
  | { kind: 'qr'; checkoutPath: string; method: PaymentMethod; qr: { content: string; expiresAt: Date } }
  /** The acquirer is settling it: the checkout page says so and polls. */
  | { kind: 'processing'; checkoutPath: string; method: PaymentMethod }
  /** Paid (this attempt, or one that finished meanwhile): the receipt. */
  | { kind: 'settled'; receiptPath: string; method: PaymentMethod };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const methodError = (message: string) =>
  new DomainError('ER.03.40', 'Payment method not available', { messages: { method: [message] }, say: 'refusal.method_unavailable' });

const waitingError = (method: PaymentMethod) =>
  new DomainError('ER.03.24', 'Payment already in progress', {
    messages: { '(request)': [`A payment by ${paymentMethodNames[method]} is still waiting for you: finish it, or wait until it expires to pay another way.`] },
    say: 'refusal.method_waiting',
  });

/**
 * The methods a link's page offers, each with the acquirer's rules for it: the link's own list,
 * else the integrator's defaults, else every method the acquirer takes (allowedMethods), in that
 * order.
 */
export function offeredMethods(
  link: Pick<Link, 'paymentMethods'> & Partial<Pick<Link, 'subscription'>>,
  merchant: Pick<LinkWithMerchant['merchant'], 'defaultPaymentMethods'>,
  connector: Pick<Connector, 'name' | 'capabilities'>,
): MethodSupport[] {
  return allowedMethods(link, merchant, connector).flatMap((m) => connector.capabilities.methods.filter((s) => s.method === m));
}

/** What the customer's fields are called for a method's `requires`. */
const requiredPaths: Record<MethodSupport['requires'][number], CustomerFieldPath[]> = {
  name: ['customer.first_name', 'customer.last_name'],
  email: ['customer.contact.email'],
  phone: ['customer.contact.mobile'],
};

/**
 * The method's own rules on what the customer sent, all at once (pure): the bank among the
 * method's, the fields it requires, the amount within its limits. Returns the field messages and
 * the values the method adds to the customer's.
 */
export function checkMethodInput(
  support: MethodSupport,
  input: { bank?: unknown; fields: Record<string, unknown>; customerValues: Record<string, string>; amountMinor?: bigint; currency: string },
): { messages: Messages; values: Record<string, string>; bank?: string } {
  const messages: Messages = {};
  const values: Record<string, string> = {};
  let bank: string | undefined;
  if (support.banks) {
    if (typeof input.bank !== 'string' || input.bank === '') messages.bank = ['Choose your bank'];
    else if (!support.banks.includes(input.bank)) messages.bank = [`must be one of ${support.banks.join(', ')}`];
    else bank = input.bank;
  } else if (input.bank !== undefined && input.bank !== '') {
    messages.bank = [`${paymentMethodNames[support.method]} takes no bank`];
  }
  for (const need of support.requires) {
    for (const path of requiredPaths[need]) {
      if (input.customerValues[path]) continue;
      const raw = input.fields[path];
      const message = typeof raw === 'string' || raw === undefined ? customerFieldError(path, raw ?? '', true) : 'must be text';
      if (message) messages[path] = [message];
      else values[path] = (raw as string).trim();
    }
  }
  if (input.amountMinor !== undefined) {
    if (support.minimumMinor !== undefined && input.amountMinor < support.minimumMinor) {
      messages.amount = [
        `must be at least ${formatDecimal(support.minimumMinor, input.currency)} ${input.currency} to pay by ${paymentMethodNames[support.method]}`,
      ];
    } else if (support.maximumMinor !== undefined && input.amountMinor > support.maximumMinor) {
      messages.amount = [
        `must be at most ${formatDecimal(support.maximumMinor, input.currency)} ${input.currency} to pay by ${paymentMethodNames[support.method]}`,
      ];
    }
  }
  return { messages, values, ...(bank === undefined ? {} : { bank }) };
}

/** The attempt a session has open by a local method, if any (the current attempt, still claimed). */
export const openMethodAttempt = (session: CheckoutSession) => {
  const a = session.providerAttempt;
  if (!session.processingAt || !session.providerPaymentId || !a?.method || a.method === 'card' || a.attempt !== session.attempts) return undefined;
  return { ...a, method: a.method as PaymentMethod, providerPaymentId: session.providerPaymentId };
};

const answerOf = (token: string, attempt: NonNullable<ReturnType<typeof openMethodAttempt>>, state: PaymentState): MethodStarted | undefined => {
  if (state.status === 'awaiting_scan') return { kind: 'qr', checkoutPath: checkoutPath(token), method: attempt.method, qr: state.qr };
  if (state.status === 'requires_action') return { kind: 'redirect', url: state.redirectUrl, method: attempt.method };
  if (state.status === 'processing') return { kind: 'processing', checkoutPath: checkoutPath(token), method: attempt.method };
  if (state.status === 'succeeded') return { kind: 'settled', receiptPath: checkoutPath(token), method: attempt.method };
  return undefined;
};

/**
 * Before another attempt on the session: a local method's attempt still open is synced (and
 * recorded if it ended); one still waiting is ended at the acquirer. Returns the state when the
 * open attempt was paid or is settling (nothing else may start), undefined when the session is
 * free. Throws ER.03.24 when the acquirer cannot end a waiting attempt.
 */
export async function endOpenMethodAttempt(app: DomainContext, session: CheckoutSession): Promise<PaymentState | undefined> {
  const open = openMethodAttempt(session);
  if (!open) return undefined;
  let state = await syncProviderSession(app, session);
  if (state?.status === 'awaiting_scan' || state?.status === 'requires_action') {
    const connector = await app.connectors.forIntegrator(session.integratorId);
    if (!connector.cancelPayment) throw waitingError(open.method);
    state = await connector.cancelPayment(open.providerPaymentId);
    await settleProviderPayment(app, session.integratorId, state);
  }
  return state?.status === 'succeeded' || state?.status === 'processing' ? state : undefined;
}

/** Step 1: starts (or answers the open) attempt by a local method. Throws like the card flow, plus ER.03.40. */
export async function startMethodAttempt(app: DomainContext, req: PayRequest): Promise<MethodStarted> {
  const raw = isRecord(req.input) ? req.input : {};
  const parsed = paymentMethodSchema.safeParse(raw.method);
  if (!parsed.success) throw invalidFields({ method: [`must be one of ${paymentMethods.join(', ')}`] });
  const method = parsed.data;
  if (methodFlow[method] === 'card') throw methodError('Cards are paid with the card form: reload the page to pay by card.');
  const target = await resolveSession(app, req, raw.session);
  if (target.session) ensurePayable(target.session, target.token, app.now());
  const availability = await linkAvailability(app.db, target.link.link, app.now(), target.session?.id);
  if (availability === 'inactive') throw req.slug === undefined ? new DomainError('ER.03.20', 'Checkout session not found') : linkUnavailableError('inactive');
  if (availability !== 'open') throw linkUnavailableError(availability);
  const connector = await app.connectors.forIntegrator(target.link.link.integratorId);
  const support = offeredMethods(target.link.link, target.link.merchant, connector).find((s) => s.method === method);
  if (!support) throw methodError(`This payment page does not take ${paymentMethodNames[method]}. Choose another way to pay.`);
  const currency = target.session?.currency ?? target.link.link.currency;
  if (support.currencies && !support.currencies.includes(currency)) {
    throw methodError(`${paymentMethodNames[method]} takes only ${support.currencies.join(', ')}. Choose another way to pay.`);
  }

  const extra = (customerValues: Record<string, string>, amountMinor?: bigint) =>
    checkMethodInput(support, { bank: raw.bank, fields: isRecord(raw.fields) ? raw.fields : {}, customerValues, amountMinor, currency });
  let submission: Awaited<ReturnType<typeof validateCustomer>>;
  try {
    submission = await validateCustomer(app, target, req.input, false, req.clientIp, method);
  } catch (error) {
    // Every message at once: the form's and the method's.
    if (error instanceof DomainError && error.code === 'ER.02.30' && typeof error.messages === 'object') {
      throw invalidFields({ ...extra({}).messages, ...error.messages });
    }
    throw error;
  }
  const checked = extra(submission.customerValues, submission.amountMinor);
  const accepted = amountAccepted(connector.capabilities, submission.amountMinor, currency);
  if (!accepted.ok && !checked.messages.amount) {
    checked.messages.amount = [
      accepted.reason === 'minimum'
        ? `must be at least ${formatDecimal(accepted.minimumMinor!, currency)} ${currency} with this merchant's acquirer`
        : `cannot be paid in ${currency} with this merchant's acquirer`,
    ];
  }
  if (Object.keys(checked.messages).length > 0) throw invalidFields(checked.messages);
  const customerValues = { ...submission.customerValues, ...checked.values };

  // An attempt already open: the same method and order answer it (the same code, the same
  // authorisation page); another method, bank or order (a quantity, the tip or the code changed
  // since) ends it first, so the customer never pays a total the page no longer shows.
  if (target.session) {
    const open = openMethodAttempt(target.session);
    const sameBank = (open?.bank ?? '') === (checked.bank ?? '');
    if (open && open.method === method && sameBank && sameOrder(open, submission)) {
      const state = await syncProviderSession(app, target.session);
      const same = state && answerOf(target.token, open, state);
      if (same) return same;
    } else if (open) {
      const busy = await endOpenMethodAttempt(app, target.session);
      if (busy) return answerOf(target.token, open, busy)!;
    }
  }

  await app.cardVelocity.beforeAttempt({
    clientIp: req.clientIp ?? 'unknown',
    scope: target.link.link.id,
    open: (target.session?.kind ?? 'static') === 'static',
    fingerprint: `method:${target.token}`,
  });
  const session = target.session ?? (await staticSession(app, target.link, target.token));
  let claim: Awaited<ReturnType<typeof claimAttempt>>;
  try {
    claim = await claimAttempt(app, session, target.token, req.locale, submission);
  } catch (error) {
    // Two starts at once: the one that lost the claim answers the attempt the other one started.
    if (error instanceof DomainError && error.code === 'ER.03.24') {
      const started = await startedMeanwhile(app, target.token, method);
      if (started) return started;
    }
    throw error;
  }
  const returnUrl = `${app.origin()}${checkoutPath(target.token)}/return`;
  const billing = {
    ...(customerValues['customer.contact.email'] ? { email: customerValues['customer.contact.email'] } : {}),
    ...(customerValues['customer.contact.mobile'] ? { phone: customerValues['customer.contact.mobile'] } : {}),
    ...(customerValues['customer.first_name'] || customerValues['customer.last_name']
      ? { name: [customerValues['customer.first_name'], customerValues['customer.last_name']].filter(Boolean).join(' ') }
      : {}),
  };
  const state = await resumeOrCreatePayment(app, connector, session, claim, {
    amountMinor: submission.amountMinor,
    currency,
    description: session.description ?? undefined,
    reference: session.id,
    returnUrl,
    method,
    ...(checked.bank === undefined ? {} : { bank: checked.bank }),
    // The integrator's QR Ph code life (Developers page, seed); absent, the acquirer's 30 minutes.
    ...(method === 'qrph' ? { qrExpirySeconds: await qrExpirySecondsOf(app.db, session.integratorId) } : {}),
    billing,
  });
  if (state.status === 'requires_payment_method') {
    // The acquirer did not take the method after all: nothing is payable, the attempt is free.
    await releaseAttempt(app, session.id);
    throw methodError(`${paymentMethodNames[method]} is not available right now. Choose another way to pay.`);
  }
  await app.db
    .update(checkoutSessions)
    .set({
      providerPaymentId: state.providerPaymentId ?? null,
      providerAttempt: {
        attempt: claim.attempt,
        amountMinor: submission.amountMinor.toString(),
        customerValues,
        method,
        sale: submission.sale,
        ...(checked.bank === undefined ? {} : { bank: checked.bank }),
        ...(state.status === 'awaiting_scan' ? { qr: { content: state.qr.content, expiresAt: state.qr.expiresAt.toISOString() } } : {}),
        ...(state.status === 'requires_action' ? { redirectUrl: state.redirectUrl } : {}),
      },
    })
    .where(eq(checkoutSessions.id, session.id));
  if (state.status === 'declined') {
    await settleProviderPayment(app, session.integratorId, state);
    throw new DomainError('ER.03.31', 'Payment refused by the acquirer', {
      messages: { method: [state.message] },
      data: { decline_code: state.code },
      say: 'refusal.method_declined',
    });
  }
  if (state.status === 'succeeded') await settleProviderPayment(app, session.integratorId, state);
  return answerOf(target.token, { method, attempt: claim.attempt, amountMinor: '', customerValues, providerPaymentId: state.providerPaymentId! }, state)!;
}

/** The attempt another start made while this one waited for the claim (a few seconds at most). */
async function startedMeanwhile(app: DomainContext, token: string, method: PaymentMethod): Promise<MethodStarted | undefined> {
  for (let i = 0; i < 40; i++) {
    const session = await findSessionByToken(app.db, token);
    if (!session) return undefined;
    if (session.status === 'paid') return { kind: 'settled', receiptPath: checkoutPath(token), method };
    const open = session && openMethodAttempt(session);
    if (open && open.method === method) {
      if (open.qr) return { kind: 'qr', checkoutPath: checkoutPath(token), method, qr: { content: open.qr.content, expiresAt: new Date(open.qr.expiresAt) } };
      if (open.redirectUrl) return { kind: 'redirect', url: open.redirectUrl, method };
    }
    if (open && open.method !== method) return undefined;
    if (!session.processingAt) return undefined;
    await new Promise((r) => setTimeout(r, 100));
  }
  return undefined;
}
