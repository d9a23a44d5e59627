import { createHmac, timingSafeEqual } from 'node:crypto';
import { request } from 'undici';
import { z } from 'zod';
import { type PaymentMethod, paymentMethods } from '../../schemas/payment-method.ts';
import { type DeclineCode, declineMessages } from '../acquirer.ts';
import {
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
  type WebhookRequest,
  WebhookVerificationError,
} from '../connector.ts';
import { DEFAULT_ACTION_WINDOW_SECONDS, paymongoMethodRules } from '../local-methods.ts';
import type { ProviderSettings } from '../registry.ts';

/**
 * PayMongo through its REST API (v1), as its public documentation describes it:
 * - the server creates a PaymentIntent with the secret key (amount in centavos, PHP 20.00 at least);
 * - the browser creates a PaymentMethod with the public key and attaches it with the intent's
 *   `client_key` and a `return_url` (src/components/PaymongoCardForm.tsx): the card number never
 *   reaches paylink;
 * - `awaiting_next_action` is a 3-D Secure redirect, `processing` means ask again shortly,
 *   `awaiting_payment_method` with `last_payment_error` is a decline, `succeeded` carries the
 *   payment (pay_…) that refunds are made against;
 * - the other methods (QR Ph, e-wallets, online banking, BillEase) go through the same intent on the
 *   server: payment method and attach with the secret key, `next_action` `redirect` or `consume_qr`;
 * - refunds (`POST /v1/refunds`) follow each method's rules (paymongoMethodRules, src/acquirer/local-methods.ts) and settle asynchronously;
 * - webhooks carry `Paymongo-Signature: t=…,te=…,li=…`, an HMAC-SHA256 of `t.body` with the
 *   webhook's secret (te in test mode, li in live mode).
 * Every POST carries an `Idempotency-Key` (PayMongo keeps it 24 h; at most 255 characters).
 */

export interface PaymongoOptions extends Omit<ProviderSettings, 'provider'> {
  /** Per request: headers and body each (undici); no answer in time is ConnectorUnavailableError. */
  timeoutMs?: number;
}

/** The header PayMongo signs its webhooks in (refusals name it). */
const SIGNATURE_HEADER = 'paymongo-signature';

const resource = <A extends z.ZodType>(attributes: A) => z.object({ id: z.string(), type: z.string(), attributes });

const paymentAttributes = z.looseObject({
  status: z.string(),
  payment_intent_id: z.string().nullish(),
  source: z.looseObject({ type: z.string().nullish(), brand: z.string().nullish(), last4: z.string().nullish() }).nullish(),
  failed_code: z.string().nullish(),
  failed_message: z.string().nullish(),
  /** The refunds made against the payment (payment.refunded and payment.refund.updated carry them). */
  refunds: z.array(z.unknown()).nullish(),
});

const intentSchema = resource(
  z.looseObject({
    status: z.string(),
    client_key: z.string().nullish(),
    last_payment_error: z
      .looseObject({ failed_code: z.string().nullish(), sub_code: z.string().nullish(), code: z.string().nullish(), failed_message: z.string().nullish() })
      .nullish(),
    next_action: z
      .looseObject({
        type: z.string(),
        redirect: z.looseObject({ url: z.string() }).nullish(),
        /** QR Ph (`consume_qr`): the code as an image (a base64 data URL), no expiry of its own. */
        code: z.looseObject({ image_url: z.string().nullish() }).nullish(),
      })
      .nullish(),
    payments: z.array(resource(paymentAttributes)).nullish(),
    metadata: z.record(z.string(), z.unknown()).nullish(),
    updated_at: z.number().nullish(),
  }),
);

const checkoutSessionSchema = z.object({
  id: z.string(),
  attributes: z.looseObject({
    payment_intent: z.looseObject({ id: z.string() }).nullish(),
    payments: z.array(resource(paymentAttributes)).nullish(),
  }),
});

const refundSchema = resource(z.looseObject({ status: z.string(), amount: z.number(), payment_id: z.string().nullish() }));

const errorsSchema = z.object({ errors: z.array(z.looseObject({ code: z.string(), detail: z.string().nullish() })) });

const eventSchema = z.object({
  data: z.object({
    id: z.string(),
    attributes: z.looseObject({
      type: z.string(),
      livemode: z.boolean(),
      created_at: z.number().nullish(),
      data: z.looseObject({ id: z.string(), type: z.string(), attributes: z.looseObject({}) }),
    }),
  }),
});

/** PayMongo's decline sub-codes, in paylink's plain words; anything else is a plain decline. */
const declineCodes: Record<string, DeclineCode> = {
  card_expired: 'expired_card',
  cvc_invalid: 'incorrect_cvc',
  cvc_incorrect: 'incorrect_cvc',
  insufficient_funds: 'insufficient_funds',
  processor_unavailable: 'processing_error',
  processor_timeout: 'processing_error',
  server_timeout: 'processing_error',
  card_not_supported: 'invalid_card',
  invalid_card: 'invalid_card',
};

/**
 * A refused attempt. A card's unknown code is a plain card decline; another method's failure
 * (the wallet, bank or lender said no, or the customer backed out there) is `cancelled`, in words
 * that do not speak of a card.
 */
const declined = (code: string | null | undefined, providerPaymentId: string, method: PaymentMethod = 'card'): PaymentState => {
  const mapped = declineCodes[code ?? ''] ?? (method === 'card' ? 'card_declined' : code === 'expired' ? 'expired' : 'cancelled');
  return { status: 'declined', providerPaymentId, method, code: mapped, message: declineMessages[mapped] };
};

type PaymentResource = z.infer<ReturnType<typeof resource<typeof paymentAttributes>>>;

/** paylink's method of a PayMongo payment method type (the same words; unknown types: undefined). */
const methodOfType = (type: string | null | undefined): PaymentMethod | undefined =>
  (paymentMethods as readonly string[]).includes(type ?? '') ? (type as PaymentMethod) : undefined;

/** The method an intent was made for: its payment's source, else what paylink wrote in its metadata. */
const methodOfIntent = (intent: z.infer<typeof intentSchema>, payment?: PaymentResource): PaymentMethod =>
  methodOfType(payment?.attributes.source?.type) ?? methodOfType(String(intent.attributes.metadata?.paylink_method ?? '')) ?? 'card';

const cardOf = (payment: PaymentResource | undefined) => {
  const source = payment?.attributes.source;
  return {
    ...(source?.brand ? { brand: source.brand.toLowerCase() } : {}),
    ...(source?.last4 ? { last4: source.last4 } : {}),
  };
};

/** An intent in paylink's terms. A status PayMongo may add later reads as `processing`. */
export function intentState(intent: z.infer<typeof intentSchema>, now: Date = new Date()): PaymentState {
  const a = intent.attributes;
  switch (a.status) {
    case 'succeeded': {
      const payment = a.payments?.find((p) => p.attributes.status === 'paid') ?? a.payments?.[0];
      // Succeeded without a payment to refund against is not something we can act on yet.
      if (!payment) return { status: 'processing', providerPaymentId: intent.id };
      const method = methodOfIntent(intent, payment);
      return { status: 'succeeded', providerPaymentId: intent.id, chargeId: payment.id, method, ...(method === 'card' ? cardOf(payment) : {}) };
    }
    case 'awaiting_payment_method': {
      const method = methodOfIntent(intent);
      const error = a.last_payment_error;
      if (error) return declined(error.sub_code ?? error.failed_code ?? error.code, intent.id, method);
      if (method !== 'card') {
        // A non-card intent is attached when paylink creates it, so back here means the attempt
        // ended: a failed payment (PayMongo may give no last_payment_error for these: its payments
        // say), or none at all when the authorisation window or the QR code's life passed.
        const failed = [...(a.payments ?? [])].reverse().find((p) => p.attributes.status === 'failed');
        return failed ? declined(failed.attributes.failed_code, intent.id, method) : declined('expired', intent.id, method);
      }
      return { status: 'requires_payment_method', providerPaymentId: intent.id, ...(a.client_key ? { clientKey: a.client_key } : {}) };
    }
    case 'awaiting_next_action': {
      const next = a.next_action;
      if (next?.type === 'consume_qr' && next.code?.image_url) {
        // PayMongo gives the code but no expiry: it runs from attach (the intent's last update while it waits).
        const seconds = Number(a.metadata?.paylink_qr_expiry_seconds) || DEFAULT_ACTION_WINDOW_SECONDS;
        const attachedAt = a.updated_at ? a.updated_at * 1000 : now.getTime();
        return {
          status: 'awaiting_scan',
          providerPaymentId: intent.id,
          qr: { content: next.code.image_url, expiresAt: new Date(attachedAt + seconds * 1000) },
        };
      }
      const url = next?.redirect?.url;
      return url ? { status: 'requires_action', providerPaymentId: intent.id, redirectUrl: url } : { status: 'processing', providerPaymentId: intent.id };
    }
    default:
      return { status: 'processing', providerPaymentId: intent.id };
  }
}

/** A refund in paylink's terms: a status we do not know is still pending, never success. */
export function refundState(refund: z.infer<typeof refundSchema>): RefundState {
  switch (refund.attributes.status) {
    case 'succeeded':
      return { status: 'succeeded', refundId: refund.id };
    case 'failed':
      return { status: 'failed', refundId: refund.id, code: 'refund_failed', message: 'PayMongo could not return the money to the card.' };
    default:
      return { status: 'pending', refundId: refund.id };
  }
}

/**
 * PayMongo refused to start the payment (a 4xx: an amount outside the method's range, a method
 * the account cannot take, a field it finds wrong): a business outcome, returned and never thrown,
 * so the customer gets a plain refusal (ER.03.31) and not a crash. Nothing was created, so there
 * is no providerPaymentId; PayMongo's own words stay out of the customer's sight (they are for
 * developers), its error code is kept in the message's tail for support.
 */
const providerRefusalMessage = 'The payment provider did not accept this payment.';
const refusedToStart = (json: unknown): PaymentState => {
  const parsed = errorsSchema.safeParse(json);
  const code = parsed.success ? parsed.data.errors[0]?.code : undefined;
  return { status: 'declined', code: 'processing_error', message: code ? `${providerRefusalMessage} (${code})` : providerRefusalMessage };
};

/** The method as Checkout Sessions spell it: one entry per bank for online banking, `shopee_pay` for ShopeePay. */
const checkoutTypes: Record<PaymentMethod, readonly string[]> = {
  card: ['card'],
  qrph: ['qrph'],
  gcash: ['gcash'],
  paymaya: ['paymaya'],
  grab_pay: ['grab_pay'],
  shopeepay: ['shopee_pay'],
  dob: ['dob', 'dob_ubp'],
  brankas: ['brankas_bdo', 'brankas_landbank', 'brankas_metrobank'],
  billease: ['billease'],
};

const toCentavos = (amountMinor: bigint) => {
  if (amountMinor > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('amount too large for PayMongo');
  return Number(amountMinor);
};

export class PaymongoConnector implements Connector {
  readonly name = 'paymongo';
  readonly capabilities: ConnectorCapabilities = {
    offSession: 'provider_subscriptions',
    cardCollection: 'paymongo_client',
    methods: paymongoMethodRules,
    currencies: [{ currency: 'PHP', minimumMinor: 2000n }],
    asyncRefunds: true,
    webhooks: true,
    hostedCheckout: true,
    // PayMongo's card payments take Visa and Mastercard.
    cardBrands: ['visa', 'mastercard'],
    runSchedulesNow: false,
  };

  private readonly base: string;

  constructor(
    private readonly opts: PaymongoOptions,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.base = opts.apiBaseUrl.replace(/\/+$/, '');
  }

  get hostedCheckoutChosen(): boolean {
    return this.opts.hostedCheckout === true;
  }

  /** The public key, for the browser (PaymentMethod creation and attach). */
  get publicKey(): string {
    return this.opts.publicKey;
  }

  get apiBaseUrl(): string {
    return this.base;
  }

  private async call(method: 'GET' | 'POST', path: string, body?: unknown, idempotencyKey?: string): Promise<{ status: number; json: unknown }> {
    const timeout = this.opts.timeoutMs ?? 15_000;
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await request(`${this.base}${path}`, {
        method,
        headers: {
          authorization: `Basic ${Buffer.from(`${this.opts.secretKey}:`).toString('base64')}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(idempotencyKey ? { 'idempotency-key': providerIdempotencyKey(idempotencyKey) } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        headersTimeout: timeout,
        bodyTimeout: timeout,
        signal: AbortSignal.timeout(timeout * 2),
      });
    } catch (error) {
      throw new ConnectorUnavailableError('paymongo', `${method} ${path.split('?')[0]} got no answer`, { cause: error });
    }
    const text = await res.body.text();
    if (res.statusCode >= 500 || res.statusCode === 429)
      throw new ConnectorUnavailableError('paymongo', `${method} ${path.split('?')[0]} answered ${res.statusCode}`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ConnectorUnavailableError('paymongo', `${method} ${path.split('?')[0]} answered ${res.statusCode} without JSON`);
    }
    if (res.statusCode === 401 || res.statusCode === 403) throw new Error(`paymongo: the API keys were refused (${res.statusCode})`);
    return { status: res.statusCode, json };
  }

  private intentFrom(json: unknown): PaymentState {
    const parsed = z.object({ data: intentSchema }).safeParse(json);
    if (!parsed.success) throw new ConnectorUnavailableError('paymongo', 'a payment intent answer was not in the documented shape');
    return intentState(parsed.data.data, this.now());
  }

  private static firstError(json: unknown) {
    const parsed = errorsSchema.safeParse(json);
    return parsed.success ? parsed.data.errors[0] : undefined;
  }

  /**
   * Card: the intent only; the browser gives the card (PaymongoCardForm). Any other method, all on
   * the server with the secret key, each POST under a key of its own derived from the attempt's:
   * the intent (`payment_method_allowed` naming the method), the payment method (its type, the
   * customer's billing, the bank's code, a QR code's life) and the attach with the return address.
   * The answer is where the customer goes next: the provider's page (requires_action) or the QR
   * code to show (awaiting_scan).
   */
  async createPayment(req: CreatePaymentRequest, { idempotencyKey }: { idempotencyKey: string }): Promise<PaymentState> {
    if (req.card) throw new Error('paymongo: the card is given to PayMongo by the browser, never to paylink');
    const method = req.method ?? 'card';
    const support = this.capabilities.methods.find((m) => m.method === method);
    if (!support) throw new Error(`paymongo: ${method} is not a method this connector takes`);
    if (support.banks && !support.banks.includes(req.bank ?? '')) {
      return { status: 'declined', method, code: 'processing_error', message: `${providerRefusalMessage} (bank)` };
    }
    const qrSeconds = method === 'qrph' ? Math.min(9000, Math.max(60, Math.round(req.qrExpirySeconds ?? DEFAULT_ACTION_WINDOW_SECONDS))) : undefined;
    const { status, json } = await this.call(
      'POST',
      '/v1/payment_intents',
      {
        data: {
          attributes: {
            amount: toCentavos(req.amountMinor),
            currency: req.currency,
            // The one method this attempt pays by: a type the account has not activated would make PayMongo refuse the intent.
            payment_method_allowed: [method],
            ...(method === 'card' ? { payment_method_options: { card: { request_three_d_secure: 'any' } } } : {}),
            capture_type: 'automatic',
            ...(req.description ? { description: req.description.slice(0, 255) } : {}),
            metadata: {
              paylink_reference: req.reference,
              ...(method === 'card' ? {} : { paylink_method: method }),
              ...(qrSeconds ? { paylink_qr_expiry_seconds: String(qrSeconds) } : {}),
            },
          },
        },
      },
      idempotencyKey,
    );
    if (status >= 400) return refusedToStart(json);
    if (method === 'card') return this.intentFrom(json);
    const intent = z.object({ data: z.object({ id: z.string() }) }).safeParse(json);
    if (!intent.success) throw new ConnectorUnavailableError('paymongo', 'a payment intent answer was not in the documented shape');
    const billing = req.billing ?? {};
    const created = await this.call(
      'POST',
      '/v1/payment_methods',
      {
        data: {
          attributes: {
            type: method,
            ...(billing.name || billing.email || billing.phone
              ? {
                  billing: {
                    ...(billing.name ? { name: billing.name.slice(0, 255) } : {}),
                    ...(billing.email ? { email: billing.email } : {}),
                    ...(billing.phone ? { phone: billing.phone } : {}),
                  },
                }
              : {}),
            ...(support.banks ? { details: { bank_code: req.bank } } : {}),
            ...(qrSeconds ? { expiry_seconds: qrSeconds } : {}),
          },
        },
      },
      `${idempotencyKey}:payment_method`,
    );
    if (created.status >= 400) return refusedToStart(created.json);
    const pm = z.object({ data: z.object({ id: z.string() }) }).safeParse(created.json);
    if (!pm.success) throw new ConnectorUnavailableError('paymongo', 'a payment method answer was not in the documented shape');
    const attached = await this.call(
      'POST',
      `/v1/payment_intents/${encodeURIComponent(intent.data.data.id)}/attach`,
      { data: { attributes: { payment_method: pm.data.data.id, return_url: req.returnUrl } } },
      `${idempotencyKey}:attach`,
    );
    if (attached.status >= 400) return refusedToStart(attached.json);
    return this.intentFrom(attached.json);
  }

  /** PayMongo's hosted checkout (`POST /v1/checkout_sessions`): the card is typed only on PayMongo's page. */
  async createHostedCheckout(
    req: CreatePaymentRequest & { cancelUrl: string; itemName: string; methods?: readonly PaymentMethod[] },
    { idempotencyKey }: { idempotencyKey: string },
  ): Promise<{ checkoutUrl: string; providerPaymentId: string } | Extract<PaymentState, { status: 'declined' }>> {
    const { status, json } = await this.call(
      'POST',
      '/v1/checkout_sessions',
      {
        data: {
          attributes: {
            line_items: [{ amount: toCentavos(req.amountMinor), currency: req.currency, name: req.itemName.slice(0, 255), quantity: 1 }],
            payment_method_types: (req.methods ?? [req.method ?? 'card'])
              .filter((m) => this.capabilities.methods.some((s) => s.method === m))
              .flatMap((m) => checkoutTypes[m]),
            success_url: req.returnUrl,
            cancel_url: req.cancelUrl,
            ...(req.description ? { description: req.description.slice(0, 255) } : {}),
            reference_number: req.reference,
            send_email_receipt: false,
            show_line_items: true,
          },
        },
      },
      idempotencyKey,
    );
    if (status >= 400) return refusedToStart(json) as Extract<PaymentState, { status: 'declined' }>;
    const parsed = z
      .object({
        data: z.object({ id: z.string(), attributes: z.looseObject({ checkout_url: z.string(), payment_intent: z.looseObject({ id: z.string() }) }) }),
      })
      .safeParse(json);
    if (!parsed.success) throw new ConnectorUnavailableError('paymongo', 'a checkout session answer was not in the documented shape');
    return { checkoutUrl: parsed.data.data.attributes.checkout_url, providerPaymentId: parsed.data.data.attributes.payment_intent.id };
  }

  async syncPayment(providerPaymentId: string): Promise<PaymentState> {
    const { status, json } = await this.call('GET', `/v1/payment_intents/${encodeURIComponent(providerPaymentId)}`);
    if (status >= 400) throw new Error(`paymongo: payment intent ${providerPaymentId} could not be read (${status})`);
    return this.intentFrom(json);
  }

  chargeSavedCard(): Promise<PaymentState> {
    // PayMongo charges saved cards only through its own Subscriptions API (docs/acquirers.md).
    return Promise.reject(new Error('paymongo: off-session charges of a saved card exist only through PayMongo subscriptions'));
  }

  async refund(req: RefundRequest, { idempotencyKey }: { idempotencyKey: string }): Promise<RefundState> {
    const allowed = refundAllowed(this.capabilities, req, this.now());
    if (!allowed.ok) return { status: 'failed', code: allowed.code, message: allowed.message };
    const { status, json } = await this.call(
      'POST',
      '/v1/refunds',
      {
        data: {
          attributes: {
            amount: toCentavos(req.amountMinor),
            payment_id: req.chargeId,
            reason: 'requested_by_customer',
            ...(req.reason ? { notes: req.reason.slice(0, 255) } : {}),
          },
        },
      },
      idempotencyKey,
    );
    if (status >= 400) {
      // A refusal of this refund (amount above what is left, payment not refundable): final.
      const error = PaymongoConnector.firstError(json);
      return { status: 'failed', code: error?.code ?? 'refund_failed', message: error?.detail ?? 'PayMongo refused the refund.' };
    }
    const parsed = z.object({ data: refundSchema }).safeParse(json);
    if (!parsed.success) throw new ConnectorUnavailableError('paymongo', 'a refund answer was not in the documented shape');
    return refundState(parsed.data.data);
  }

  async syncRefund(refundId: string): Promise<RefundState> {
    const { status, json } = await this.call('GET', `/v1/refunds/${encodeURIComponent(refundId)}`);
    if (status >= 400) throw new Error(`paymongo: refund ${refundId} could not be read (${status})`);
    const parsed = z.object({ data: refundSchema }).safeParse(json);
    if (!parsed.success) throw new ConnectorUnavailableError('paymongo', 'a refund answer was not in the documented shape');
    return refundState(parsed.data.data);
  }

  parseWebhook({ rawBody, headers, now, toleranceSeconds = DEFAULT_WEBHOOK_TOLERANCE_SECONDS }: WebhookRequest): ConnectorEvent {
    const header = headers.get(SIGNATURE_HEADER);
    if (!header) throw new WebhookVerificationError('no Paymongo-Signature header', SIGNATURE_HEADER);
    const parts = new Map(
      header.split(',').map((part) => {
        const at = part.indexOf('=');
        return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
      }),
    );
    const t = parts.get('t');
    if (!t || !/^\d+$/.test(t)) throw new WebhookVerificationError('the signature has no timestamp', SIGNATURE_HEADER);
    let body: unknown;
    try {
      body = JSON.parse(rawBody);
    } catch {
      throw new WebhookVerificationError('the body is not JSON', '(body)');
    }
    const parsed = eventSchema.safeParse(body);
    // Which signature counts depends on the event's mode; an unreadable event is refused below anyway.
    const live = parsed.success ? parsed.data.data.attributes.livemode : false;
    const given = parts.get(live ? 'li' : 'te') ?? '';
    const expected = createHmac('sha256', this.opts.webhookSecret).update(`${t}.${rawBody}`).digest('hex');
    const a = Buffer.from(given, 'utf8');
    const b = Buffer.from(expected, 'utf8');
    if (a.length !== b.length || !timingSafeEqual(a, b)) throw new WebhookVerificationError('the signature does not match', SIGNATURE_HEADER);
    // PayMongo's library-less scheme has no time check of its own: `t` is held to the tolerance here.
    checkWebhookFreshness(Number(t), { now, toleranceSeconds, header: SIGNATURE_HEADER });
    if (!parsed.success) throw new WebhookVerificationError('the event is not in the documented shape', '(body)');
    const event = parsed.data.data;
    const occurredAt = new Date((event.attributes.created_at ?? Number(t)) * 1000);
    const inner = event.attributes.data;
    const type = event.attributes.type;
    // payment.refunded (and payment.refund.updated, which some of PayMongo's pages document with
    // the payment too): the payment with its refunds; each final one settles a pending refund.
    if (inner.type === 'payment' && (type === 'payment.refunded' || type === 'payment.refund.updated')) {
      const payment = z.object({ id: z.string(), attributes: paymentAttributes }).safeParse(inner);
      const refunds = (payment.success ? (payment.data.attributes.refunds ?? []) : []).flatMap((r) => {
        const refund = refundSchema.safeParse(r);
        return refund.success ? [{ ...refundState(refund.data), refundId: refund.data.id }] : [];
      });
      if (refunds.length === 0) return { kind: 'ignored', eventId: event.id, occurredAt, type };
      return { kind: 'refunds', eventId: event.id, occurredAt, refunds };
    }
    // checkout_session.payment.paid: a hosted checkout paid; its intent is what paylink recorded.
    if (inner.type === 'checkout_session' && type === 'checkout_session.payment.paid') {
      const session = checkoutSessionSchema.safeParse(inner);
      const intentId = session.success ? session.data.attributes.payment_intent?.id : undefined;
      if (!session.success || !intentId) return { kind: 'ignored', eventId: event.id, occurredAt, type };
      const paid = session.data.attributes.payments?.find((p) => p.attributes.status === 'paid');
      const state: PaymentState = paid
        ? { status: 'succeeded', providerPaymentId: intentId, chargeId: paid.id, method: methodOfType(paid.attributes.source?.type) ?? 'card', ...cardOf(paid) }
        : { status: 'processing', providerPaymentId: intentId };
      return { kind: 'payment', eventId: event.id, occurredAt, payment: state as PaymentState & { providerPaymentId: string } };
    }
    if (inner.type === 'payment' && (event.attributes.type === 'payment.paid' || event.attributes.type === 'payment.failed')) {
      const payment = z.object({ id: z.string(), type: z.string(), attributes: paymentAttributes }).safeParse(inner);
      const intentId = payment.success ? payment.data.attributes.payment_intent_id : undefined;
      if (!payment.success || !intentId) return { kind: 'ignored', eventId: event.id, occurredAt, type: event.attributes.type };
      const method = methodOfType(payment.data.attributes.source?.type) ?? 'card';
      const state: PaymentState =
        event.attributes.type === 'payment.paid' && payment.data.attributes.status === 'paid'
          ? { status: 'succeeded', providerPaymentId: intentId, chargeId: payment.data.id, method, ...(method === 'card' ? cardOf(payment.data) : {}) }
          : event.attributes.type === 'payment.failed'
            ? declined(payment.data.attributes.failed_code, intentId, method)
            : { status: 'processing', providerPaymentId: intentId };
      return { kind: 'payment', eventId: event.id, occurredAt, payment: state as PaymentState & { providerPaymentId: string } };
    }
    // qrph.expired: a QR Ph code passed its life unpaid. Its data is not a payment: it names the
    // intent (as the resource itself, or by `payment_intent_id` / `payment_intent.id`), and no
    // payment.failed comes with it. The attempt is declined as expired; a new one makes a new code.
    if (type === 'qrph.expired') {
      const a = inner.attributes as Record<string, unknown>;
      const nested = a.payment_intent as { id?: unknown } | undefined;
      const intentId =
        inner.type === 'payment_intent'
          ? inner.id
          : typeof a.payment_intent_id === 'string'
            ? a.payment_intent_id
            : typeof nested?.id === 'string'
              ? nested.id
              : undefined;
      if (!intentId) return { kind: 'ignored', eventId: event.id, occurredAt, type };
      return { kind: 'payment', eventId: event.id, occurredAt, payment: declined('expired', intentId, 'qrph') as PaymentState & { providerPaymentId: string } };
    }
    if (inner.type === 'refund') {
      const refund = refundSchema.safeParse(inner);
      if (refund.success) {
        const state = refundState(refund.data);
        return { kind: 'refund', eventId: event.id, occurredAt, refund: { ...state, refundId: refund.data.id } };
      }
    }
    return { kind: 'ignored', eventId: event.id, occurredAt, type: event.attributes.type };
  }
}
