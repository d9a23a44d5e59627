import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake of Stripe's REST API (v1) on a real HTTP server (port 0), built from the documented
 * request and response shapes, for the Stripe connector's tests:
 *   POST /v1/customers                          secret key
 *   POST /v1/payment_intents                     secret key; `confirm=true` (+ `off_session`) charges at once
 *   GET  /v1/payment_intents/:id                 secret key, or publishable key with ?client_secret=
 *   POST /v1/payment_intents/:id/confirm         publishable key with client_secret (what Stripe.js does), or secret key
 *   GET  /v1/payment_methods/:id                 secret key (its card and customer, once saved)
 *   POST /v1/payment_methods/:id/detach          secret key (the card leaves its customer)
 *   POST /v1/setup_intents                       secret key (customer, usage=off_session)
 *   GET  /v1/setup_intents/:id                   secret key (?expand[]=payment_method), or publishable key with ?client_secret=
 *   POST /v1/setup_intents/:id/confirm           publishable key with client_secret (Stripe.js's confirmSetup), or secret key
 *   POST /v1/refunds, GET /v1/refunds/:id        secret key; refunds start `pending`
 * Bodies are form-encoded with brackets (`metadata[k]=v`, `expand[0]=latest_charge`), the key is
 * `Authorization: Bearer sk_test_…`, objects carry `object: 'payment_intent'` etc. and errors are
 * `{ error: { type, code, decline_code, message, payment_intent? } }` (card errors with 402).
 * Every POST honours Idempotency-Key: the first answer is replayed (with `Idempotent-Replayed`),
 * and the same key with other parameters is an `idempotency_error`.
 * Payment method types are chosen as the API version the package pins (2026-10-28.endive) does:
 * `payment_method_types` is refused (`payment_method_types_no_longer_supported`); the intent's
 * types are the account's (setAccountMethods; card, link, klarna, us_bank_account by default)
 * kept to `allowed_payment_method_types`, and a payment method of another type is refused on confirm.
 * Test payment methods (Stripe's documented aliases): pm_card_visa and pm_card_mastercard
 * succeed; pm_card_chargeDeclined, …InsufficientFunds, …ExpiredCard, …IncorrectCvc decline;
 * pm_card_threeDSecure2Required and pm_card_authenticationRequired ask for 3-D Secure on-session and
 * are declined with `authentication_required` off-session; pm_card_refundFail succeeds and its
 * refunds fail when they settle; the fake's own pm_fake_applePay and pm_fake_googlePay are cards
 * from a wallet (`card.wallet.type` on the charge) and pm_fake_link is Link (type `link`). The 3-D Secure page is GET /_test/3ds/:intent?answer=approve|fail
 * (then a redirect to the return_url, for PaymentIntents and SetupIntents alike). A SetupIntent
 * confirmed with a declining card goes back to `requires_payment_method` with `last_setup_error`;
 * a succeeded one attaches the payment method to its customer. `settle()` finishes pending refunds; `event()` makes events
 * signed like Stripe's (`Stripe-Signature: t=…,v1=…`).
 */
type Behaviour = 'succeeds' | 'three_d_secure' | 'refund_fails_later' | { decline: string };

/**
 * How a test payment method pays: a card typed in; a card from a wallet (`card.wallet.type` on
 * the charge: Apple Pay, Google Pay); or Link, a payment method type of its own (`link`).
 */
type Kind = { type: 'card'; wallet?: 'apple_pay' | 'google_pay' } | { type: 'link' };

const aliases: Record<string, { behaviour: Behaviour; brand: string; last4: string; kind?: Kind }> = {
  pm_card_visa: { behaviour: 'succeeds', brand: 'visa', last4: '4242' },
  pm_card_mastercard: { behaviour: 'succeeds', brand: 'mastercard', last4: '4444' },
  pm_card_chargeDeclined: { behaviour: { decline: 'generic_decline' }, brand: 'visa', last4: '0002' },
  pm_card_chargeDeclinedInsufficientFunds: { behaviour: { decline: 'insufficient_funds' }, brand: 'visa', last4: '9995' },
  pm_card_chargeDeclinedExpiredCard: { behaviour: { decline: 'expired_card' }, brand: 'visa', last4: '0069' },
  pm_card_chargeDeclinedIncorrectCvc: { behaviour: { decline: 'incorrect_cvc' }, brand: 'visa', last4: '0127' },
  pm_card_threeDSecure2Required: { behaviour: 'three_d_secure', brand: 'visa', last4: '3220' },
  pm_card_authenticationRequired: { behaviour: 'three_d_secure', brand: 'visa', last4: '3184' },
  pm_card_refundFail: { behaviour: 'refund_fails_later', brand: 'visa', last4: '5126' },
  // The fake's own stand-ins (Stripe has no test alias for a wallet: its wallets need a device):
  // what the Payment Element hands Stripe when the customer pays with Apple Pay, Google Pay or Link.
  pm_fake_applePay: { behaviour: 'succeeds', brand: 'visa', last4: '4242', kind: { type: 'card', wallet: 'apple_pay' } },
  pm_fake_googlePay: { behaviour: 'succeeds', brand: 'mastercard', last4: '4444', kind: { type: 'card', wallet: 'google_pay' } },
  pm_fake_link: { behaviour: 'succeeds', brand: 'visa', last4: '4242', kind: { type: 'link' } },
};

/** The payment method types the fake account turns on in its "Dashboard" (setAccountMethods changes them). */
const defaultAccountMethods = ['card', 'link', 'klarna', 'us_bank_account'];

/** Stripe's minimums for the currencies the fake knows (minor units); others need 50. */
const minimums: Record<string, number> = { usd: 50, eur: 50, gbp: 30, jpy: 50, hkd: 400, mxn: 1000 };

interface PaymentMethod {
  id: string;
  behaviour: Behaviour;
  brand: string;
  last4: string;
  kind?: Kind;
  customer: string | null;
  /** The same test card always has the same fingerprint. */
  fingerprint: string;
}

interface SetupIntent {
  id: string;
  status: string;
  client_secret: string;
  customer: string | null;
  usage: string;
  payment_method: string | null;
  last_setup_error: Record<string, unknown> | null;
  next_action: Record<string, unknown> | null;
  metadata: Record<string, string>;
  returnUrl?: string;
  created: number;
}

interface Intent {
  id: string;
  amount: number;
  currency: string;
  description: string | null;
  status: string;
  client_secret: string;
  customer: string | null;
  setup_future_usage: string | null;
  /** What Stripe computed from allowed_payment_method_types and the account's methods. */
  payment_method_types: string[];
  allowed_payment_method_types: string[] | null;
  payment_method: string | null;
  latest_charge: string | null;
  last_payment_error: Record<string, unknown> | null;
  next_action: Record<string, unknown> | null;
  metadata: Record<string, string>;
  returnUrl?: string;
  /** After 3-D Secure: answer `processing` once before settling, as a bank may. */
  processingOnce?: boolean;
  created: number;
}

interface Charge {
  id: string;
  intentId: string;
  amount: number;
  currency: string;
  method: PaymentMethod;
  created: number;
}

interface Refund {
  id: string;
  chargeId: string;
  intentId: string;
  amount: number;
  currency: string;
  status: string;
  failure_reason: string | null;
  created: number;
}

type Form = { [key: string]: string | Form };

export interface FakeStripe {
  url: string;
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** Requests received: method, path and Idempotency-Key (no bodies). */
  requests: Array<{ method: string; path: string; idempotencyKey?: string }>;
  /** Pending refunds settle: succeeded, or failed for pm_card_refundFail. */
  settle(): Promise<void>;
  /** Makes an intent report a status paylink has never seen. */
  setIntentStatus(id: string, status: string): void;
  /** Makes a SetupIntent report a status paylink has never seen. */
  setSetupStatus(id: string, status: string): void;
  /** The payment method types the account turns on (its Dashboard's settings); Stripe's dynamic payment methods start from these. */
  setAccountMethods(types: string[]): void;
  /** The intent as Stripe would show it (unexpanded), for events made in a test. */
  intent(id: string): Record<string, unknown> | undefined;
  /** The refund as Stripe would show it. */
  refund(id: string): Record<string, unknown> | undefined;
  /** The charge as Stripe shows it in a `charge.*` event (its card, its wallet). */
  charge(id: string): Record<string, unknown> | undefined;
  /** Every PaymentIntent made, as Stripe shows them (to find the one a scheduled run made). */
  intents(): Array<Record<string, unknown>>;
  /** The SetupIntent as Stripe would show it in an event (payment method not expanded). */
  setupIntent(id: string): Record<string, unknown> | undefined;
  /** A payment method's customer: null once detached, undefined when Stripe has no such payment method. */
  paymentMethodCustomer(id: string): string | null | undefined;
  /** The customer as created (name, e-mail, metadata). */
  customer(id: string): { name: string | null; email: string | null; metadata: Record<string, string> } | undefined;
  /** Signs a payload as Stripe does (`t=…,v1=HMAC-SHA256(secret, "t.payload")`). */
  sign(rawBody: string, t?: number, secret?: string): string;
  /** A signed event about an object. */
  event(type: string, object: Record<string, unknown>, opts?: { eventId?: string; t?: number }): { rawBody: string; headers: Headers };
  /** Answers the next requests with 503 (count). */
  failNext(count: number): void;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** `a[b][0]=c` form bodies, as Stripe reads them. */
export function parseForm(body: string): Form {
  const out: Form = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const parts = [...rawKey.matchAll(/([^[\]]+)|\[([^\]]*)\]/g)].map((m) => m[1] ?? m[2] ?? '');
    let node: Form = out;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else {
        const next = node[part];
        node = typeof next === 'object' ? next : (node[part] = {});
      }
    });
  }
  return out;
}

const str = (v: string | Form | undefined) => (typeof v === 'string' ? v : undefined);
const list = (v: string | Form | undefined) =>
  typeof v === 'object' ? Object.values(v).filter((x): x is string => typeof x === 'string') : str(v) ? [str(v)!] : [];

/** `port`: where to listen (the end-to-end suite's browser reaches it at a port it knows); any free one by default. */
export async function startFakeStripe(opts: { port?: number } = {}): Promise<FakeStripe> {
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const publishableKey = `pk_test_${randomBytes(12).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const customers = new Map<string, { name: string | null; email: string | null; metadata: Record<string, string> }>();
  const setups = new Map<string, SetupIntent>();
  const methods = new Map<string, PaymentMethod>();
  const intents = new Map<string, Intent>();
  const charges = new Map<string, Charge>();
  const refunds = new Map<string, Refund>();
  const idempotent = new Map<string, { fingerprint: string; status: number; body: string }>();
  let failures = 0;
  let url = '';
  let accountMethods = [...defaultAccountMethods];
  /**
   * Dynamic payment methods: the account's methods, kept to `allowed_payment_method_types` when
   * given (incompatible ones dropped, not refused), as the API version 2026-10-28.endive does.
   */
  const typesFor = (allowed: string[]) => (allowed.length > 0 ? accountMethods.filter((t) => allowed.includes(t)) : [...accountMethods]);

  const chargeView = (c: Charge) => ({
    id: c.id,
    object: 'charge' as const,
    amount: c.amount,
    amount_refunded: [...refunds.values()].filter((r) => r.chargeId === c.id && r.status === 'succeeded').reduce((s, r) => s + r.amount, 0),
    currency: c.currency,
    paid: true,
    status: 'succeeded',
    payment_intent: c.intentId,
    payment_method: c.method.id,
    payment_method_details:
      c.method.kind?.type === 'link'
        ? { type: 'link', link: { country: 'PH' } }
        : {
            type: 'card',
            card: {
              brand: c.method.brand,
              last4: c.method.last4,
              exp_month: 12,
              exp_year: 2034,
              funding: 'credit',
              wallet: c.method.kind?.type === 'card' && c.method.kind.wallet ? { type: c.method.kind.wallet, [c.method.kind.wallet]: {} } : null,
            },
          },
    livemode: false,
    created: c.created,
  });
  const intentView = (i: Intent, expand: string[] = []) => ({
    id: i.id,
    object: 'payment_intent' as const,
    amount: i.amount,
    amount_received: i.status === 'succeeded' ? i.amount : 0,
    currency: i.currency,
    description: i.description,
    status: i.status,
    client_secret: i.client_secret,
    capture_method: 'automatic',
    confirmation_method: 'automatic',
    customer: i.customer,
    setup_future_usage: i.setup_future_usage,
    payment_method: i.payment_method && expand.includes('payment_method') ? methodView(methods.get(i.payment_method)!) : i.payment_method,
    payment_method_types: i.payment_method_types,
    allowed_payment_method_types: i.allowed_payment_method_types,
    latest_charge: i.latest_charge && expand.includes('latest_charge') ? chargeView(charges.get(i.latest_charge)!) : i.latest_charge,
    last_payment_error: i.last_payment_error,
    next_action: i.next_action,
    metadata: i.metadata,
    livemode: false,
    created: i.created,
  });
  const refundView = (r: Refund) => ({
    id: r.id,
    object: 'refund' as const,
    amount: r.amount,
    currency: r.currency,
    charge: r.chargeId,
    payment_intent: r.intentId,
    reason: 'requested_by_customer',
    status: r.status,
    failure_reason: r.failure_reason,
    metadata: {},
    created: r.created,
  });

  const methodView = (m: PaymentMethod) => ({
    id: m.id,
    object: 'payment_method' as const,
    type: m.kind?.type ?? 'card',
    ...(m.kind?.type === 'link'
      ? { link: { email: 'customer@example.com' } }
      : {
          card: {
            brand: m.brand,
            last4: m.last4,
            exp_month: 12,
            exp_year: 2034,
            fingerprint: m.fingerprint,
            funding: 'credit',
            wallet: m.kind?.wallet ? { type: m.kind.wallet } : null,
          },
        }),
    customer: m.customer,
    livemode: false,
  });
  const setupView = (si: SetupIntent, expand: string[] = []) => ({
    id: si.id,
    object: 'setup_intent' as const,
    status: si.status,
    client_secret: si.client_secret,
    customer: si.customer,
    usage: si.usage,
    payment_method: si.payment_method && expand.includes('payment_method') ? methodView(methods.get(si.payment_method)!) : si.payment_method,
    payment_method_types: ['card'],
    last_setup_error: si.last_setup_error,
    next_action: si.next_action,
    metadata: si.metadata,
    livemode: false,
    created: si.created,
  });
  const metadataOf = (form: Form) =>
    Object.fromEntries(Object.entries(typeof form.metadata === 'object' ? form.metadata : {}).filter((e): e is [string, string] => typeof e[1] === 'string'));

  /** Confirms a SetupIntent with a card: saved on its customer, 3-D Secure first, or refused. */
  const confirmSetup = (si: SetupIntent, method: PaymentMethod) => {
    si.payment_method = method.id;
    si.next_action = null;
    if (method.behaviour === 'three_d_secure') {
      si.status = 'requires_action';
      si.last_setup_error = null;
      si.next_action = { type: 'redirect_to_url', redirect_to_url: { url: `${url}/_test/3ds/${si.id}`, return_url: si.returnUrl ?? null } };
      return undefined;
    }
    if (typeof method.behaviour === 'object') {
      const err = {
        type: 'card_error',
        code: method.behaviour.decline === 'expired_card' || method.behaviour.decline === 'incorrect_cvc' ? method.behaviour.decline : 'card_declined',
        decline_code: method.behaviour.decline,
        message: 'Your card was declined.',
        payment_method: methodView(method),
      };
      si.status = 'requires_payment_method';
      si.payment_method = null;
      si.last_setup_error = err;
      return err;
    }
    method.customer = si.customer;
    si.status = 'succeeded';
    si.last_setup_error = null;
    return undefined;
  };

  const sign = (rawBody: string, t = nowSeconds(), secret = webhookSecret) =>
    `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex')}`;
  const event = (type: string, object: Record<string, unknown>, opts: { eventId?: string; t?: number } = {}) => {
    const rawBody = JSON.stringify(
      {
        id: opts.eventId ?? id('evt'),
        object: 'event',
        api_version: '2026-10-28.endive',
        created: opts.t ?? nowSeconds(),
        data: { object },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
      },
      null,
      2,
    );
    return { rawBody, headers: new Headers({ 'content-type': 'application/json', 'stripe-signature': sign(rawBody, opts.t) }) };
  };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
    res.end(JSON.stringify(body));
  };
  const error = (res: ServerResponse, status: number, err: Record<string, unknown>) => send(res, status, { error: err });
  const invalid = (res: ServerResponse, message: string, extra: Record<string, unknown> = {}) =>
    error(res, 400, { type: 'invalid_request_error', message, ...extra });

  /** Stripe's magic aliases become a new payment method each time; pm_… ids are looked up. */
  const methodFor = (ref: string | undefined): PaymentMethod | undefined => {
    if (!ref) return undefined;
    const alias = aliases[ref];
    if (alias) {
      const fingerprint = createHash('sha256').update(ref).digest('base64url').slice(0, 16);
      const method: PaymentMethod = { id: id('pm'), ...alias, customer: null, fingerprint };
      methods.set(method.id, method);
      return method;
    }
    return methods.get(ref);
  };

  /** Charges the intent with its payment method; returns the card error when declined. */
  const attempt = (intent: Intent, method: PaymentMethod, offSession: boolean): Record<string, unknown> | undefined => {
    intent.payment_method = method.id;
    if (intent.customer && intent.setup_future_usage) method.customer = intent.customer;
    const decline = typeof method.behaviour === 'object' ? method.behaviour.decline : undefined;
    if (method.behaviour === 'three_d_secure') {
      if (offSession) {
        const err = {
          type: 'card_error',
          code: 'authentication_required',
          decline_code: 'authentication_required',
          message: 'This payment required an authentication action to complete, but `off_session` was set.',
          payment_method: { id: method.id, object: 'payment_method' },
        };
        intent.status = 'requires_payment_method';
        intent.last_payment_error = err;
        return err;
      }
      intent.status = 'requires_action';
      intent.next_action = intent.returnUrl
        ? { type: 'redirect_to_url', redirect_to_url: { url: `${url}/_test/3ds/${intent.id}`, return_url: intent.returnUrl } }
        : { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } };
      return undefined;
    }
    if (decline) {
      const err = {
        type: 'card_error',
        code: decline === 'expired_card' || decline === 'incorrect_cvc' ? decline : 'card_declined',
        decline_code: decline,
        message: 'Your card was declined.',
        payment_method: { id: method.id, object: 'payment_method' },
      };
      intent.status = 'requires_payment_method';
      intent.last_payment_error = err;
      intent.next_action = null;
      return err;
    }
    const charge: Charge = { id: id('ch'), intentId: intent.id, amount: intent.amount, currency: intent.currency, method, created: nowSeconds() };
    charges.set(charge.id, charge);
    intent.latest_charge = charge.id;
    intent.status = 'succeeded';
    intent.last_payment_error = null;
    intent.next_action = null;
    return undefined;
  };

  const secretOf = (req: IncomingMessage) => {
    const auth = req.headers.authorization ?? '';
    return auth.startsWith('Bearer ') ? auth.slice(7) : undefined;
  };

  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const u = new URL(req.url ?? '/', 'http://fake');
    const path = u.pathname;

    const setupThreeDs = path.match(/^\/_test\/3ds\/(seti_[a-f0-9]+)$/);
    if (setupThreeDs && req.method === 'GET') {
      const si = setups.get(setupThreeDs[1]!);
      if (si?.status !== 'requires_action') return invalid(res, 'No setup waits for authentication.');
      const answer = u.searchParams.get('answer');
      if (answer === 'approve') confirmSetup(si, { ...methods.get(si.payment_method!)!, behaviour: 'succeeds' });
      else {
        si.status = 'requires_payment_method';
        si.next_action = null;
        si.payment_method = null;
        si.last_setup_error = {
          type: 'invalid_request_error',
          code: 'setup_intent_authentication_failure',
          message: 'The latest attempt to set up the payment method has failed because authentication failed.',
        };
      }
      // The approved card is the stored one (its behaviour copy above only skipped the challenge).
      if (answer === 'approve') methods.get(si.payment_method!)!.customer = si.customer;
      const back = new URL(si.returnUrl ?? 'http://invalid/');
      back.searchParams.set('setup_intent', si.id);
      back.searchParams.set('setup_intent_client_secret', si.client_secret);
      back.searchParams.set('redirect_status', answer === 'approve' ? 'succeeded' : 'failed');
      res.writeHead(302, { location: back.toString() });
      return void res.end();
    }

    const threeDs = path.match(/^\/_test\/3ds\/(pi_[a-f0-9]+)$/);
    if (threeDs && req.method === 'GET') {
      const intent = intents.get(threeDs[1]!);
      if (intent?.status !== 'requires_action') return invalid(res, 'No intent waits for authentication.');
      const answer = u.searchParams.get('answer');
      if (answer !== 'approve' && answer !== 'fail') {
        res.writeHead(200, { 'content-type': 'text/html' });
        return void res.end('<!doctype html><title>3-D Secure (test)</title><a href="?answer=approve">Complete</a> <a href="?answer=fail">Fail</a>');
      }
      if (answer === 'approve') {
        attempt(intent, { ...methods.get(intent.payment_method!)!, behaviour: 'succeeds' }, false);
        intent.processingOnce = true;
      } else {
        intent.status = 'requires_payment_method';
        intent.next_action = null;
        intent.last_payment_error = {
          type: 'invalid_request_error',
          code: 'payment_intent_authentication_failure',
          message: 'The provided PaymentMethod has failed authentication.',
        };
      }
      const back = new URL(intent.returnUrl ?? 'http://invalid/');
      back.searchParams.set('payment_intent', intent.id);
      back.searchParams.set('payment_intent_client_secret', intent.client_secret);
      back.searchParams.set('redirect_status', answer === 'approve' ? 'succeeded' : 'failed');
      res.writeHead(302, { location: back.toString() });
      return void res.end();
    }

    if (failures > 0) {
      failures--;
      return error(res, 503, { type: 'api_error', message: 'Stripe is temporarily unavailable.' });
    }
    const key = secretOf(req);
    const isSecret = key === secretKey;
    const isPublishable = key === publishableKey;
    if (!isSecret && !isPublishable) return error(res, 401, { type: 'invalid_request_error', message: 'Invalid API Key provided.' });
    if (req.method === 'POST' && body && !(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
      return invalid(res, 'Bodies are form-encoded.');
    const form = req.method === 'POST' ? parseForm(body) : parseForm(u.search.slice(1));
    const expand = list(form.expand);
    const secretOnly = () => {
      if (isSecret) return true;
      error(res, 401, { type: 'invalid_request_error', message: 'This API call cannot be made with a publishable API key.' });
      return false;
    };
    /** The API version the package pins no longer takes `payment_method_types`; `allowed_…` excludes the other two ways to choose. */
    const methodChoiceRefused = () => {
      if (form.payment_method_types !== undefined) {
        invalid(res, 'payment_method_types is no longer supported on this API version: use allowed_payment_method_types.', {
          code: 'payment_method_types_no_longer_supported',
          param: 'payment_method_types',
        });
        return true;
      }
      const exclusive = ['excluded_payment_method_types', 'automatic_payment_methods', 'payment_method_configuration'].find((k) => form[k] !== undefined);
      if (form.allowed_payment_method_types !== undefined && exclusive) {
        invalid(res, `allowed_payment_method_types cannot be used with ${exclusive}.`, { param: exclusive });
        return true;
      }
      return false;
    };

    if (req.method === 'POST' && path === '/v1/customers') {
      if (!secretOnly()) return;
      const customer = id('cus');
      const record = { name: str(form.name) ?? null, email: str(form.email) ?? null, metadata: metadataOf(form) };
      customers.set(customer, record);
      return send(res, 200, { id: customer, object: 'customer', ...record, created: nowSeconds(), livemode: false });
    }

    if (req.method === 'POST' && path === '/v1/setup_intents') {
      if (!secretOnly() || methodChoiceRefused()) return;
      const customer = str(form.customer) ?? null;
      if (customer && !customers.has(customer)) return invalid(res, `No such customer: '${customer}'`, { code: 'resource_missing', param: 'customer' });
      const usage = str(form.usage) ?? 'off_session';
      if (usage !== 'off_session' && usage !== 'on_session') return invalid(res, 'Invalid usage', { param: 'usage' });
      const setupId = id('seti');
      const si: SetupIntent = {
        id: setupId,
        status: 'requires_payment_method',
        client_secret: `${setupId}_secret_${randomBytes(12).toString('hex')}`,
        customer,
        usage,
        payment_method: null,
        last_setup_error: null,
        next_action: null,
        metadata: metadataOf(form),
        created: nowSeconds(),
      };
      setups.set(setupId, si);
      return send(res, 200, setupView(si, expand));
    }

    const setupPath = path.match(/^\/v1\/setup_intents\/(seti_[a-f0-9]+)(\/confirm)?$/);
    if (setupPath) {
      const si = setups.get(setupPath[1]!);
      if (!si) return error(res, 404, { type: 'invalid_request_error', code: 'resource_missing', message: 'No such setupintent.' });
      if (!isSecret && str(form.client_secret) !== si.client_secret)
        return error(res, 401, { type: 'invalid_request_error', message: 'The client_secret does not match.' });
      if (req.method === 'GET' && !setupPath[2]) return send(res, 200, isSecret ? setupView(si, expand) : { ...setupView(si), customer: null });
      if (req.method === 'POST' && setupPath[2]) {
        if (si.status !== 'requires_payment_method' && si.status !== 'requires_confirmation')
          return invalid(res, `This SetupIntent's status is ${si.status}.`, { code: 'setup_intent_unexpected_state', setup_intent: setupView(si) });
        const method = methodFor(str(form.payment_method));
        if (!method) return invalid(res, 'No such PaymentMethod', { code: 'resource_missing', param: 'payment_method' });
        si.returnUrl = str(form.return_url);
        const err = confirmSetup(si, method);
        if (err) return error(res, 402, { ...err, setup_intent: setupView(si) });
        return send(res, 200, setupView(si, expand));
      }
    }

    const detachPath = path.match(/^\/v1\/payment_methods\/(pm_[a-f0-9]+)\/detach$/);
    if (req.method === 'POST' && detachPath) {
      if (!secretOnly()) return;
      const method = methods.get(detachPath[1]!);
      if (!method) return error(res, 404, { type: 'invalid_request_error', code: 'resource_missing', message: 'No such PaymentMethod.' });
      if (!method.customer) return invalid(res, 'The payment method you provided is not attached to a customer so detachment is impossible.');
      method.customer = null;
      return send(res, 200, methodView(method));
    }

    if (req.method === 'POST' && path === '/v1/payment_intents') {
      if (!secretOnly() || methodChoiceRefused()) return;
      const amount = Number(str(form.amount));
      const currency = str(form.currency) ?? '';
      if (!Number.isInteger(amount) || amount < 1) return invalid(res, 'Invalid positive integer', { param: 'amount' });
      if (!/^[a-z]{3}$/.test(currency)) return invalid(res, 'Invalid currency', { param: 'currency' });
      if (amount < (minimums[currency] ?? 50))
        return invalid(res, `Amount must be at least ${minimums[currency] ?? 50} ${currency}`, { code: 'amount_too_small', param: 'amount' });
      const customer = str(form.customer) ?? null;
      if (customer && !customers.has(customer)) return invalid(res, `No such customer: '${customer}'`, { code: 'resource_missing', param: 'customer' });
      const intentId = id('pi');
      const allowed = list(form.allowed_payment_method_types);
      const intent: Intent = {
        id: intentId,
        amount,
        currency,
        description: str(form.description) ?? null,
        status: 'requires_payment_method',
        client_secret: `${intentId}_secret_${randomBytes(12).toString('hex')}`,
        customer,
        setup_future_usage: str(form.setup_future_usage) ?? null,
        payment_method_types: typesFor(allowed),
        allowed_payment_method_types: allowed.length > 0 ? allowed : null,
        payment_method: null,
        latest_charge: null,
        last_payment_error: null,
        next_action: null,
        metadata: Object.fromEntries(
          Object.entries(typeof form.metadata === 'object' ? form.metadata : {}).filter((e): e is [string, string] => typeof e[1] === 'string'),
        ),
        created: nowSeconds(),
      };
      if (str(form.confirm) === 'true') {
        const offSession = str(form.off_session) === 'true';
        const method = methods.get(str(form.payment_method) ?? '');
        if (!method) return invalid(res, 'No such PaymentMethod', { code: 'resource_missing', param: 'payment_method' });
        if (offSession && (!customer || method.customer !== customer))
          return invalid(res, 'The provided PaymentMethod is not attached to this customer.', { param: 'payment_method' });
        if (!intent.payment_method_types.includes(method.kind?.type ?? 'card'))
          return invalid(res, 'The PaymentMethod provided is not allowed for this PaymentIntent.', {
            code: 'payment_intent_incompatible_payment_method',
            param: 'payment_method',
          });
        intent.returnUrl = str(form.return_url);
        intents.set(intentId, intent);
        const err = attempt(intent, method, offSession);
        if (err) return error(res, 402, { ...err, payment_intent: intentView(intent, expand) });
        return send(res, 200, intentView(intent, expand));
      }
      intents.set(intentId, intent);
      return send(res, 200, intentView(intent, expand));
    }

    const intentPath = path.match(/^\/v1\/payment_intents\/(pi_[a-f0-9]+)(\/confirm)?$/);
    if (intentPath) {
      const intent = intents.get(intentPath[1]!);
      if (!intent) return error(res, 404, { type: 'invalid_request_error', code: 'resource_missing', message: 'No such payment_intent.' });
      if (!isSecret && str(form.client_secret) !== intent.client_secret)
        return error(res, 401, { type: 'invalid_request_error', message: 'The client_secret does not match.' });
      if (req.method === 'GET' && !intentPath[2]) {
        if (intent.processingOnce) {
          intent.processingOnce = false;
          return send(res, 200, { ...intentView(intent, expand), status: 'processing', latest_charge: null });
        }
        return send(res, 200, intentView(intent, expand));
      }
      if (req.method === 'POST' && intentPath[2]) {
        if (intent.status !== 'requires_payment_method' && intent.status !== 'requires_confirmation')
          return invalid(res, `This PaymentIntent's status is ${intent.status}.`, {
            code: 'payment_intent_unexpected_state',
            payment_intent: intentView(intent),
          });
        const method = methodFor(str(form.payment_method));
        if (!method) return invalid(res, 'No such PaymentMethod', { code: 'resource_missing', param: 'payment_method' });
        const type = method.kind?.type ?? 'card';
        if (!intent.payment_method_types.includes(type))
          return invalid(res, `The PaymentMethod provided (${type}) is not allowed for this PaymentIntent.`, {
            code: 'payment_intent_incompatible_payment_method',
            param: 'payment_method',
          });
        intent.returnUrl = str(form.return_url);
        const err = attempt(intent, method, false);
        if (err) return error(res, 402, { ...err, payment_intent: intentView(intent) });
        return send(res, 200, intentView(intent, expand));
      }
    }

    const methodPath = path.match(/^\/v1\/payment_methods\/(pm_[a-f0-9]+)$/);
    if (req.method === 'GET' && methodPath) {
      if (!secretOnly()) return;
      const method = methods.get(methodPath[1]!);
      if (!method) return error(res, 404, { type: 'invalid_request_error', code: 'resource_missing', message: 'No such PaymentMethod.' });
      return send(res, 200, methodView(method));
    }

    if (req.method === 'POST' && path === '/v1/refunds') {
      if (!secretOnly()) return;
      const charge = charges.get(str(form.charge) ?? '') ?? [...charges.values()].find((c) => c.intentId === str(form.payment_intent));
      if (!charge) return invalid(res, 'No such charge', { code: 'resource_missing', param: 'charge' });
      const held = [...refunds.values()]
        .filter((r) => r.chargeId === charge.id && r.status !== 'failed' && r.status !== 'canceled')
        .reduce((s, r) => s + r.amount, 0);
      if (held >= charge.amount) return invalid(res, `Charge ${charge.id} has already been refunded.`, { code: 'charge_already_refunded' });
      const amount = form.amount === undefined ? charge.amount - held : Number(str(form.amount));
      if (!Number.isInteger(amount) || amount < 1) return invalid(res, 'Invalid positive integer', { param: 'amount' });
      if (held + amount > charge.amount)
        return invalid(res, `Refund amount is greater than unrefunded amount on charge (${charge.amount - held})`, {
          code: 'amount_too_large',
          param: 'amount',
        });
      const refund: Refund = {
        id: id('re'),
        chargeId: charge.id,
        intentId: charge.intentId,
        amount,
        currency: charge.currency,
        status: 'pending',
        failure_reason: null,
        created: nowSeconds(),
      };
      refunds.set(refund.id, refund);
      return send(res, 200, refundView(refund));
    }
    const refundPath = path.match(/^\/v1\/refunds\/(re_[a-f0-9]+)$/);
    if (req.method === 'GET' && refundPath) {
      if (!secretOnly()) return;
      const refund = refunds.get(refundPath[1]!);
      if (!refund) return error(res, 404, { type: 'invalid_request_error', code: 'resource_missing', message: 'No such refund.' });
      return send(res, 200, refundView(refund));
    }
    return error(res, 404, { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path}).` });
  };

  const fake: FakeStripe = {
    url: '',
    secretKey,
    publishableKey,
    webhookSecret,
    requests: [],
    async settle() {
      for (const refund of refunds.values()) {
        if (refund.status !== 'pending') continue;
        const charge = charges.get(refund.chargeId)!;
        if (charge.method.behaviour === 'refund_fails_later') {
          refund.status = 'failed';
          refund.failure_reason = 'expired_or_canceled_card';
        } else refund.status = 'succeeded';
      }
    },
    setIntentStatus(intentId, status) {
      intents.get(intentId)!.status = status;
    },
    setSetupStatus(setupId, status) {
      setups.get(setupId)!.status = status;
    },
    setAccountMethods(types) {
      accountMethods = [...types];
    },
    intent: (intentId) => {
      const i = intents.get(intentId);
      return i && intentView(i);
    },
    intents: () => [...intents.values()].map((i) => intentView(i)),
    setupIntent: (setupId) => {
      const si = setups.get(setupId);
      return si && setupView(si);
    },
    customer: (customerId) => customers.get(customerId),
    paymentMethodCustomer: (methodId) => methods.get(methodId)?.customer,
    charge: (chargeId) => {
      const c = charges.get(chargeId);
      return c && chargeView(c);
    },
    refund: (refundId) => {
      const r = refunds.get(refundId);
      return r && refundView(r);
    },
    sign,
    event,
    failNext(count) {
      failures = count;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
      fake.requests.push({ method: req.method ?? '', path: (req.url ?? '').split('?')[0]!, ...(idempotencyKey ? { idempotencyKey } : {}) });
      const replayKey = idempotencyKey && req.method === 'POST' ? `${secretOf(req)}:${idempotencyKey}` : undefined;
      const fingerprint = createHash('sha256').update(`${req.url} ${body}`).digest('hex');
      const replay = replayKey ? idempotent.get(replayKey) : undefined;
      if (replay) {
        if (replay.fingerprint !== fingerprint)
          return error(res, 400, {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with.`,
          });
        res.writeHead(replay.status, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
        return void res.end(replay.body);
      }
      if (replayKey) {
        // Keep the first answer under the key, as Stripe does for 24 hours (5xx are not kept).
        const end = res.end.bind(res);
        res.end = ((chunk?: unknown) => {
          if (res.statusCode < 500) idempotent.set(replayKey, { fingerprint, status: res.statusCode, body: typeof chunk === 'string' ? chunk : '' });
          return end(chunk as string);
        }) as typeof res.end;
      }
      try {
        handle(req, res, body);
      } catch (err) {
        error(res, 500, { type: 'api_error', message: String(err) });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.url = url;
  return fake;
}

/** What Stripe.js does in the customer's browser: confirm the intent with the publishable key and client_secret. */
export async function browserConfirms(
  fake: Pick<FakeStripe, 'url' | 'publishableKey'>,
  intent: { providerPaymentId: string; clientKey: string },
  paymentMethod: string,
  returnUrl: string,
): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${fake.url}/v1/payment_intents/${intent.providerPaymentId}/confirm`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fake.publishableKey}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ payment_method: paymentMethod, client_secret: intent.clientKey, return_url: returnUrl }).toString(),
  });
  return { status: res.status, json: await res.json() };
}

/** What Stripe.js's confirmSetup does in the customer's browser: confirm the SetupIntent with the publishable key and client_secret. */
export async function browserConfirmsSetup(
  fake: Pick<FakeStripe, 'url' | 'publishableKey'>,
  setup: { setupId: string; clientSecret: string },
  paymentMethod: string,
  returnUrl: string,
): Promise<{ status: number; json: { status?: string; next_action?: { redirect_to_url?: { url: string } } | null } }> {
  const res = await fetch(`${fake.url}/v1/setup_intents/${setup.setupId}/confirm`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fake.publishableKey}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ payment_method: paymentMethod, client_secret: setup.clientSecret, return_url: returnUrl }).toString(),
  });
  const json = (await res.json()) as { status?: string; error?: { setup_intent?: { status?: string } } };
  return { status: res.status, json: json.error?.setup_intent ?? json };
}
