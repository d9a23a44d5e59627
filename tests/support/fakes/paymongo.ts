import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake of PayMongo's REST API (v1) on a real HTTP server (port 0), built from the documented
 * request and response shapes, for the connector's tests and the checkout's e2e:
 *   POST /v1/payment_intents                 secret key; amount in centavos, PHP, at least 2000
 *   GET  /v1/payment_intents/:id              secret key, or public key with ?client_key=
 *   POST /v1/payment_intents/:id/attach       public key with client_key (the browser), or secret key
 *   POST /v1/payment_methods                  public key (the browser): type card, details
 *   POST /v1/refunds, GET /v1/refunds/:id     secret key; refunds start `pending`
 *   POST /v1/checkout_sessions                secret key; the hosted page is /_test/checkout/:id
 * Every POST honours Idempotency-Key (the first answer is replayed). Resources are
 * `{ data: { id, type, attributes } }`, errors `{ errors: [{ code, detail }] }`.
 * The documented test cards: 4343 4343 4343 4345 succeeds, 4120 0000 0000 0007 asks for
 * 3-D Secure, 4200 0000 0000 0018 expired, 4300 0000 0000 0017 wrong CVC, 5100 0000 0000 0198
 * insufficient funds, 4111 1111 1111 1111 generic decline; and, in this fake only,
 * 5555 4444 4444 4457 succeeds but its refunds fail when they settle.
 * The 3-D Secure page is GET /_test/3ds/:intent?answer=approve|fail (then a redirect to the
 * return_url).
 * The other methods, as PayMongo documents them: payment methods of type qrph (expiry_seconds
 * 60–9000), gcash, paymaya, grab_pay, shopeepay, dob (bank_code bpi|ubp), brankas (bdo|landbank|
 * metrobank) and billease, attached only to an intent whose payment_method_allowed names the type.
 * A redirect method's attach needs a return_url and answers next_action `redirect` to the
 * authorisation page GET /_test/authorize/:intent?answer=authorize|decline|cancel; a QR Ph attach
 * answers next_action `consume_qr` with the code as an image and no expiry. `scanQr` pays or fails
 * a code (never a real one); `expireQr` passes its life (qrph.expired, no payment.failed);
 * `expireAuthorisation` passes a wallet's window. A failed non-card payment leaves no
 * last_payment_error on the intent, only a failed payment. QR Ph and UnionBank payments refuse refunds. `settle()` finishes pending refunds; webhooks (signed like PayMongo's) go to
 * `webhookUrl` when set.
 */
interface Card {
  behaviour: 'succeeds' | 'three_d_secure' | 'refund_fails_later' | { decline: string };
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

const behaviours: Record<string, Card['behaviour']> = {
  '4343434343434345': 'succeeds',
  '4571736000000075': 'succeeds',
  '5123000000000002': 'succeeds',
  '4120000000000007': 'three_d_secure',
  '4200000000000018': { decline: 'card_expired' },
  '4300000000000017': { decline: 'cvc_invalid' },
  '5100000000000198': { decline: 'insufficient_funds' },
  '4111111111111111': { decline: 'generic_decline' },
  '5555444444444457': 'refund_fails_later',
};

/** A non-card payment method (PayMongo: created with the type; banks by code). */
interface LocalMethod {
  type: string;
  bank?: string;
  expirySeconds?: number;
}

const localTypes = ['qrph', 'gcash', 'paymaya', 'grab_pay', 'shopeepay', 'dob', 'brankas', 'billease'];
const bankCodes: Record<string, string[]> = { dob: ['bpi', 'ubp'], brankas: ['bdo', 'landbank', 'metrobank'] };

interface Intent {
  id: string;
  /** payment_method_allowed as created. */
  allowed: string[];
  /** The non-card method attached and waiting (redirect or QR). */
  local?: LocalMethod;
  updated_at: number;
  amount: number;
  currency: string;
  description: string | null;
  status: string;
  client_key: string;
  metadata: Record<string, unknown>;
  last_payment_error: Record<string, unknown> | null;
  next_action: Record<string, unknown> | null;
  paymentIds: string[];
  pendingMethod?: string;
  returnUrl?: string;
  /** After 3-D Secure: answer `processing` once before settling, as PayMongo may. */
  processingOnce?: boolean;
  created_at: number;
}

interface Payment {
  id: string;
  intentId: string;
  amount: number;
  currency: string;
  status: 'paid' | 'failed';
  card?: Card;
  local?: LocalMethod;
  failed_code: string | null;
  refunded: number;
  created_at: number;
}

interface Refund {
  id: string;
  paymentId: string;
  amount: number;
  status: string;
  reason: string;
  created_at: number;
}

export interface FakePaymongo {
  url: string;
  secretKey: string;
  publicKey: string;
  webhookSecret: string;
  /** Where signed events are POSTed (the per-integrator endpoint), when set. */
  webhookUrl?: string;
  /** The event types the webhook is subscribed to (PayMongo sends only those); unset: every type. */
  subscribedEvents?: ReadonlySet<string>;
  /** Requests received, method and path (no bodies: they may hold card data). */
  requests: Array<{ method: string; path: string; idempotencyKey?: string }>;
  /** The `expiry_seconds` of each QR Ph payment method created, in order (undefined: none sent, PayMongo's 30 minutes). */
  qrExpirySeconds: Array<number | undefined>;
  /** Pending refunds settle: succeeded, or failed for the refund-fails-later card. */
  settle(): Promise<void>;
  /** Makes an intent report a status paylink has never seen. */
  setIntentStatus(id: string, status: string): void;
  /** Signs an event body as PayMongo does (`t.body`, HMAC-SHA256 with the webhook secret). */
  sign(rawBody: string, t?: number): string;
  /** A signed event about a resource (a payment or refund attributes object). */
  event(
    type: string,
    data: { id: string; type: string; attributes: Record<string, unknown> },
    opts?: { eventId?: string },
  ): { rawBody: string; headers: Headers };
  paymentResource(id: string): { id: string; type: 'payment'; attributes: Record<string, unknown> } | undefined;
  /** The customer scans the intent's QR Ph code with their app: paid, or the payment fails. */
  scanQr(intentId: string, outcome: 'pay' | 'fail'): Promise<void>;
  /** The intent's QR Ph code passes its life unpaid: qrph.expired (naming the intent), no payment.failed. */
  expireQr(intentId: string): Promise<void>;
  /** A wallet's, bank's or lender's authorisation window passes: the intent waits for a payment method again, no event. */
  expireAuthorisation(intentId: string): void;
  /** The payment_method_types a checkout session was created with, by its intent. */
  checkoutSessionTypes(intentId: string): string[] | undefined;
  /** Answers the next requests with 503 (count). */
  failNext(count: number): void;
  /** Refuses the next payment intent creation with HTTP 400 and this error code, as PayMongo refuses a field it finds wrong. */
  refuseNextIntent(code: string, detail: string): void;
  /** Refuses the next checkout session creation with HTTP 400 and this error code. */
  refuseNextCheckoutSession(code: string, detail: string): void;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

export async function startFakePaymongo(keys: { secretKey?: string; publicKey?: string; webhookSecret?: string } = {}): Promise<FakePaymongo> {
  const secretKey = keys.secretKey ?? `sk_test_${randomBytes(12).toString('hex')}`;
  const publicKey = keys.publicKey ?? `pk_test_${randomBytes(12).toString('hex')}`;
  const webhookSecret = keys.webhookSecret ?? `whsk_${randomBytes(12).toString('hex')}`;
  const intents = new Map<string, Intent>();
  const methods = new Map<string, Card>();
  const payments = new Map<string, Payment>();
  const refunds = new Map<string, Refund>();
  const idempotent = new Map<string, { status: number; body: string }>();
  const checkoutSessions = new Map<string, { id: string; intentId: string; successUrl: string; cancelUrl: string; name: string; types: string[] }>();
  const localMethods = new Map<string, LocalMethod>();
  let failures = 0;
  let refusal: { code: string; detail: string } | undefined;
  let sessionRefusal: { code: string; detail: string } | undefined;
  let url = '';

  const paymentView = (p: Payment) => ({
    id: p.id,
    type: 'payment' as const,
    attributes: {
      amount: p.amount,
      currency: p.currency,
      status: p.status,
      payment_intent_id: p.intentId,
      source: p.card
        ? { id: 'card', type: 'card', brand: p.card.brand, last4: p.card.last4 }
        : { id: `src_${p.id.slice(4)}`, type: p.local!.type, ...(p.local!.bank ? { bank_code: p.local!.bank } : {}) },
      failed_code: p.failed_code,
      failed_message: p.failed_code ? (p.card ? 'The card was declined.' : 'The payment was not completed.') : null,
      refunds: [...refunds.values()].filter((r) => r.paymentId === p.id).map((r) => refundView(r)),
      livemode: false,
      created_at: p.created_at,
      updated_at: nowSeconds(),
    },
  });
  const refundView = (r: Refund) => ({
    id: r.id,
    type: 'refund' as const,
    attributes: { amount: r.amount, currency: 'PHP', payment_id: r.paymentId, reason: r.reason, status: r.status, livemode: false, created_at: r.created_at },
  });
  const intentView = (i: Intent) => ({
    id: i.id,
    type: 'payment_intent' as const,
    attributes: {
      amount: i.amount,
      currency: i.currency,
      description: i.description,
      statement_descriptor: 'PAYLINK TEST',
      status: i.status,
      livemode: false,
      client_key: i.client_key,
      capture_type: 'automatic',
      payment_method_allowed: i.allowed,
      last_payment_error: i.last_payment_error,
      next_action: i.next_action,
      payments: i.paymentIds.map((pid) => paymentView(payments.get(pid)!)),
      metadata: i.metadata,
      created_at: i.created_at,
      updated_at: i.updated_at,
    },
  });

  const sign = (rawBody: string, t = nowSeconds()) => {
    const sig = createHmac('sha256', webhookSecret).update(`${t}.${rawBody}`).digest('hex');
    return `t=${t},te=${sig},li=`;
  };
  const event = (type: string, data: { id: string; type: string; attributes: Record<string, unknown> }, opts: { eventId?: string } = {}) => {
    const rawBody = JSON.stringify({
      data: {
        id: opts.eventId ?? id('evt'),
        type: 'event',
        attributes: { type, livemode: false, data, previous_data: {}, created_at: nowSeconds(), updated_at: nowSeconds() },
      },
    });
    return { rawBody, headers: new Headers({ 'content-type': 'application/json', 'paymongo-signature': sign(rawBody) }) };
  };
  const deliver = async (type: string, data: { id: string; type: string; attributes: Record<string, unknown> }) => {
    if (!fake.webhookUrl || (fake.subscribedEvents && !fake.subscribedEvents.has(type))) return;
    const { rawBody, headers } = event(type, data);
    try {
      await fetch(fake.webhookUrl, { method: 'POST', headers, body: rawBody, signal: AbortSignal.timeout(5000) });
    } catch {
      // PayMongo would retry; paylink's reconciliation covers a delivery that never arrives.
    }
  };

  /** Charges the intent with the card: a payment resource, paid or failed. */
  const charge = (intent: Intent, card: Card) => {
    const decline = typeof card.behaviour === 'object' ? card.behaviour.decline : null;
    const payment: Payment = {
      id: id('pay'),
      intentId: intent.id,
      amount: intent.amount,
      currency: intent.currency,
      status: decline ? 'failed' : 'paid',
      card,
      failed_code: decline,
      refunded: 0,
      created_at: nowSeconds(),
    };
    payments.set(payment.id, payment);
    intent.paymentIds.push(payment.id);
    if (decline) {
      intent.status = 'awaiting_payment_method';
      intent.last_payment_error = { failed_code: decline, failed_message: 'The card was declined.', payment_method: intent.pendingMethod };
    } else {
      intent.status = 'succeeded';
      intent.last_payment_error = null;
    }
    intent.next_action = null;
    void deliver(decline ? 'payment.failed' : 'payment.paid', paymentView(payment));
  };

  /** A non-card method's outcome: a paid or failed payment (no last_payment_error for these), or none (the window passed). */
  const settleLocal = async (intent: Intent, outcome: 'paid' | 'failed' | 'none') => {
    const local = intent.local!;
    intent.next_action = null;
    intent.local = undefined;
    intent.updated_at = nowSeconds();
    intent.last_payment_error = null;
    if (outcome === 'none') {
      intent.status = 'awaiting_payment_method';
      return;
    }
    const payment: Payment = {
      id: id('pay'),
      intentId: intent.id,
      amount: intent.amount,
      currency: intent.currency,
      status: outcome,
      local,
      failed_code: outcome === 'failed' ? 'payment_failed' : null,
      refunded: 0,
      created_at: nowSeconds(),
    };
    payments.set(payment.id, payment);
    intent.paymentIds.push(payment.id);
    intent.status = outcome === 'paid' ? 'succeeded' : 'awaiting_payment_method';
    await deliver(outcome === 'paid' ? 'payment.paid' : 'payment.failed', paymentView(payment));
  };

  const errors = (res: ServerResponse, status: number, code: string, detail: string) => send(res, status, { errors: [{ code, detail }] });
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const keyOf = (req: IncomingMessage) => {
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith('Basic ')) return undefined;
    return Buffer.from(auth.slice(6), 'base64').toString('utf8').replace(/:$/, '');
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, body: string) => {
    const u = new URL(req.url ?? '/', 'http://fake');
    const path = u.pathname;
    // CORS: the browser calls payment_methods and attach directly, as it would PayMongo.
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-allow-headers', 'authorization, content-type, idempotency-key');
    res.setHeader('access-control-allow-methods', 'GET, POST');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();

    // A wallet's, bank's or lender's authorisation page (test): authorise, decline, or cancel and go back.
    const authorize = path.match(/^\/_test\/authorize\/(pi_[a-f0-9]+)$/);
    if (authorize && req.method === 'GET') {
      const intent = intents.get(authorize[1]!);
      if (intent?.status !== 'awaiting_next_action' || !intent.local) return errors(res, 404, 'resource_not_found', 'No intent waits for authorisation.');
      const answer = u.searchParams.get('answer');
      if (answer !== 'authorize' && answer !== 'decline' && answer !== 'cancel') {
        res.writeHead(200, { 'content-type': 'text/html' });
        return void res.end(
          `<!doctype html><title>Authorise (test)</title><h1>${intent.local.type} test page</h1><a id="authorize" href="?answer=authorize">Authorize</a> <a id="decline" href="?answer=decline">Decline</a> <a id="cancel" href="?answer=cancel">Cancel</a>`,
        );
      }
      const back = intent.returnUrl ?? '/';
      await settleLocal(intent, answer === 'authorize' ? 'paid' : answer === 'decline' ? 'failed' : 'none');
      res.writeHead(302, { location: back });
      return void res.end();
    }

    const threeDs = path.match(/^\/_test\/3ds\/(pi_[a-f0-9]+)$/);
    if (threeDs && req.method === 'GET') {
      const intent = intents.get(threeDs[1]!);
      if (intent?.status !== 'awaiting_next_action') return errors(res, 404, 'resource_not_found', 'No intent waits for authentication.');
      const answer = u.searchParams.get('answer');
      if (answer !== 'approve' && answer !== 'fail') {
        res.writeHead(200, { 'content-type': 'text/html' });
        return void res.end(
          `<!doctype html><title>3-D Secure (test)</title><h1>3-D Secure test page</h1><a id="approve" href="?answer=approve">Authorize</a> <a id="fail" href="?answer=fail">Fail</a>`,
        );
      }
      const card = methods.get(intent.pendingMethod!)!;
      if (answer === 'approve') {
        charge(intent, card);
        intent.processingOnce = true;
      } else charge(intent, { ...card, behaviour: { decline: 'generic_decline' } });
      res.writeHead(302, { location: intent.returnUrl ?? '/' });
      return void res.end();
    }

    // The hosted checkout page (checkout_sessions): the card is typed here, on "PayMongo".
    const hostedPage = path.match(/^\/_test\/checkout\/(cs_[a-f0-9]+)$/);
    if (hostedPage) {
      const cs = checkoutSessions.get(hostedPage[1]!);
      const intent = cs && intents.get(cs.intentId);
      if (!cs || !intent) return errors(res, 404, 'resource_not_found', 'No such checkout session.');
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/html' });
        return void res.end(
          `<!doctype html><html lang="en"><title>PayMongo checkout (test)</title><main><h1>PayMongo checkout (test)</h1><p>${cs.name}: PHP ${(intent.amount / 100).toFixed(2)}</p><form method="post"><label for="n">Card number</label><input id="n" name="card_number"><button>Pay now</button></form></main></html>`,
        );
      }
      const number = new URLSearchParams(body).get('card_number')?.replace(/\D/g, '') ?? '';
      const behaviour = behaviours[number] ?? 'succeeds';
      charge(intent, {
        behaviour: behaviour === 'three_d_secure' ? 'succeeds' : behaviour,
        brand: number.startsWith('5') ? 'mastercard' : 'visa',
        last4: number.slice(-4),
        expMonth: 12,
        expYear: 2040,
      });
      if (intent.status === 'succeeded') {
        await deliver('checkout_session.payment.paid', {
          id: cs.id,
          type: 'checkout_session',
          attributes: {
            checkout_url: `${url}/_test/checkout/${cs.id}`,
            status: 'active',
            payment_intent: intentView(intent),
            payments: intent.paymentIds.map((pid) => paymentView(payments.get(pid)!)),
            livemode: false,
          },
        });
      }
      res.writeHead(302, { location: intent.status === 'succeeded' ? cs.successUrl : cs.cancelUrl });
      return void res.end();
    }

    if (failures > 0) {
      failures--;
      return errors(res, 503, 'service_unavailable', 'Try again later.');
    }
    const key = keyOf(req);
    const isSecret = key === secretKey;
    const isPublic = key === publicKey;
    if (!isSecret && !isPublic) return errors(res, 401, 'unauthorized', 'The API key is not valid.');
    let json: { data?: { attributes?: Record<string, unknown> } } = {};
    if (req.method === 'POST') {
      try {
        json = JSON.parse(body || '{}');
      } catch {
        return errors(res, 400, 'parameter_invalid', 'The body is not JSON.');
      }
    }
    const attrs = json.data?.attributes ?? {};

    if (req.method === 'POST' && path === '/v1/payment_intents') {
      if (!isSecret) return errors(res, 401, 'unauthorized', 'Use the secret key.');
      if (refusal) {
        const { code, detail } = refusal;
        refusal = undefined;
        return errors(res, 400, code, detail);
      }
      const amount = attrs.amount;
      if (typeof amount !== 'number' || !Number.isInteger(amount)) return errors(res, 400, 'parameter_invalid', 'amount must be an integer.');
      if (amount < 2000) return errors(res, 400, 'parameter_below_minimum', 'amount cannot be less than 2000.');
      if (attrs.currency !== 'PHP') return errors(res, 400, 'parameter_invalid', 'currency must be PHP.');
      const allowed = attrs.payment_method_allowed;
      if (!Array.isArray(allowed) || allowed.length === 0 || !allowed.every((t) => t === 'card' || localTypes.includes(String(t))))
        return errors(res, 400, 'parameter_invalid', 'payment_method_allowed must list known payment method types.');
      if (allowed.includes('billease') && amount < 10_000) return errors(res, 400, 'parameter_below_minimum', 'BillEase needs at least 10000.');
      const intentId = id('pi');
      const intent: Intent = {
        id: intentId,
        amount,
        currency: 'PHP',
        description: typeof attrs.description === 'string' ? attrs.description : null,
        status: 'awaiting_payment_method',
        client_key: `${intentId}_client_${randomBytes(12).toString('hex')}`,
        metadata: (attrs.metadata as Record<string, unknown>) ?? {},
        last_payment_error: null,
        next_action: null,
        paymentIds: [],
        created_at: nowSeconds(),
        allowed: allowed.map(String),
        updated_at: nowSeconds(),
      };
      intents.set(intentId, intent);
      return send(res, 200, { data: intentView(intent) });
    }

    if (req.method === 'POST' && path === '/v1/checkout_sessions') {
      if (!isSecret) return errors(res, 401, 'unauthorized', 'Use the secret key.');
      if (sessionRefusal) {
        const { code, detail } = sessionRefusal;
        sessionRefusal = undefined;
        return errors(res, 400, code, detail);
      }
      const items = attrs.line_items as Array<{ amount: number; currency: string; name: string; quantity: number }> | undefined;
      const item = items?.[0];
      if (!item || !Number.isInteger(item.amount) || item.amount < 2000) return errors(res, 400, 'parameter_below_minimum', 'amount cannot be less than 2000.');
      if (typeof attrs.success_url !== 'string' || typeof attrs.cancel_url !== 'string')
        return errors(res, 400, 'parameter_required', 'success_url and cancel_url are required.');
      const intentId = id('pi');
      const intent: Intent = {
        id: intentId,
        amount: item.amount * (item.quantity ?? 1),
        currency: 'PHP',
        description: typeof attrs.description === 'string' ? attrs.description : null,
        status: 'awaiting_payment_method',
        client_key: `${intentId}_client_${randomBytes(12).toString('hex')}`,
        metadata: {},
        last_payment_error: null,
        next_action: null,
        paymentIds: [],
        created_at: nowSeconds(),
        allowed: ['card'],
        updated_at: nowSeconds(),
      };
      intents.set(intentId, intent);
      const types = attrs.payment_method_types;
      const checkoutSpellings = [
        'card',
        'qrph',
        'gcash',
        'paymaya',
        'grab_pay',
        'shopee_pay',
        'dob',
        'dob_ubp',
        'brankas_bdo',
        'brankas_landbank',
        'brankas_metrobank',
        'billease',
      ];
      if (!Array.isArray(types) || types.length === 0 || !types.every((t) => checkoutSpellings.includes(String(t))))
        return errors(res, 400, 'parameter_invalid', 'payment_method_types must list Checkout Session payment method types.');
      const cs = { id: id('cs'), intentId, successUrl: attrs.success_url, cancelUrl: attrs.cancel_url, name: item.name, types: types.map(String) };
      checkoutSessions.set(cs.id, cs);
      return send(res, 200, {
        data: {
          id: cs.id,
          type: 'checkout_session',
          attributes: {
            checkout_url: `${url}/_test/checkout/${cs.id}`,
            status: 'active',
            line_items: items,
            payment_intent: intentView(intent),
            payment_method_types: cs.types,
            reference_number: attrs.reference_number,
          },
        },
      });
    }

    const intentPath = path.match(/^\/v1\/payment_intents\/(pi_[a-f0-9]+)(\/attach)?$/);
    if (intentPath) {
      const intent = intents.get(intentPath[1]!);
      if (!intent) return errors(res, 404, 'resource_not_found', 'No such payment intent.');
      if (req.method === 'GET' && !intentPath[2]) {
        if (!isSecret && u.searchParams.get('client_key') !== intent.client_key) return errors(res, 401, 'unauthorized', 'client_key does not match.');
        if (intent.processingOnce) {
          intent.processingOnce = false;
          return send(res, 200, { data: { ...intentView(intent), attributes: { ...intentView(intent).attributes, status: 'processing', payments: [] } } });
        }
        return send(res, 200, { data: intentView(intent) });
      }
      if (req.method === 'POST' && intentPath[2]) {
        if (!isSecret && attrs.client_key !== intent.client_key) return errors(res, 400, 'parameter_invalid', 'client_key does not match.');
        if (intent.status !== 'awaiting_payment_method') return errors(res, 400, 'payment_intent_not_attachable', `The intent is ${intent.status}.`);
        const local = localMethods.get(String(attrs.payment_method));
        if (local) {
          if (!intent.allowed.includes(local.type))
            return errors(res, 400, 'payment_method_not_allowed', `${local.type} is not in the intent's payment_method_allowed.`);
          const returnUrl = typeof attrs.return_url === 'string' ? attrs.return_url : undefined;
          if (local.type !== 'qrph' && !returnUrl) return errors(res, 400, 'parameter_required', 'return_url is required for this payment method.');
          intent.returnUrl = returnUrl;
          intent.local = local;
          intent.status = 'awaiting_next_action';
          intent.updated_at = nowSeconds();
          intent.next_action =
            local.type === 'qrph'
              ? {
                  type: 'consume_qr',
                  code: {
                    id: id('code'),
                    amount: intent.amount,
                    label: 'QR Ph (test)',
                    image_url: `data:image/png;base64,${Buffer.from(`TEST-QRPH:${intent.id}:${randomBytes(4).toString('hex')}`).toString('base64')}`,
                  },
                }
              : { type: 'redirect', redirect: { url: `${url}/_test/authorize/${intent.id}`, return_url: returnUrl } };
          return send(res, 200, { data: intentView(intent) });
        }
        if (!intent.allowed.includes('card')) return errors(res, 400, 'payment_method_not_allowed', "card is not in the intent's payment_method_allowed.");
        const card = methods.get(String(attrs.payment_method));
        if (!card) return errors(res, 400, 'resource_not_found', 'No such payment method.');
        intent.pendingMethod = String(attrs.payment_method);
        intent.returnUrl = typeof attrs.return_url === 'string' ? attrs.return_url : undefined;
        if (card.behaviour === 'three_d_secure') {
          intent.status = 'awaiting_next_action';
          intent.next_action = { type: 'redirect', redirect: { url: `${url}/_test/3ds/${intent.id}`, return_url: intent.returnUrl } };
        } else charge(intent, card);
        return send(res, 200, { data: intentView(intent) });
      }
    }

    if (req.method === 'POST' && path === '/v1/payment_methods' && localTypes.includes(String(attrs.type))) {
      const type = String(attrs.type);
      const details = (attrs.details ?? {}) as Record<string, unknown>;
      const bank = typeof details.bank_code === 'string' ? details.bank_code : undefined;
      if (bankCodes[type] && !bankCodes[type]!.includes(bank ?? ''))
        return errors(res, 400, 'parameter_invalid', `details.bank_code must be one of ${bankCodes[type]!.join(', ')}.`);
      const expiry = attrs.expiry_seconds;
      if (expiry !== undefined && (type !== 'qrph' || typeof expiry !== 'number' || expiry < 60 || expiry > 9000))
        return errors(res, 400, 'parameter_invalid', 'expiry_seconds must be 60 to 9000, for qrph only.');
      const billing = (attrs.billing ?? {}) as Record<string, unknown>;
      if (type === 'billease' && (!billing.email || !billing.phone)) return errors(res, 400, 'parameter_required', 'billing email and phone are required.');
      const pmId = id('pm');
      if (type === 'qrph') fake.qrExpirySeconds.push(typeof expiry === 'number' ? expiry : undefined);
      localMethods.set(pmId, { type, ...(bank ? { bank } : {}), ...(typeof expiry === 'number' ? { expirySeconds: expiry } : {}) });
      return send(res, 200, { data: { id: pmId, type: 'payment_method', attributes: { type, details: bank ? { bank_code: bank } : {}, livemode: false } } });
    }
    if (req.method === 'POST' && path === '/v1/payment_methods') {
      if (attrs.type !== 'card') return errors(res, 400, 'parameter_invalid', 'type must be card.');
      const details = (attrs.details ?? {}) as Record<string, unknown>;
      const number = String(details.card_number ?? '').replace(/\D/g, '');
      const expMonth = Number(details.exp_month);
      const expYear = Number(details.exp_year);
      if (number.length < 12 || !(expMonth >= 1 && expMonth <= 12) || !(expYear >= 2000))
        return errors(res, 400, 'parameter_invalid', 'The card details are not valid.');
      const behaviour = behaviours[number] ?? 'succeeds';
      const pmId = id('pm');
      methods.set(pmId, { behaviour, brand: number.startsWith('5') ? 'mastercard' : 'visa', last4: number.slice(-4), expMonth, expYear });
      return send(res, 200, {
        data: {
          id: pmId,
          type: 'payment_method',
          attributes: { type: 'card', details: { last4: number.slice(-4), exp_month: expMonth, exp_year: expYear }, livemode: false },
        },
      });
    }

    if (req.method === 'POST' && path === '/v1/refunds') {
      if (!isSecret) return errors(res, 401, 'unauthorized', 'Use the secret key.');
      const payment = payments.get(String(attrs.payment_id));
      if (payment?.status !== 'paid') return errors(res, 400, 'resource_not_found', 'No paid payment with that id.');
      if (payment.local?.type === 'qrph' || payment.local?.bank === 'ubp')
        return errors(res, 400, 'refund_not_allowed', 'Payments by this method cannot be refunded.');
      const amount = attrs.amount;
      if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 1)
        return errors(res, 400, 'parameter_invalid', 'amount must be a positive integer.');
      const held = [...refunds.values()].filter((r) => r.paymentId === payment.id && r.status !== 'failed').reduce((sum, r) => sum + r.amount, 0);
      if (held + amount > payment.amount) return errors(res, 400, 'allowed_amount_exceeded', 'The refund exceeds what remains of the payment.');
      const refund: Refund = {
        id: id('ref'),
        paymentId: payment.id,
        amount,
        status: 'pending',
        reason: String(attrs.reason ?? 'others'),
        created_at: nowSeconds(),
      };
      refunds.set(refund.id, refund);
      return send(res, 200, { data: refundView(refund) });
    }
    const refundPath = path.match(/^\/v1\/refunds\/(ref_[a-f0-9]+)$/);
    if (req.method === 'GET' && refundPath) {
      if (!isSecret) return errors(res, 401, 'unauthorized', 'Use the secret key.');
      const refund = refunds.get(refundPath[1]!);
      if (!refund) return errors(res, 404, 'resource_not_found', 'No such refund.');
      return send(res, 200, { data: refundView(refund) });
    }
    return errors(res, 404, 'resource_not_found', `No route ${req.method} ${path}.`);
  };

  const fake: FakePaymongo = {
    url: '',
    secretKey,
    publicKey,
    webhookSecret,
    requests: [],
    qrExpirySeconds: [],
    async settle() {
      for (const refund of refunds.values()) {
        if (refund.status !== 'pending') continue;
        const payment = payments.get(refund.paymentId)!;
        refund.status = payment.card?.behaviour === 'refund_fails_later' ? 'failed' : 'succeeded';
        await deliver('payment.refund.updated', refundView(refund));
        // The payment with all its refunds, once one of them succeeded.
        if (refund.status === 'succeeded') await deliver('payment.refunded', paymentView(payment));
      }
    },
    setIntentStatus(intentId, status) {
      intents.get(intentId)!.status = status;
    },
    sign,
    event,
    paymentResource: (pid) => {
      const p = payments.get(pid);
      return p && paymentView(p);
    },
    async scanQr(intentId, outcome) {
      const intent = intents.get(intentId);
      if (intent?.local?.type !== 'qrph' || intent.status !== 'awaiting_next_action') throw new Error('no QR Ph code waits on this intent');
      await settleLocal(intent, outcome === 'pay' ? 'paid' : 'failed');
    },
    async expireQr(intentId) {
      const intent = intents.get(intentId);
      if (intent?.local?.type !== 'qrph' || intent.status !== 'awaiting_next_action') throw new Error('no QR Ph code waits on this intent');
      await settleLocal(intent, 'none');
      await deliver('qrph.expired', { id: intent.id, type: 'payment_intent', attributes: { status: intent.status, livemode: false } });
    },
    expireAuthorisation(intentId) {
      const intent = intents.get(intentId);
      if (!intent?.local || intent.status !== 'awaiting_next_action') throw new Error('no authorisation waits on this intent');
      void settleLocal(intent, 'none');
    },
    checkoutSessionTypes: (intentId) => [...checkoutSessions.values()].find((cs) => cs.intentId === intentId)?.types,
    failNext(count) {
      failures = count;
    },
    refuseNextIntent(code, detail) {
      refusal = { code, detail };
    },
    refuseNextCheckoutSession(code, detail) {
      sessionRefusal = { code, detail };
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
      const replayKey = idempotencyKey && req.method === 'POST' ? `${keyOf(req)}:${req.url}:${idempotencyKey}` : undefined;
      const replay = replayKey ? idempotent.get(replayKey) : undefined;
      if (replay) {
        res.writeHead(replay.status, { 'content-type': 'application/json' });
        return void res.end(replay.body);
      }
      if (replayKey) {
        // Keep the first answer under the key, as PayMongo does for 24 hours (5xx are not kept).
        const end = res.end.bind(res);
        const chunksOut: string[] = [];
        res.end = ((chunk?: unknown) => {
          if (typeof chunk === 'string') chunksOut.push(chunk);
          if (res.statusCode < 500) idempotent.set(replayKey, { status: res.statusCode, body: chunksOut.join('') });
          return end(chunk as string);
        }) as typeof res.end;
      }
      handle(req, res, body).catch((error: unknown) => errors(res, 500, 'server_error', String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.url = url;
  return fake;
}

/** What the browser does with PayMongo's public key: create the PaymentMethod, attach it to the intent. */
export async function browserPays(
  fake: Pick<FakePaymongo, 'url' | 'publicKey'>,
  intent: { providerPaymentId: string; clientKey: string },
  card: { number: string; expMonth: number; expYear: number; cvc: string },
  returnUrl: string,
): Promise<unknown> {
  const auth = `Basic ${Buffer.from(`${fake.publicKey}:`).toString('base64')}`;
  const pm = await fetch(`${fake.url}/v1/payment_methods`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      data: { attributes: { type: 'card', details: { card_number: card.number, exp_month: card.expMonth, exp_year: card.expYear, cvc: card.cvc } } },
    }),
  });
  const method = (await pm.json()) as { data: { id: string } };
  const attached = await fetch(`${fake.url}/v1/payment_intents/${intent.providerPaymentId}/attach`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify({ data: { attributes: { payment_method: method.data.id, client_key: intent.clientKey, return_url: returnUrl } } }),
  });
  return attached.json();
}
