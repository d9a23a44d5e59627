import { createHash } from 'node:crypto';
import { onlineBankNames, type PaymentMethod, paymentMethodNames } from '../schemas/payment-method.ts';
import type { CardInput, CardSummary, ChargeResult, DeclineCode, RefundResult, VerifyResult } from './acquirer.ts';

/**
 * A connector is paylink's side of one acquirer (the sandbox, PayMongo, Stripe). Every integrator
 * takes payments through exactly one connector (src/acquirer/registry.ts resolves it); the domain
 * talks to the connector only through this interface, so a new acquirer is one new file and the
 * conformance suite (tests/integration/connectors/) tells whether it behaves.
 *
 * The rules every connector keeps:
 * - Every call that can move money carries an idempotency key; the same key always returns the
 *   first outcome (the provider's own Idempotency-Key header, or the sandbox's records).
 * - A provider status the connector does not know maps to `processing`: never to success, and
 *   never to a final failure. `syncPayment`/`syncRefund` or a later webhook settles it.
 * - A thrown error means "no answer": the caller cannot know whether money moved, so it keeps the
 *   operation open and retries it under the same key. A business outcome is a returned value.
 * - Amounts are integer minor units (bigint) with an ISO 4217 currency, as in the rest of paylink.
 */

/** How scheduled (off-session) charges of a saved card are possible with this acquirer. */
export type OffSessionCharges =
  /** paylink charges a saved card itself whenever a schedule is due. */
  | 'native'
  /** Only through the provider's own subscriptions product (PayMongo cards). */
  | 'provider_subscriptions'
  | 'none';

/** Where the customer's card number goes when they type it. */
export type CardCollection =
  /** To paylink's server, which hands it to the acquirer's vault (the sandbox only). */
  | 'server_vault'
  /** From the browser straight to PayMongo with the public key (a PaymentMethod), then attached to the intent. */
  | 'paymongo_client'
  /** Into Stripe's Payment Element (an iframe): paylink's page never sees it. */
  | 'stripe_element';

/** A card brand as paylink names it (src/schemas/card-rules.ts). */
export type AcceptedBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'jcb' | 'diners' | 'unionpay';

export interface CurrencySupport {
  currency: string;
  /** The smallest amount the provider accepts, in minor units (PayMongo: PHP 20.00 = 2000). */
  minimumMinor: bigint;
}

/** How the acquirer refunds payments made by one method. */
export interface MethodRefunds {
  /** false: the acquirer cannot refund this method at all (PayMongo: QR Ph, UnionBank online banking). */
  refundable: boolean;
  /** Refunds of part of a payment. */
  partial: boolean;
  /** Days after the payment during which the acquirer still refunds it; null: no limit of its own. */
  windowDays: number | null;
  /** Banks (by bank code) whose payments by this method the acquirer cannot refund though the method can be (PayMongo: UnionBank online banking). */
  unrefundableBanks?: readonly string[];
}

/**
 * One way of paying the acquirer takes, with its own rules. Payment methods are data the connector
 * declares: the payment page offers them, links are checked against them, refunds follow them.
 */
export interface MethodSupport {
  method: PaymentMethod;
  refunds: MethodRefunds;
  /** The smallest and largest payment by this method, in minor units of the acquirer's currency (PHP for PayMongo's local methods). */
  minimumMinor?: bigint;
  maximumMinor?: bigint;
  /** What the acquirer needs from the customer for this method beyond the amount (BillEase, some banks: e-mail and phone). */
  requires: readonly ('name' | 'email' | 'phone')[];
  /** The banks the customer picks from (online banking), by bank code (src/schemas/payment-method.ts `onlineBanks`). */
  banks?: readonly string[];
  /**
   * How long the customer has to complete the method once started, in seconds: a QR code's life
   * (PayMongo's default 1800), an authorisation page's window. Absent: the acquirer does not say.
   */
  actionWindowSeconds?: number;
  /** The currencies this method takes (PayMongo's local methods: PHP); absent: every currency the connector takes. */
  currencies?: readonly string[];
}

export interface ConnectorCapabilities {
  offSession: OffSessionCharges;
  cardCollection: CardCollection;
  /** The methods the acquirer takes, `card` included where it takes cards, each with its refund rules and limits. */
  methods: readonly MethodSupport[];
  /** The currencies the acquirer takes, each with its minimum; 'any': every ISO 4217 card currency, no minimum. */
  currencies: 'any' | readonly CurrencySupport[];
  /** A refund may answer `pending` and settle later (by webhook or sync), and may still fail then. */
  asyncRefunds: boolean;
  /** The card brands the acquirer takes: the payment and registration pages show these (AcceptedCards). */
  cardBrands: readonly AcceptedBrand[];
  /** The provider signs webhooks that `parseWebhook` verifies. */
  webhooks: boolean;
  /** The provider offers a fully hosted payment page (PayMongo checkout_sessions). */
  hostedCheckout: boolean;
  /**
   * What only a test acquirer may do: charge a schedule's next occurrence on request
   * (POST /schedules/{reference}/run, like a test clock). Real connectors leave it false.
   */
  runSchedulesNow: boolean;
}

/** The payment as the provider sees it; `providerPaymentId` is what sync and webhooks name it by. */
export type PaymentState =
  /** Money moved. `chargeId` is what refunds are made against (PayMongo: the pay_… id). */
  | ({ status: 'succeeded'; providerPaymentId: string; chargeId: string; method?: PaymentMethod } & Partial<CardSummary>)
  /** Waiting for the browser to give a card (PayMongo: attach with `clientKey`; Stripe: the Element). */
  | { status: 'requires_payment_method'; providerPaymentId: string; clientKey?: string }
  /** 3-D Secure (or another customer step): send the customer to `redirectUrl`; they come back to the return URL. */
  | { status: 'requires_action'; providerPaymentId: string; redirectUrl: string }
  /** A QR code (QR Ph) waiting to be scanned and paid until `expiresAt`; each code is single use. */
  | { status: 'awaiting_scan'; providerPaymentId: string; qr: { content: string; expiresAt: Date } }
  /** Not final: ask again shortly (sync) or wait for the webhook. Also every status we do not know. */
  | { status: 'processing'; providerPaymentId: string }
  /** Final refusal of this attempt. A PayMongo intent may take another card afterwards: a new attempt. */
  | ({
      status: 'declined';
      providerPaymentId?: string;
      method?: PaymentMethod;
      code: DeclineCode;
      message: string;
      /** Off-session only: the bank wants the customer present (Stripe's authentication_required); bring them back to pay. */
      customerAction?: 'authenticate';
    } & Partial<CardSummary>);

export type PaymentStatus = PaymentState['status'];

/** Final states: once there, a payment never moves again (webhooks out of order are ignored). */
export const finalPaymentStatuses: ReadonlySet<PaymentStatus> = new Set(['succeeded', 'declined']);

/**
 * How far along a status is, so an out-of-order webhook never moves a payment backwards: a
 * state replaces the recorded one only when its rank is higher (final states rank highest).
 */
export const paymentStatusRank: Record<PaymentStatus, number> = {
  requires_payment_method: 0,
  requires_action: 1,
  awaiting_scan: 1,
  processing: 2,
  succeeded: 3,
  declined: 3,
};

export type RefundState =
  | { status: 'succeeded'; refundId: string }
  /** Accepted by the provider, money not back yet: settles by webhook or syncRefund, and may still fail. */
  | { status: 'pending'; refundId: string }
  /**
   * Final refusal. `code` is the provider's reason in snake_case (kept on the refund row);
   * `not_refundable` (window passed, no partial refunds) is decided from the capabilities before
   * any provider call, and the refund service answers it with its own catalogue code.
   */
  | { status: 'failed'; refundId?: string; code: string; message: string };

export interface CreatePaymentRequest {
  amountMinor: bigint;
  currency: string;
  description?: string;
  /** paylink's own id for the attempt (metadata at the provider, for support and reconciliation). */
  reference: string;
  /** Where the provider sends the customer back after 3-D Secure or a hosted page. */
  returnUrl: string;
  /** A card typed on paylink's page: `server_vault` connectors only. */
  card?: CardInput;
  /** Keep the card for later off-session charges (schedules), where the connector can. */
  saveCard?: boolean;
  /** How the customer pays (one of the connector's `methods`); absent: `card`. */
  method?: PaymentMethod;
  /** Online banking: the customer's bank (a code from the method's `banks`). */
  bank?: string;
  /** What the customer gave that the method needs (its `requires`). */
  billing?: { name?: string; email?: string; phone?: string };
  /** QR Ph: how long the code stays payable, in seconds (PayMongo: 60–9000, 1800 by default). */
  qrExpirySeconds?: number;
}

export interface SavedCardChargeRequest {
  /** The connector's handle of a saved card (sandbox vault token, Stripe payment method). */
  token: string;
  /** The provider's customer the card belongs to, when it has one. */
  customer?: string;
  amountMinor: bigint;
  currency: string;
  description?: string;
  reference: string;
}

export interface RefundRequest {
  /** The succeeded payment's chargeId. */
  chargeId: string;
  amountMinor: bigint;
  currency: string;
  /** The whole payment's amount: a connector without partial refunds refuses anything less. */
  paymentAmountMinor: bigint;
  /** When the payment succeeded: a connector refuses past its refund window. */
  paidAt: Date;
  /** How the payment was made: its method's refund rules apply (absent: `card`). */
  method?: PaymentMethod;
  /** Online banking: the payment's bank, where a connector's rules differ per bank (PayMongo cannot refund UnionBank). */
  bank?: string;
  reason?: string;
}

/**
 * A card registration where the card is typed into the provider's own fields (Stripe's Payment
 * Element in setup mode): the provider keeps the card on a customer of its own, and paylink
 * keeps only the handle it gives back.
 */
export interface CardSetupRequest {
  /** The registration's reference (metadata at the provider, for support). */
  reference: string;
  customerName?: string;
  customerEmail?: string;
  /** Where the provider sends the customer back after 3-D Secure. */
  returnUrl: string;
  /** The provider's customer a registration already has (a card replaced): the new card joins it, no new customer is made. */
  customer?: string;
}

/** The card saved by a succeeded setup: what an off-session charge needs, and what paylink shows. */
export interface SetupCard {
  /** The saved card's handle (Stripe: the pm_… payment method). */
  token: string;
  /** The provider's customer the card is attached to (Stripe: cus_…). */
  customer: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  fingerprint: string;
}

/** Where a card setup stands. A status the connector does not know is `pending`, never success. */
export type CardSetupState =
  /** Waiting for the card, or the provider is still working on it (processing, unknown statuses). */
  (
    | { status: 'pending' }
    /** The bank wants 3-D Secure: the provider's script in the browser handles it. */
    | { status: 'requires_action' }
    | ({ status: 'succeeded' } & SetupCard)
    /** The last card given was refused (the setup can still take another card) or the setup was canceled. */
    | { status: 'failed'; code: DeclineCode; message: string; final: boolean }
  ) & {
    setupId: string;
    clientSecret?: string;
    /** The reference the setup was made for (createCardSetup's `reference`), as the provider kept it. */
    reference?: string;
  };

/** A setup just created: what the browser needs to take the card, and the customer it will belong to. */
export interface CardSetupStarted {
  setupId: string;
  clientSecret: string;
  customer: string;
}

/** A verified provider webhook, reduced to what paylink acts on. */
export type ConnectorEvent =
  | { kind: 'payment'; eventId: string; occurredAt: Date; payment: PaymentState & { providerPaymentId: string } }
  | { kind: 'refund'; eventId: string; occurredAt: Date; refund: RefundState & { refundId: string } }
  /** A payment with every refund made against it (PayMongo's payment.refunded): each settles a pending refund of paylink's. */
  | { kind: 'refunds'; eventId: string; occurredAt: Date; refunds: ReadonlyArray<RefundState & { refundId: string }> }
  /** About a card setup; its state is read again with syncCardSetup before anything is recorded. */
  | { kind: 'card_setup'; eventId: string; occurredAt: Date; setupId: string; status: CardSetupState['status'] }
  /** Verified, but of a type paylink does not act on: answer 200 and drop it. */
  | { kind: 'ignored'; eventId: string; occurredAt: Date; type: string };

/** A provider webhook as received. */
export interface WebhookRequest {
  rawBody: string;
  headers: Headers;
  now: Date;
  toleranceSeconds?: number;
}

export class WebhookVerificationError extends Error {
  /**
   * @param header the request header the refusal is about: the provider's own signature header.
   * @param stale the signature verified, but the time it was made is outside the tolerance.
   */
  constructor(
    message: string,
    readonly header: string,
    readonly stale = false,
  ) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** How far a provider webhook's signature time may be from paylink's clock, either way, by default (Stripe's library's default). */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Refuses a verified signature made more than `toleranceSeconds` before or after `now`: an old one
 * is a replay, one from the future a clock far off (or a signature made to be replayed later).
 */
export function checkWebhookFreshness(signedAtSeconds: number, opts: { now: Date; toleranceSeconds: number; header: string }): void {
  if (!Number.isSafeInteger(signedAtSeconds)) throw new WebhookVerificationError('the signature has no timestamp', opts.header);
  const age = Math.floor(opts.now.getTime() / 1000) - signedAtSeconds;
  if (age > opts.toleranceSeconds) {
    throw new WebhookVerificationError(`the signature was made ${age} s ago, outside the tolerance of ${opts.toleranceSeconds} s`, opts.header, true);
  }
  if (-age > opts.toleranceSeconds) {
    throw new WebhookVerificationError(
      `the signature's time is ${-age} s ahead of paylink's clock, outside the tolerance of ${opts.toleranceSeconds} s`,
      opts.header,
      true,
    );
  }
}

/**
 * By name, not instanceof: the server entry and the routes' bundle each carry their own copy of
 * this module, and the connector that throws was built by the other one.
 */
export const isWebhookVerificationError = (error: unknown): error is WebhookVerificationError =>
  error instanceof Error && error.name === 'WebhookVerificationError';

/** Connector calls that did not get an answer (network, timeout, 5xx): retry with the same key. */
export class ConnectorUnavailableError extends Error {
  constructor(
    readonly connector: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${connector}: ${message}`, options);
    this.name = 'ConnectorUnavailableError';
  }
}

/** What a card vault charges: a card typed on paylink's page now, or a card it keeps (its token). */
export interface VaultChargeRequest {
  source: { card: CardInput } | { token: string };
  amountMinor: bigint;
  currency: string;
  description?: string;
}

/** A charge of a vaulted card in a batch, under its own idempotency key. */
export interface SavedCardBatchItem {
  token: string;
  amountMinor: bigint;
  currency: string;
  idempotencyKey: string;
}

/**
 * Card entry on paylink's own page (cardCollection 'server_vault'): the connector keeps card
 * numbers itself, fingerprints and verifies them server-side, and charges them with a final answer.
 */
export interface CardVault {
  /** The same card always gives the same value; the number cannot be recovered from it. */
  fingerprint(cardNumber: string): string;
  /** Verify a card and keep it in the vault; the token charges it later. */
  verifyCard(card: CardInput, opts: { idempotencyKey: string }): Promise<VerifyResult>;
  /** Charges a typed card or a vaulted token; the answer is final (no 3-D Secure, no pending state). */
  charge(req: VaultChargeRequest, opts: { idempotencyKey: string }): Promise<ChargeResult>;
}

/** A local method's payment as a simulated customer sees it at the code or the authorisation page. */
export interface SimulatedMethodPayment {
  providerPaymentId: string;
  method: PaymentMethod;
  bank?: string;
  amountMinor: bigint;
  currency: string;
  description?: string;
  /** What the payment was created for (CreatePaymentRequest.reference: the checkout session). */
  reference: string;
  expiresAt: Date;
  returnUrl: string;
  /** `waiting`: can still be paid; otherwise the payment's final or settling status. */
  status: 'waiting' | 'processing' | 'succeeded' | 'declined';
  declineCode?: DeclineCode;
}

/**
 * The customer's side of a local method, simulated (the sandbox's "Scan to pay" and authorisation
 * pages): no real acquirer has it. `answer` approves (charges once), declines or lets expire a
 * payment still waiting; a payment no longer waiting is not changed (undefined: unknown id).
 */
export interface MethodSimulator {
  payment(providerPaymentId: string): Promise<SimulatedMethodPayment | undefined>;
  answer(providerPaymentId: string, answer: 'approve' | 'decline' | 'expire'): Promise<PaymentState | undefined>;
}

export interface Connector {
  /** 'sandbox' | 'paymongo' | 'stripe'. */
  readonly name: string;
  readonly capabilities: ConnectorCapabilities;
  /** Capability: the customer's side of local methods, simulated (the sandbox). */
  readonly simulator?: MethodSimulator;
  /** Capability: a card vault of its own. Present only where cardCollection is 'server_vault'. */
  readonly vault?: CardVault;
  /**
   * Capability: charges of vaulted cards (scheduled charges) in one call, each as `vault.charge`
   * of its token under its own key. A throw means no answer for any of them.
   */
  chargeSavedCards?(reqs: SavedCardBatchItem[]): Promise<ChargeResult[]>;
  /**
   * Capability: a refund whose answer is final in one call (no pending state, nothing to sync).
   * Where offered, the refund service calls it in place of `refund`.
   */
  refundAtOnce?(req: Pick<RefundRequest, 'chargeId' | 'amountMinor' | 'currency'>, opts: { idempotencyKey: string }): Promise<RefundResult>;
  /** The integrator chose the provider's own payment page (capabilities.hostedCheckout) over the card form. */
  readonly hostedCheckoutChosen?: boolean;
  /**
   * Starts a payment. With `card` (server_vault) it is charged at once; otherwise the answer is
   * `requires_payment_method` with what the browser needs (PayMongo's client key).
   */
  createPayment(req: CreatePaymentRequest, opts: { idempotencyKey: string }): Promise<PaymentState>;
  /** Asks the provider where a payment stands (after a redirect, or when a webhook never came). */
  syncPayment(providerPaymentId: string): Promise<PaymentState>;
  /**
   * Capability: ends a payment still waiting for the customer (a QR code not yet paid, an
   * authorisation not given) so it can no longer be paid, answering its final state: `declined`
   * with `cancelled` (or `expired`), or `succeeded` when the customer paid first. Checkout calls it
   * before the customer starts another attempt or pays another way, so one session never has two
   * payable attempts. Without it, an attempt still waiting ends only when the provider says so or
   * its window (`actionWindowSeconds`, the QR's expiry) has passed.
   */
  cancelPayment?(providerPaymentId: string): Promise<PaymentState>;
  /** A scheduled charge of a saved card without the customer (offSession 'native' only). */
  chargeSavedCard(req: SavedCardChargeRequest, opts: { idempotencyKey: string }): Promise<PaymentState>;
  refund(req: RefundRequest, opts: { idempotencyKey: string }): Promise<RefundState>;
  syncRefund(refundId: string): Promise<RefundState>;
  /**
   * Verifies the signature over the raw body and its time (within `toleranceSeconds` of `now`
   * either way, DEFAULT_WEBHOOK_TOLERANCE_SECONDS when not given) and reads the event; throws
   * WebhookVerificationError.
   */
  parseWebhook(req: WebhookRequest): ConnectorEvent;
  /**
   * The provider's own payment page (capabilities.hostedCheckout): the customer is sent to
   * `checkoutUrl` and comes back to `returnUrl` (paid) or `cancelUrl`. `providerPaymentId` is the
   * payment sync and webhooks name.
   */
  /**
   * Card registration without a server-side vault (cardCollection 'stripe_element'): the provider
   * creates a customer and a setup for off-session use under `idempotencyKey`; the browser takes
   * the card with `clientSecret`. `syncCardSetup` says where it stands (the card once succeeded).
   */
  createCardSetup?(req: CardSetupRequest, opts: { idempotencyKey: string }): Promise<CardSetupStarted>;
  syncCardSetup?(setupId: string): Promise<CardSetupState>;
  /**
   * The card a succeeded payment created with `saveCard` left saved for off-session charges (Stripe:
   * the intent's payment method on its customer); undefined when none was kept.
   */
  savedCardOf?(providerPaymentId: string): Promise<SetupCard | undefined>;
  /**
   * Removes a saved card at the provider once paylink no longer needs it (its registration was
   * deleted): Stripe detaches the payment method from its customer, the sandbox drops its vault
   * entry. A card already gone counts as done; a throw means "not done yet" and is retried.
   */
  forgetSavedCard?(card: { token: string; customer?: string }, opts: { idempotencyKey: string }): Promise<void>;
  createHostedCheckout?(
    /** `methods`: what the provider's page may offer (the link's allowed methods it takes); absent: `method`, else card. */
    req: CreatePaymentRequest & { cancelUrl: string; itemName: string; methods?: readonly PaymentMethod[] },
    opts: { idempotencyKey: string },
    /** A `declined` state without a providerPaymentId: the provider refused to make the page (a business outcome, as in createPayment). */
  ): Promise<{ checkoutUrl: string; providerPaymentId: string } | Extract<PaymentState, { status: 'declined' }>>;
}

/** The connector's rules for one method, or undefined when it does not take that method. */
export const methodSupport = (capabilities: ConnectorCapabilities, method: PaymentMethod): MethodSupport | undefined =>
  capabilities.methods.find((m) => m.method === method);

/**
 * Refunds the capabilities rule out, before any provider call: the same business failure from
 * every connector (the refund service answers it with its catalogue code). The payment's own
 * method decides: a card's 60-day window is not a QR Ph payment's rule.
 */
export function refundAllowed(
  capabilities: ConnectorCapabilities,
  req: Pick<RefundRequest, 'amountMinor' | 'paymentAmountMinor' | 'paidAt' | 'method' | 'bank'>,
  now: Date,
): { ok: true } | { ok: false; code: 'not_refundable'; reason: 'method' | 'partial' | 'window'; message: string } {
  const method = req.method ?? 'card';
  const rules = methodSupport(capabilities, method)?.refunds;
  const name = method === 'card' ? 'card' : paymentMethodNames[method];
  if (!rules?.refundable) {
    return { ok: false, code: 'not_refundable', reason: 'method', message: `This acquirer cannot refund payments made by ${name}.` };
  }
  if (req.bank && rules.unrefundableBanks?.includes(req.bank)) {
    const bank = onlineBankNames[req.bank] ?? req.bank.toUpperCase();
    return { ok: false, code: 'not_refundable', reason: 'method', message: `This acquirer cannot refund payments made by ${name} through ${bank}.` };
  }
  if (!rules.partial && req.amountMinor !== req.paymentAmountMinor) {
    return { ok: false, code: 'not_refundable', reason: 'partial', message: `This acquirer refunds ${name} payments only in full.` };
  }
  if (rules.windowDays !== null && now.getTime() - req.paidAt.getTime() > rules.windowDays * 86_400_000) {
    return {
      ok: false,
      code: 'not_refundable',
      reason: 'window',
      message: `This acquirer refunds ${name} payments only within ${rules.windowDays} days of the payment.`,
    };
  }
  return { ok: true };
}

/** Whether an amount in a currency can be taken by the connector at all, with the reason when not. */
export function amountAccepted(
  capabilities: ConnectorCapabilities,
  amountMinor: bigint,
  currency: string,
): { ok: true } | { ok: false; reason: 'currency' | 'minimum'; minimumMinor?: bigint } {
  if (capabilities.currencies === 'any') return { ok: true };
  const support = capabilities.currencies.find((c) => c.currency === currency);
  if (!support) return { ok: false, reason: 'currency' };
  if (amountMinor < support.minimumMinor) return { ok: false, reason: 'minimum', minimumMinor: support.minimumMinor };
  return { ok: true };
}

/**
 * The state a payment moves to when `incoming` arrives (a webhook, a sync, a redirect back):
 * never backwards, and never out of a final state, so duplicate and out-of-order deliveries
 * change nothing. Returns undefined when the recorded state stands.
 */
export function nextPaymentState(recorded: PaymentStatus, incoming: PaymentState): PaymentState | undefined {
  if (finalPaymentStatuses.has(recorded)) return undefined;
  if (paymentStatusRank[incoming.status] < paymentStatusRank[recorded]) return undefined;
  if (incoming.status === recorded && incoming.status !== 'requires_action') return undefined;
  return incoming;
}

/** Providers (PayMongo, Stripe) keep an Idempotency-Key of up to 255 characters; a longer one is hashed. */
export const providerIdempotencyKey = (key: string) => (key.length <= 255 ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`);
