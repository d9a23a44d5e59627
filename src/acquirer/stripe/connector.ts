import Stripe from 'stripe';
import { z } from 'zod';
import { type DeclineCode, declineMessages } from '../acquirer.ts';
import {
  type CardSetupRequest,
  type CardSetupStarted,
  type CardSetupState,
  type Connector,
  type ConnectorCapabilities,
  type ConnectorEvent,
  ConnectorUnavailableError,
  type CreatePaymentRequest,
  checkWebhookFreshness,
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  type PaymentState,
  providerIdempotencyKey,
  type RefundRequest,
  type RefundState,
  refundAllowed,
  type SavedCardChargeRequest,
  type SetupCard,
  type WebhookRequest,
  WebhookVerificationError,
} from '../connector.ts';
import type { ProviderSettings } from '../registry.ts';
import { chargeMethodDetails, stripeAllowedTypes, walletOf } from './methods.ts';
import { stripeCurrencies } from './minimums.ts';

/**
 * Stripe through its REST API and the official `stripe` package, as Stripe's documentation
 * describes it (every payment is a card payment, `method: 'card'`; a wallet's card, Apple Pay,
 * Google Pay or Link, is one too, its wallet kept beside it: methods.ts):
 * - the server creates a PaymentIntent with the secret key; the customer's browser confirms it in
 *   Stripe's Payment Element with the publishable key and the intent's client_secret
 *   (src/components/StripeCardForm.tsx), so the card number never reaches paylink;
 * - `requires_action` is 3-D Secure (a redirect_to_url, or the Element handles it in the page),
 *   `processing` means ask again shortly, `requires_payment_method` with `last_payment_error` is a
 *   decline, `succeeded` carries the charge (ch_…) refunds are made against, `canceled` is final;
 * - a card saved with `setup_future_usage=off_session` on a customer is charged later with
 *   `off_session=true, confirm=true`; the bank may answer `authentication_required`, and then the
 *   customer has to come back and pay on-session;
 * - refunds (partial allowed) may stay `pending` and fail later (`charge.refund.updated`);
 * - webhooks carry `Stripe-Signature: t=…,v1=…`, an HMAC-SHA256 of `t.payload` with the
 *   endpoint's secret, accepted within PAYLINK_PROVIDER_WEBHOOK_TOLERANCE_SECONDS of its `t`, either way.
 * Every POST carries an Idempotency-Key (at most 255 characters); the package itself never
 * retries (maxNetworkRetries 0): paylink retries under the same key.
 */

export interface StripeOptions extends Omit<ProviderSettings, 'provider'> {
  /** Per request; no answer in time is ConnectorUnavailableError. */
  timeoutMs?: number;
}

/** The header Stripe signs its webhooks in (refusals name it). */
const SIGNATURE_HEADER = 'stripe-signature';

/** The `t=` of a Stripe-Signature header the library has verified, read as the library reads it (the last `t=`). */
function signedAt(header: string): number {
  let t = Number.NaN;
  for (const item of header.split(',')) {
    const [key, value] = item.split('=');
    if (key === 't') t = Number.parseInt(value ?? '', 10);
  }
  return t;
}

const lastPaymentError = z
  .looseObject({
    type: z.string().nullish(),
    code: z.string().nullish(),
    decline_code: z.string().nullish(),
    message: z.string().nullish(),
  })
  .nullish();

const cardDetails = z.looseObject({
  brand: z.string().nullish(),
  last4: z.string().nullish(),
  exp_month: z.number().nullish(),
  exp_year: z.number().nullish(),
});

const chargeSchema = z.looseObject({
  id: z.string(),
  object: z.literal('charge'),
  status: z.string().nullish(),
  paid: z.boolean().nullish(),
  payment_intent: z.union([z.string(), z.looseObject({ id: z.string() })]).nullish(),
  payment_method_details: chargeMethodDetails.nullish(),
});

export const intentSchema = z.looseObject({
  id: z.string(),
  object: z.literal('payment_intent'),
  status: z.string(),
  client_secret: z.string().nullish(),
  customer: z.union([z.string(), z.looseObject({ id: z.string() })]).nullish(),
  payment_method: z.union([z.string(), z.looseObject({ id: z.string() })]).nullish(),
  setup_future_usage: z.string().nullish(),
  latest_charge: z.union([z.string(), chargeSchema]).nullish(),
  last_payment_error: lastPaymentError,
  next_action: z.looseObject({ type: z.string(), redirect_to_url: z.looseObject({ url: z.string().nullish() }).nullish() }).nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
});
type Intent = z.infer<typeof intentSchema>;

export const refundSchema = z.looseObject({
  id: z.string(),
  object: z.literal('refund'),
  status: z.string().nullish(),
  failure_reason: z.string().nullish(),
});

const paymentMethodSchema = z.looseObject({
  id: z.string(),
  object: z.literal('payment_method'),
  customer: z.union([z.string(), z.looseObject({ id: z.string() })]).nullish(),
  card: cardDetails.extend({ fingerprint: z.string().nullish() }).nullish(),
});

export const setupIntentSchema = z.looseObject({
  id: z.string(),
  object: z.literal('setup_intent'),
  status: z.string(),
  client_secret: z.string().nullish(),
  usage: z.string().nullish(),
  customer: z.union([z.string(), z.looseObject({ id: z.string() })]).nullish(),
  payment_method: z.union([z.string(), paymentMethodSchema]).nullish(),
  last_setup_error: lastPaymentError,
  metadata: z.record(z.string(), z.string()).nullish(),
});
type SetupIntent = z.infer<typeof setupIntentSchema>;

const eventSchema = z.looseObject({
  id: z.string(),
  object: z.literal('event'),
  type: z.string(),
  created: z.number(),
  data: z.looseObject({ object: z.looseObject({ object: z.string() }) }),
});

/** Stripe's decline and error codes in paylink's plain words; anything else is a plain decline. */
const declineCodes: Record<string, DeclineCode> = {
  insufficient_funds: 'insufficient_funds',
  expired_card: 'expired_card',
  incorrect_cvc: 'incorrect_cvc',
  invalid_cvc: 'incorrect_cvc',
  processing_error: 'processing_error',
  invalid_number: 'invalid_card',
  incorrect_number: 'invalid_card',
  invalid_expiry_month: 'invalid_card',
  invalid_expiry_year: 'invalid_card',
  card_not_supported: 'invalid_card',
};

const authenticationRequiredMessage = 'The bank wants the customer to confirm this payment themselves: they need to pay it on the payment page.';

function declinedBy(error: NonNullable<z.infer<typeof lastPaymentError>>, providerPaymentId: string | undefined): PaymentState {
  const id = providerPaymentId ? { providerPaymentId } : {};
  if (error.code === 'authentication_required' || error.decline_code === 'authentication_required') {
    return { status: 'declined', ...id, method: 'card', code: 'card_declined', message: authenticationRequiredMessage, customerAction: 'authenticate' };
  }
  const code = declineCodes[error.decline_code ?? ''] ?? declineCodes[error.code ?? ''] ?? 'card_declined';
  return { status: 'declined', ...id, method: 'card', code, message: declineMessages[code] };
}

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : value?.id);

/** A succeeded payment with what its charge says of the card and the wallet it came from. */
function paidBy(providerPaymentId: string, chargeId: string, details: z.infer<typeof chargeMethodDetails> | null | undefined): PaymentState {
  const card = details?.card;
  const wallet = walletOf(details);
  return {
    status: 'succeeded',
    providerPaymentId,
    chargeId,
    // Every Stripe payment paylink makes is a card payment; a wallet's (Apple Pay, Google Pay, Link) says so beside it.
    method: 'card',
    ...(card?.brand ? { brand: card.brand.toLowerCase() } : {}),
    ...(card?.last4 ? { last4: card.last4 } : {}),
    ...(card?.exp_month ? { expMonth: card.exp_month } : {}),
    ...(card?.exp_year ? { expYear: card.exp_year } : {}),
    ...(wallet ? { wallet } : {}),
  };
}

/** A PaymentIntent in paylink's terms. A status Stripe may add later reads as `processing`. */
export function intentState(intent: Intent): PaymentState {
  switch (intent.status) {
    case 'succeeded': {
      const chargeId = idOf(intent.latest_charge);
      // Succeeded without a charge to refund against is not something we can act on yet.
      if (!chargeId) return { status: 'processing', providerPaymentId: intent.id };
      return paidBy(intent.id, chargeId, typeof intent.latest_charge === 'object' ? intent.latest_charge?.payment_method_details : undefined);
    }
    case 'requires_payment_method':
      if (intent.last_payment_error) return declinedBy(intent.last_payment_error, intent.id);
      return { status: 'requires_payment_method', providerPaymentId: intent.id, ...(intent.client_secret ? { clientKey: intent.client_secret } : {}) };
    case 'requires_confirmation':
    case 'requires_action': {
      // A redirect_to_url goes to the bank's page; otherwise (use_stripe_sdk) the Payment Element
      // finishes the step on paylink's return page, kept in the intent's metadata.
      const url = intent.next_action?.redirect_to_url?.url ?? intent.metadata?.paylink_return_url;
      return url ? { status: 'requires_action', providerPaymentId: intent.id, redirectUrl: url } : { status: 'processing', providerPaymentId: intent.id };
    }
    case 'canceled':
      return {
        status: 'declined',
        providerPaymentId: intent.id,
        method: 'card',
        code: 'card_declined',
        message: 'The payment was canceled before it was paid.',
      };
    default:
      // processing, requires_capture (paylink captures automatically) and anything Stripe adds later.
      return { status: 'processing', providerPaymentId: intent.id };
  }
}

/** A payment method kept on a customer, as a saved card; undefined without its card details or its customer. */
function savedCard(method: z.infer<typeof paymentMethodSchema>, customerId: string | undefined): SetupCard | undefined {
  const card = method.card;
  const customer = customerId ?? idOf(method.customer);
  if (!customer || !card?.brand || !card.last4 || !card.exp_month || !card.exp_year) return undefined;
  return {
    token: method.id,
    customer,
    brand: card.brand.toLowerCase(),
    last4: card.last4,
    expMonth: card.exp_month,
    expYear: card.exp_year,
    // Stripe's fingerprint names the card number without revealing it; kept like the sandbox's.
    fingerprint: card.fingerprint ?? `stripe:${method.id}`,
  };
}

/**
 * A SetupIntent in paylink's terms. Succeeded needs the expanded payment method with its card and
 * customer (what an off-session charge and the page need); without them it is still pending. A
 * status Stripe may add later is pending, never success.
 */
export function setupState(setup: SetupIntent): CardSetupState {
  const reference = setup.metadata?.paylink_registration;
  const base = { setupId: setup.id, ...(setup.client_secret ? { clientSecret: setup.client_secret } : {}), ...(reference ? { reference } : {}) };
  switch (setup.status) {
    case 'succeeded': {
      const method = typeof setup.payment_method === 'object' ? setup.payment_method : undefined;
      const card = method && savedCard(method, idOf(setup.customer));
      return card ? { status: 'succeeded', ...base, ...card } : { status: 'pending', ...base };
    }
    case 'requires_payment_method': {
      if (!setup.last_setup_error) return { status: 'pending', ...base };
      const declined = declinedBy(setup.last_setup_error, setup.id);
      const code = declined.status === 'declined' ? declined.code : 'card_declined';
      return { status: 'failed', ...base, code, message: declined.status === 'declined' ? declined.message : declineMessages.card_declined, final: false };
    }
    case 'requires_confirmation':
    case 'requires_action':
      return { status: 'requires_action', ...base };
    case 'canceled':
      return { status: 'failed', ...base, code: 'card_declined', message: 'The card setup was canceled at Stripe.', final: true };
    default:
      // processing and anything Stripe adds later.
      return { status: 'pending', ...base };
  }
}

const refundFailures: Record<string, string> = {
  expired_or_canceled_card: 'The card the payment was made with is expired or canceled, so Stripe could not return the money to it.',
  lost_or_stolen_card: 'The card the payment was made with was reported lost or stolen, so Stripe could not return the money to it.',
};

/** A refund in paylink's terms: a status we do not know is still pending, never success. */
export function refundState(refund: z.infer<typeof refundSchema>): RefundState {
  switch (refund.status) {
    case 'succeeded':
      return { status: 'succeeded', refundId: refund.id };
    case 'failed':
      return {
        status: 'failed',
        refundId: refund.id,
        code: refund.failure_reason ?? 'refund_failed',
        message: refundFailures[refund.failure_reason ?? ''] ?? 'Stripe could not return the money to the card.',
      };
    case 'canceled':
      return { status: 'failed', refundId: refund.id, code: 'refund_canceled', message: 'The refund was canceled at Stripe.' };
    default:
      // pending, requires_action and anything Stripe adds later.
      return { status: 'pending', refundId: refund.id };
  }
}

const toStripeAmount = (amountMinor: bigint) => {
  if (amountMinor <= 0n || amountMinor > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('amount out of range for Stripe');
  return Number(amountMinor);
};

/** The package's client pointed at the configured API origin (tests: the in-repo fake). */
function clientFor(opts: StripeOptions): Stripe {
  const base = new URL(opts.apiBaseUrl);
  if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new Error('stripe: the API base URL must be http(s)');
  return new Stripe(opts.secretKey, {
    host: base.hostname,
    port: base.port || (base.protocol === 'https:' ? 443 : 80),
    protocol: base.protocol === 'https:' ? 'https' : 'http',
    timeout: opts.timeoutMs ?? 15_000,
    maxNetworkRetries: 0,
    telemetry: false,
    appInfo: { name: 'paylink' },
  });
}

export class StripeConnector implements Connector {
  readonly name = 'stripe';
  readonly capabilities: ConnectorCapabilities = {
    offSession: 'native',
    cardCollection: 'stripe_element',
    // Stripe refunds card payments in part or in full, without a window of its own (a refund of an old payment may fail later).
    methods: [{ method: 'card', refunds: { refundable: true, partial: true, windowDays: null }, requires: [] }],
    currencies: stripeCurrencies,
    asyncRefunds: true,
    webhooks: true,
    hostedCheckout: false,
    // The brands Stripe documents for card payments in the currencies paylink offers it (Diners and UnionPay depend on the account's country).
    cardBrands: ['visa', 'mastercard', 'amex', 'discover', 'jcb'],
    runSchedulesNow: false,
  };

  private readonly stripe: Stripe;

  constructor(
    private readonly opts: StripeOptions,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.stripe = clientFor(opts);
  }

  /** The publishable key (pk_…), for the Payment Element in the browser (named as PayMongo's public key). */
  get publicKey(): string {
    return this.opts.publicKey;
  }

  /**
   * Runs one API call. A business refusal (card, invalid request) comes back as the Stripe error
   * for the caller to map; no answer (network, timeout, 5xx, 429, lock) is ConnectorUnavailableError.
   */
  private async call<T>(what: string, run: () => Promise<T>): Promise<T | Stripe.errors.StripeError> {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeError)) throw new ConnectorUnavailableError('stripe', `${what} failed`, { cause: error });
      if (
        error instanceof Stripe.errors.StripeConnectionError ||
        error instanceof Stripe.errors.StripeAPIError ||
        error instanceof Stripe.errors.StripeRateLimitError ||
        (error.statusCode ?? 0) >= 500 ||
        error.code === 'lock_timeout'
      ) {
        throw new ConnectorUnavailableError('stripe', `${what} got no answer (${error.statusCode ?? error.type})`, { cause: error });
      }
      if (error instanceof Stripe.errors.StripeAuthenticationError || error instanceof Stripe.errors.StripePermissionError) {
        throw new Error(`stripe: the API keys were refused (${error.statusCode})`);
      }
      if (error instanceof Stripe.errors.StripeIdempotencyError) {
        throw new Error(`stripe: ${what} reused an idempotency key with other parameters`);
      }
      return error;
    }
  }

  private static intent(what: string, value: unknown): Intent {
    const parsed = intentSchema.safeParse(value);
    if (!parsed.success) throw new ConnectorUnavailableError('stripe', `${what}: the answer was not a payment intent in the documented shape`);
    return parsed.data;
  }

  /** A card refusal with the intent attached (402) reads as that intent's state. */
  private static refusal(what: string, error: Stripe.errors.StripeError): PaymentState {
    const raw = error.raw as { payment_intent?: unknown } | undefined;
    const intent = intentSchema.safeParse(raw?.payment_intent);
    if (intent.success) {
      const state = intentState(intent.data);
      if (state.status !== 'requires_payment_method') return state;
    }
    if (error instanceof Stripe.errors.StripeCardError) {
      return declinedBy({ code: error.code, decline_code: error.decline_code }, intent.success ? intent.data.id : undefined);
    }
    throw new Error(`stripe: ${what} was refused (${error.code ?? error.statusCode}): ${error.message}`);
  }

  async createPayment(req: CreatePaymentRequest, { idempotencyKey }: { idempotencyKey: string }): Promise<PaymentState> {
    if (req.card) throw new Error('stripe: the card is given to Stripe by the Payment Element, never to paylink');
    let customer: string | undefined;
    if (req.saveCard) {
      // A saved card belongs to a customer: the one created under this payment's key.
      const created = await this.call('customer creation', () =>
        this.stripe.customers.create(
          { metadata: { paylink_reference: req.reference } },
          { idempotencyKey: providerIdempotencyKey(`${idempotencyKey}:customer`) },
        ),
      );
      if (created instanceof Stripe.errors.StripeError) throw new Error(`stripe: the customer was refused (${created.code ?? created.statusCode})`);
      customer = created.id;
    }
    const result = await this.call('payment intent creation', () =>
      this.stripe.paymentIntents.create(
        {
          amount: toStripeAmount(req.amountMinor),
          currency: req.currency.toLowerCase(),
          // Cards (Apple Pay and Google Pay included) and Link, as the account's Dashboard turns them on (methods.ts).
          allowed_payment_method_types: [...stripeAllowedTypes(customer !== undefined)],
          payment_method_options: { card: { request_three_d_secure: 'automatic' } },
          ...(req.description ? { description: req.description.slice(0, 1000) } : {}),
          ...(customer ? { customer, setup_future_usage: 'off_session' as const } : {}),
          metadata: { paylink_reference: req.reference.slice(0, 500), paylink_return_url: req.returnUrl.slice(0, 500) },
        },
        { idempotencyKey: providerIdempotencyKey(idempotencyKey) },
      ),
    );
    if (result instanceof Stripe.errors.StripeError)
      throw new Error(`stripe: the payment intent was refused (${result.code ?? result.statusCode}): ${result.message}`);
    return intentState(StripeConnector.intent('payment intent creation', result));
  }

  async syncPayment(providerPaymentId: string): Promise<PaymentState> {
    const result = await this.call('payment intent read', () => this.stripe.paymentIntents.retrieve(providerPaymentId, { expand: ['latest_charge'] }));
    if (result instanceof Stripe.errors.StripeError)
      throw new Error(`stripe: payment intent ${providerPaymentId} could not be read (${result.code ?? result.statusCode})`);
    return intentState(StripeConnector.intent('payment intent read', result));
  }

  /**
   * The card a succeeded payment saved (setup_future_usage on a customer), for schedules' off-session
   * charges, with what paylink shows of it; undefined when the payment kept none.
   */
  async savedCardOf(providerPaymentId: string): Promise<SetupCard | undefined> {
    const result = await this.call('payment intent read', () => this.stripe.paymentIntents.retrieve(providerPaymentId, { expand: ['payment_method'] }));
    if (result instanceof Stripe.errors.StripeError)
      throw new Error(`stripe: payment intent ${providerPaymentId} could not be read (${result.code ?? result.statusCode})`);
    const intent = StripeConnector.intent('payment intent read', result);
    const customer = idOf(intent.customer);
    if (intent.status !== 'succeeded' || !customer || intent.setup_future_usage !== 'off_session') return undefined;
    const method = paymentMethodSchema.safeParse(intent.payment_method);
    return method.success ? savedCard(method.data, customer) : undefined;
  }

  /** The customer a saved payment method belongs to (a schedule may keep only the pm_… id). */
  private async customerOf(paymentMethod: string): Promise<string | undefined> {
    const result = await this.call('payment method read', () => this.stripe.paymentMethods.retrieve(paymentMethod));
    if (result instanceof Stripe.errors.StripeError) {
      if (result.statusCode === 404 || result.code === 'resource_missing') return undefined;
      throw new Error(`stripe: payment method ${paymentMethod} could not be read (${result.code ?? result.statusCode})`);
    }
    return idOf(result.customer as string | { id: string } | null);
  }

  async chargeSavedCard(req: SavedCardChargeRequest, { idempotencyKey }: { idempotencyKey: string }): Promise<PaymentState> {
    const customer = req.customer ?? (await this.customerOf(req.token));
    if (!customer) return { status: 'declined', method: 'card', code: 'unknown_token', message: declineMessages.unknown_token };
    const result = await this.call('off-session charge', () =>
      this.stripe.paymentIntents.create(
        {
          amount: toStripeAmount(req.amountMinor),
          currency: req.currency.toLowerCase(),
          customer,
          payment_method: req.token,
          allowed_payment_method_types: ['card'],
          off_session: true,
          confirm: true,
          ...(req.description ? { description: req.description.slice(0, 1000) } : {}),
          metadata: { paylink_reference: req.reference.slice(0, 500) },
          expand: ['latest_charge'],
        },
        { idempotencyKey: providerIdempotencyKey(idempotencyKey) },
      ),
    );
    if (result instanceof Stripe.errors.StripeError) {
      // The saved card or its customer is gone (detached, deleted, another customer's): a final
      // answer for this schedule, not a reason to retry.
      if (
        result instanceof Stripe.errors.StripeInvalidRequestError &&
        (result.code === 'resource_missing' || result.param === 'payment_method' || result.param === 'customer')
      ) {
        return { status: 'declined', method: 'card', code: 'unknown_token', message: declineMessages.unknown_token };
      }
      return StripeConnector.refusal('the off-session charge', result);
    }
    return intentState(StripeConnector.intent('off-session charge', result));
  }

  /**
   * The card leaves its customer (POST /v1/payment_methods/{id}/detach): it can no longer be
   * charged. A payment method Stripe no longer has, or one no longer attached to a customer, is done.
   */
  async forgetSavedCard(card: { token: string; customer?: string }, { idempotencyKey }: { idempotencyKey: string }): Promise<void> {
    const result = await this.call('payment method detach', () =>
      this.stripe.paymentMethods.detach(card.token, {}, { idempotencyKey: providerIdempotencyKey(idempotencyKey) }),
    );
    if (!(result instanceof Stripe.errors.StripeError)) return;
    if (result.statusCode === 404 || result.code === 'resource_missing') return;
    // Stripe refuses to detach a payment method that is on no customer: read it to tell that from any other refusal.
    if (result instanceof Stripe.errors.StripeInvalidRequestError && (await this.customerOf(card.token)) === undefined) return;
    throw new Error(`stripe: the payment method could not be detached (${result.code ?? result.statusCode})`);
  }

  /**
   * A card registration: a customer (named as the registration) and a SetupIntent for
   * off-session use on it, both under the registration's key. The browser confirms the
   * SetupIntent in the Payment Element with its client_secret (3-D Secure included). A card
   * replaced on a registration that has a customer joins that customer (`req.customer`).
   */
  async createCardSetup(req: CardSetupRequest, { idempotencyKey }: { idempotencyKey: string }): Promise<CardSetupStarted> {
    const metadata = { paylink_registration: req.reference.slice(0, 500) };
    const created = req.customer
      ? { id: req.customer }
      : await this.call('customer creation', () =>
          this.stripe.customers.create(
            {
              ...(req.customerName ? { name: req.customerName.slice(0, 256) } : {}),
              ...(req.customerEmail ? { email: req.customerEmail.slice(0, 512) } : {}),
              metadata,
            },
            { idempotencyKey: providerIdempotencyKey(`${idempotencyKey}:customer`) },
          ),
        );
    if (created instanceof Stripe.errors.StripeError) throw new Error(`stripe: the customer was refused (${created.code ?? created.statusCode})`);
    const result = await this.call('setup intent creation', () =>
      this.stripe.setupIntents.create(
        {
          customer: created.id,
          usage: 'off_session',
          allowed_payment_method_types: ['card'],
          payment_method_options: { card: { request_three_d_secure: 'automatic' } },
          metadata: { ...metadata, paylink_return_url: req.returnUrl.slice(0, 500) },
        },
        { idempotencyKey: providerIdempotencyKey(idempotencyKey) },
      ),
    );
    if (result instanceof Stripe.errors.StripeError)
      throw new Error(`stripe: the setup intent was refused (${result.code ?? result.statusCode}): ${result.message}`);
    const parsed = setupIntentSchema.safeParse(result);
    if (!parsed.success || !parsed.data.client_secret)
      throw new ConnectorUnavailableError('stripe', 'setup intent creation: the answer was not a setup intent in the documented shape');
    return { setupId: parsed.data.id, clientSecret: parsed.data.client_secret, customer: idOf(parsed.data.customer) ?? created.id };
  }

  async syncCardSetup(setupId: string): Promise<CardSetupState> {
    const result = await this.call('setup intent read', () => this.stripe.setupIntents.retrieve(setupId, { expand: ['payment_method'] }));
    if (result instanceof Stripe.errors.StripeError) throw new Error(`stripe: setup intent ${setupId} could not be read (${result.code ?? result.statusCode})`);
    const parsed = setupIntentSchema.safeParse(result);
    if (!parsed.success) throw new ConnectorUnavailableError('stripe', 'setup intent read: the answer was not a setup intent in the documented shape');
    return setupState(parsed.data);
  }

  async refund(req: RefundRequest, { idempotencyKey }: { idempotencyKey: string }): Promise<RefundState> {
    const allowed = refundAllowed(this.capabilities, req, this.now());
    if (!allowed.ok) return { status: 'failed', code: allowed.code, message: allowed.message };
    const result = await this.call('refund', () =>
      this.stripe.refunds.create(
        {
          charge: req.chargeId,
          amount: toStripeAmount(req.amountMinor),
          reason: 'requested_by_customer',
          ...(req.reason ? { metadata: { paylink_reason: req.reason.slice(0, 500) } } : {}),
        },
        { idempotencyKey: providerIdempotencyKey(idempotencyKey) },
      ),
    );
    if (result instanceof Stripe.errors.StripeError) {
      // A refusal of this refund (more than what is left, already refunded, disputed): final.
      return { status: 'failed', code: result.code ?? 'refund_failed', message: result.message || 'Stripe refused the refund.' };
    }
    const parsed = refundSchema.safeParse(result);
    if (!parsed.success) throw new ConnectorUnavailableError('stripe', 'a refund answer was not in the documented shape');
    return refundState(parsed.data);
  }

  async syncRefund(refundId: string): Promise<RefundState> {
    const result = await this.call('refund read', () => this.stripe.refunds.retrieve(refundId));
    if (result instanceof Stripe.errors.StripeError) throw new Error(`stripe: refund ${refundId} could not be read (${result.code ?? result.statusCode})`);
    const parsed = refundSchema.safeParse(result);
    if (!parsed.success) throw new ConnectorUnavailableError('stripe', 'a refund answer was not in the documented shape');
    return refundState(parsed.data);
  }

  parseWebhook({ rawBody, headers, now, toleranceSeconds = DEFAULT_WEBHOOK_TOLERANCE_SECONDS }: WebhookRequest): ConnectorEvent {
    const header = headers.get(SIGNATURE_HEADER);
    if (!header) throw new WebhookVerificationError('no Stripe-Signature header', SIGNATURE_HEADER);
    let verified: unknown;
    try {
      // Tolerance 0: the library checks only the signature (its time check lets a future timestamp
      // through); the time is held to the tolerance both ways below.
      verified = this.stripe.webhooks.constructEvent(rawBody, header, this.opts.webhookSecret, 0, undefined, now.getTime());
    } catch (error) {
      throw new WebhookVerificationError(
        error instanceof Error ? `the signature does not verify: ${error.message}` : 'the signature does not verify',
        SIGNATURE_HEADER,
      );
    }
    checkWebhookFreshness(signedAt(header), { now, toleranceSeconds, header: SIGNATURE_HEADER });
    const parsed = eventSchema.safeParse(verified);
    if (!parsed.success) throw new WebhookVerificationError('the event is not in the documented shape', '(body)');
    const event = parsed.data;
    const occurredAt = new Date(event.created * 1000);
    const object = event.data.object;
    if (event.type.startsWith('payment_intent.') && object.object === 'payment_intent') {
      const intent = intentSchema.safeParse(object);
      if (intent.success) {
        const state = intentState(intent.data) as PaymentState & { providerPaymentId: string };
        return { kind: 'payment', eventId: event.id, occurredAt, payment: state };
      }
    }
    if (event.type === 'charge.succeeded' && object.object === 'charge') {
      // The charge names its card and wallet, which a payment_intent.succeeded event does not
      // (its charge is not expanded): whichever of the two arrives first records the payment.
      const charge = chargeSchema.safeParse(object);
      const intentId = charge.success ? idOf(charge.data.payment_intent) : undefined;
      if (charge.success && intentId && charge.data.status === 'succeeded' && charge.data.paid !== false) {
        const state = paidBy(intentId, charge.data.id, charge.data.payment_method_details) as PaymentState & { providerPaymentId: string };
        return { kind: 'payment', eventId: event.id, occurredAt, payment: state };
      }
    }
    if (event.type.startsWith('setup_intent.') && object.object === 'setup_intent') {
      const setup = setupIntentSchema.safeParse(object);
      if (setup.success) {
        // An event's payment method is not expanded: a success is read again (syncCardSetup) before it is recorded.
        const status = setup.data.status === 'succeeded' ? 'succeeded' : setupState(setup.data).status;
        return { kind: 'card_setup', eventId: event.id, occurredAt, setupId: setup.data.id, status };
      }
    }
    if ((event.type.startsWith('refund.') || event.type === 'charge.refund.updated') && object.object === 'refund') {
      const refund = refundSchema.safeParse(object);
      if (refund.success) return { kind: 'refund', eventId: event.id, occurredAt, refund: { ...refundState(refund.data), refundId: refund.data.id } };
    }
    return { kind: 'ignored', eventId: event.id, occurredAt, type: event.type };
  }
}
