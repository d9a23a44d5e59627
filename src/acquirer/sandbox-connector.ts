import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { sandboxCharges, sandboxOperations, sandboxVault } from '../db/schema.ts';
import { methodFlow, onlineBanks, type PaymentMethod } from '../schemas/payment-method.ts';
import { type Acquirer, type CardSummary, type ChargeResult, declineMessages, type RefundResult } from './acquirer.ts';
import {
  type CardVault,
  type Connector,
  type ConnectorCapabilities,
  type ConnectorEvent,
  type CreatePaymentRequest,
  type MethodSimulator,
  methodSupport,
  type PaymentState,
  type RefundRequest,
  type RefundState,
  refundAllowed,
  type SavedCardBatchItem,
  type SavedCardChargeRequest,
  type SimulatedMethodPayment,
  WebhookVerificationError,
} from './connector.ts';
import { DEFAULT_ACTION_WINDOW_SECONDS, localMethodSupport } from './local-methods.ts';

/**
 * The sandbox as a connector. It keeps the sandbox acquirer's vault and ledger (charges and
 * refunds stay one database call each, `paylink_sandbox_charge` / `paylink_sandbox_refund`) and
 * adds the states a real acquirer has, driven by test cards:
 * - 4000 0000 0000 3220 asks for 3-D Secure: the payment waits in `requires_action` until the
 *   customer completes (or fails) the sandbox's authentication (`completeAuthentication`);
 * - 4000 0000 0000 7726 is charged fine, but its refunds answer `pending` and fail on the next sync.
 * Each payment and asynchronous refund keeps its state in sandbox_operations under
 * `payment-state:<id>` / `refund-state:<id>`; ids derive from the idempotency key, so a retried
 * call finds the same payment.
 */
interface StoredPayment {
  /** As stored: a QR's `expiresAt` is an ISO 8601 string in the row (see `revive`). */
  state: PaymentState;
  /** The vaulted card waiting for 3-D Secure (a token, never the number). */
  token?: string;
  /** The amount the waiting payment charges once authenticated. */
  amountMinor?: string;
  currency?: string;
  description?: string;
  /** A local method's payment (QR Ph, e-wallet, bank, BillEase): what the sandbox's pages show and charge. */
  method?: Exclude<PaymentMethod, 'card'>;
  bank?: string;
  /** Until when the code or the authorisation page can be paid (ISO 8601). */
  expiresAt?: string;
  /** Where the authorisation page sends the customer back. */
  returnUrl?: string;
  reference?: string;
}

/** Whether a stored local method's payment is still waiting for the customer. */
const isWaiting = (p: StoredPayment) => p.state.status === 'awaiting_scan' || p.state.status === 'requires_action';

/** A state read from its row: the QR's expiry back to a Date. */
const revive = (state: PaymentState): PaymentState =>
  state.status === 'awaiting_scan' ? { ...state, qr: { content: state.qr.content, expiresAt: new Date(state.qr.expiresAt) } } : state;

interface StoredRefund {
  state: RefundState;
  /** Answer `failed` at the next sync (the test card that fails later). */
  failsLater?: boolean;
}

const derivedId = (prefix: string, key: string) => `${prefix}_${createHash('sha256').update(`sandbox:${key}`).digest('hex').slice(0, 24)}`;

const card = (c: Partial<CardSummary>): Partial<CardSummary> => {
  const out: Partial<CardSummary> = {};
  if (c.brand !== undefined) out.brand = c.brand;
  if (c.last4 !== undefined) out.last4 = c.last4;
  if (c.expMonth !== undefined) out.expMonth = c.expMonth;
  if (c.expYear !== undefined) out.expYear = c.expYear;
  if (c.fingerprint !== undefined) out.fingerprint = c.fingerprint;
  return out;
};

const toState = (providerPaymentId: string, result: ChargeResult): PaymentState =>
  result.status === 'succeeded'
    ? { status: 'succeeded', providerPaymentId, chargeId: result.chargeId, ...card(result) }
    : { status: 'declined', providerPaymentId, code: result.code, message: result.message, ...card(result) };

/** The card number that asks for 3-D Secure in the sandbox (listed in test-cards.ts). */
const SANDBOX_3DS_CARD = '4000000000003220';

export class SandboxConnector implements Connector {
  readonly name = 'sandbox';
  readonly capabilities: ConnectorCapabilities = {
    offSession: 'native',
    cardCollection: 'server_vault',
    // Every method, so `npm start` shows them all with no keys. Cards in any currency and as lenient
    // as a test acquirer can be; the local methods with PayMongo's rules (PHP, minimum, refunds),
    // so a merchant testing here meets the rules production applies (src/acquirer/local-methods.ts).
    methods: [{ method: 'card', refunds: { refundable: true, partial: true, windowDays: null }, requires: [] }, ...localMethodSupport(onlineBanks)],
    currencies: 'any',
    asyncRefunds: true,
    // Every brand paylink knows: the sandbox takes any number that passes the Luhn check and has a known brand.
    cardBrands: ['visa', 'mastercard', 'amex', 'discover', 'jcb', 'diners', 'unionpay'],
    webhooks: false,
    hostedCheckout: false,
    runSchedulesNow: true,
  };
  /** The sandbox's "Scan to pay" and authorisation pages act through this (src/pages/sandbox). */
  readonly simulator: MethodSimulator = {
    payment: (id) => this.methodPayment(id),
    answer: (id, answer) => this.answerMethodPayment(id, answer),
  };
  /** The sandbox acquirer's vault: a card typed on paylink's page, charged with a final answer. */
  readonly vault: CardVault = {
    fingerprint: (cardNumber) => this.acquirer.fingerprint(cardNumber),
    verifyCard: (card, opts) => this.acquirer.verifyCard(card, opts),
    charge: (req, opts) => this.acquirer.charge(req, opts),
  };

  /**
   * @param acquirer the sandbox acquirer (src/acquirer/sandbox.ts), read at every call so a test
   *   can stand in for it.
   */
  constructor(
    public acquirer: Acquirer,
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** A batch of scheduled charges in two round trips however many there are (the vault rows, then the ledger). */
  chargeSavedCards(reqs: SavedCardBatchItem[]): Promise<ChargeResult[]> {
    return this.acquirer.chargeSavedCards(reqs);
  }

  /** A refund is one database call (`paylink_sandbox_refund`) and settles at once. */
  refundAtOnce(req: { chargeId: string; amountMinor: bigint; currency: string }, opts: { idempotencyKey: string }): Promise<RefundResult> {
    return this.acquirer.refund(req, opts);
  }

  private async stored<T>(key: string): Promise<T | undefined> {
    const [row] = await this.db.select().from(sandboxOperations).where(eq(sandboxOperations.idempotencyKey, key));
    return row?.result as T | undefined;
  }

  /** The first state written under a key wins; returns what is stored. */
  private async storeOnce<T extends object>(key: string, operation: string, value: T): Promise<T> {
    await this.db
      .insert(sandboxOperations)
      .values({ idempotencyKey: key, operation, requestHash: '-', result: value as Record<string, unknown> })
      .onConflictDoNothing();
    return (await this.stored<T>(key))!;
  }

  /** Moves a stored state on, only from the state it was read in (a compare-and-set on the row). */
  private async replace<T extends object>(key: string, from: T, to: T): Promise<boolean> {
    const updated = await this.db
      .update(sandboxOperations)
      .set({ result: to as Record<string, unknown> })
      .where(and(eq(sandboxOperations.idempotencyKey, key), sql`${sandboxOperations.result} = ${JSON.stringify(from)}::jsonb`))
      .returning({ key: sandboxOperations.idempotencyKey });
    return updated.length === 1;
  }

  async createPayment(req: CreatePaymentRequest, { idempotencyKey }: { idempotencyKey: string }): Promise<PaymentState> {
    const id = derivedId('sbp', idempotencyKey);
    const key = `payment-state:${id}`;
    const known = await this.stored<StoredPayment>(key);
    if (known) return revive(known.state);
    if (req.method && req.method !== 'card') return this.createMethodPayment(id, req as CreatePaymentRequest & { method: Exclude<PaymentMethod, 'card'> });
    if (!req.card)
      return (await this.storeOnce<StoredPayment>(key, 'payment-state', { state: { status: 'requires_payment_method', providerPaymentId: id } })).state;
    if (req.card.number.replace(/[\s-]/g, '') === SANDBOX_3DS_CARD) {
      const verified = await this.acquirer.verifyCard(req.card, { idempotencyKey: `${idempotencyKey}:3ds-card` });
      if (verified.status === 'declined') return (await this.storeOnce<StoredPayment>(key, 'payment-state', { state: toState(id, verified) })).state;
      const redirectUrl = `${req.returnUrl}${req.returnUrl.includes('?') ? '&' : '?'}sandbox_authentication=${id}`;
      const waiting: StoredPayment = {
        state: { status: 'requires_action', providerPaymentId: id, redirectUrl },
        token: verified.token,
        amountMinor: req.amountMinor.toString(),
        currency: req.currency,
        ...(req.description === undefined ? {} : { description: req.description }),
      };
      return (await this.storeOnce(key, 'payment-state', waiting)).state;
    }
    const result = await this.acquirer.charge(
      { source: { card: req.card }, amountMinor: req.amountMinor, currency: req.currency, description: req.description },
      { idempotencyKey },
    );
    return (await this.storeOnce<StoredPayment>(key, 'payment-state', { state: toState(id, result) })).state;
  }

  /**
   * The customer's answer to the sandbox's 3-D Secure step: `approve` charges the vaulted card
   * (once, under a key derived from the payment), `fail` declines the payment.
   */
  async completeAuthentication(providerPaymentId: string, answer: 'approve' | 'fail'): Promise<PaymentState> {
    const key = `payment-state:${providerPaymentId}`;
    const waiting = await this.stored<StoredPayment>(key);
    if (!waiting) throw new Error(`sandbox: no payment ${providerPaymentId}`);
    if (waiting.state.status !== 'requires_action' || !waiting.token) return waiting.state;
    const result: ChargeResult =
      answer === 'approve'
        ? await this.acquirer.charge(
            { source: { token: waiting.token }, amountMinor: BigInt(waiting.amountMinor!), currency: waiting.currency!, description: waiting.description },
            { idempotencyKey: `${key}:authenticated` },
          )
        : { status: 'declined', code: 'card_declined', message: 'The customer did not complete 3-D Secure authentication.' };
    const settled: StoredPayment = { state: toState(providerPaymentId, result) };
    if (await this.replace(key, waiting, settled)) return settled.state;
    return (await this.stored<StoredPayment>(key))!.state;
  }

  async syncPayment(providerPaymentId: string): Promise<PaymentState> {
    const stored = await this.stored<StoredPayment>(`payment-state:${providerPaymentId}`);
    if (!stored) throw new Error(`sandbox: no payment ${providerPaymentId}`);
    if (stored.method) return this.settleMethodPayment(providerPaymentId, stored);
    return stored.state;
  }

  /**
   * A local method's payment: a QR Ph code whose content opens the sandbox's "Scan to pay" page,
   * or an authorisation page for the e-wallets, banks and BillEase, both on the origin of the
   * return address (the configured public origin), so a phone on the same network can open them.
   * Only PHP, at least the method's minimum, as PayMongo (checkout checks both before calling).
   */
  private async createMethodPayment(id: string, req: CreatePaymentRequest & { method: Exclude<PaymentMethod, 'card'> }): Promise<PaymentState> {
    const support = methodSupport(this.capabilities, req.method);
    if (!support || !(support.currencies ?? [req.currency]).includes(req.currency) || req.amountMinor < (support.minimumMinor ?? 0n)) {
      return { status: 'declined', providerPaymentId: id, method: req.method, code: 'processing_error', message: declineMessages.processing_error };
    }
    const origin = new URL(req.returnUrl).origin;
    const windowSeconds = req.method === 'qrph' ? (req.qrExpirySeconds ?? support.actionWindowSeconds) : support.actionWindowSeconds;
    const expiresAt = new Date(this.now().getTime() + (windowSeconds ?? DEFAULT_ACTION_WINDOW_SECONDS) * 1000);
    const state: PaymentState =
      methodFlow[req.method] === 'qr'
        ? { status: 'awaiting_scan', providerPaymentId: id, qr: { content: `${origin}/sandbox/scan/${id}`, expiresAt } }
        : { status: 'requires_action', providerPaymentId: id, redirectUrl: `${origin}/sandbox/authorise/${id}` };
    const waiting: StoredPayment = {
      state,
      amountMinor: req.amountMinor.toString(),
      currency: req.currency,
      ...(req.description === undefined ? {} : { description: req.description }),
      method: req.method,
      ...(req.bank === undefined ? {} : { bank: req.bank }),
      expiresAt: expiresAt.toISOString(),
      returnUrl: req.returnUrl,
      reference: req.reference,
    };
    return revive((await this.storeOnce(`payment-state:${id}`, 'payment-state', waiting)).state);
  }

  /**
   * Moves a waiting local method's payment on: past its expiry it is declined `expired`; one whose
   * charge was claimed but not finished (the process stopped) is charged under the same key.
   */
  private async settleMethodPayment(id: string, stored: StoredPayment): Promise<PaymentState> {
    if (isWaiting(stored) && this.now().getTime() >= Date.parse(stored.expiresAt!)) {
      return this.endMethodPayment(id, stored, 'expired');
    }
    if (stored.state.status === 'processing') return this.chargeMethodPayment(id, stored);
    return revive(stored.state);
  }

  private async endMethodPayment(id: string, from: StoredPayment, code: 'expired' | 'cancelled'): Promise<PaymentState> {
    const key = `payment-state:${id}`;
    const ended: StoredPayment = { ...from, state: { status: 'declined', providerPaymentId: id, method: from.method!, code, message: declineMessages[code] } };
    if (await this.replace(key, from, ended)) return ended.state;
    return this.syncPayment(id);
  }

  /** The charge of an approved local method's payment, once (its own key), then the state it gives. */
  private async chargeMethodPayment(id: string, processing: StoredPayment): Promise<PaymentState> {
    const key = `payment-state:${id}`;
    const result = await this.acquirer.charge(
      {
        source: { method: processing.method! },
        amountMinor: BigInt(processing.amountMinor!),
        currency: processing.currency!,
        description: processing.description,
      },
      { idempotencyKey: `${key}:authorised` },
    );
    const settled: StoredPayment = {
      ...processing,
      state:
        result.status === 'succeeded'
          ? { status: 'succeeded', providerPaymentId: id, chargeId: result.chargeId, method: processing.method! }
          : { status: 'declined', providerPaymentId: id, method: processing.method!, code: result.code, message: result.message },
    };
    if (await this.replace(key, processing, settled)) return settled.state;
    return revive((await this.stored<StoredPayment>(key))!.state);
  }

  /**
   * The customer's answer on the sandbox's scan or authorisation page. `approve` claims the
   * payment (waiting → processing, a compare-and-set, so an expiry or a cancel racing it loses or
   * wins whole) and then charges it once; `decline` and `expire` end it. A payment no longer
   * waiting (paid, declined, expired, cancelled because a new code replaced it) is not changed:
   * its state is the answer, so a superseded code can never be paid.
   */
  async answerMethodPayment(providerPaymentId: string, answer: 'approve' | 'decline' | 'expire'): Promise<PaymentState | undefined> {
    const key = `payment-state:${providerPaymentId}`;
    const stored = await this.stored<StoredPayment>(key);
    if (!stored?.method) return undefined;
    const current = await this.settleMethodPayment(providerPaymentId, stored);
    if (!isWaiting(stored) || (current.status !== 'awaiting_scan' && current.status !== 'requires_action')) return current;
    if (answer === 'expire') return this.endMethodPayment(providerPaymentId, stored, 'expired');
    if (answer === 'decline') return this.endMethodPayment(providerPaymentId, stored, 'cancelled');
    const processing: StoredPayment = { ...stored, state: { status: 'processing', providerPaymentId } };
    if (!(await this.replace(key, stored, processing))) return this.syncPayment(providerPaymentId);
    return this.chargeMethodPayment(providerPaymentId, processing);
  }

  /** Ends a local method's payment still waiting (a new code replaces it, the customer came back or paid another way). */
  async cancelPayment(providerPaymentId: string): Promise<PaymentState> {
    const stored = await this.stored<StoredPayment>(`payment-state:${providerPaymentId}`);
    if (!stored) throw new Error(`sandbox: no payment ${providerPaymentId}`);
    if (!stored.method) return revive(stored.state);
    const current = await this.settleMethodPayment(providerPaymentId, stored);
    if (!isWaiting(stored) || (current.status !== 'awaiting_scan' && current.status !== 'requires_action')) return current;
    return this.endMethodPayment(providerPaymentId, stored, 'cancelled');
  }

  /** A local method's payment as the sandbox's pages show it; undefined for an unknown id or a card payment. */
  async methodPayment(providerPaymentId: string): Promise<SimulatedMethodPayment | undefined> {
    const stored = await this.stored<StoredPayment>(`payment-state:${providerPaymentId}`);
    if (!stored?.method) return undefined;
    const state = await this.settleMethodPayment(providerPaymentId, stored);
    return {
      providerPaymentId,
      method: stored.method,
      ...(stored.bank === undefined ? {} : { bank: stored.bank }),
      amountMinor: BigInt(stored.amountMinor!),
      currency: stored.currency!,
      ...(stored.description === undefined ? {} : { description: stored.description }),
      expiresAt: new Date(stored.expiresAt!),
      returnUrl: stored.returnUrl!,
      reference: stored.reference ?? '',
      status:
        state.status === 'awaiting_scan' || state.status === 'requires_action'
          ? 'waiting'
          : state.status === 'succeeded' || state.status === 'declined'
            ? state.status
            : 'processing',
      ...(state.status === 'declined' ? { declineCode: state.code } : {}),
    };
  }

  async chargeSavedCard(req: SavedCardChargeRequest, { idempotencyKey }: { idempotencyKey: string }): Promise<PaymentState> {
    const id = derivedId('sbp', idempotencyKey);
    const result = await this.acquirer.charge(
      { source: { token: req.token }, amountMinor: req.amountMinor, currency: req.currency, description: req.description },
      { idempotencyKey },
    );
    return (await this.storeOnce<StoredPayment>(`payment-state:${id}`, 'payment-state', { state: toState(id, result) })).state;
  }

  /** The vault entry goes (its sealed number with it): a later charge of the token is `unknown_token`. Gone already: done. */
  async forgetSavedCard(card: { token: string }): Promise<void> {
    await this.db.delete(sandboxVault).where(eq(sandboxVault.token, card.token));
  }

  async refund(req: RefundRequest, { idempotencyKey }: { idempotencyKey: string }): Promise<RefundState> {
    const allowed = refundAllowed(this.capabilities, req, this.now());
    if (!allowed.ok) return { status: 'failed', code: allowed.code, message: allowed.message };
    const [charge] = await this.db.select({ behaviour: sandboxCharges.behaviour }).from(sandboxCharges).where(eq(sandboxCharges.id, req.chargeId));
    if (charge?.behaviour === 'refund_fails_later') {
      const refundId = derivedId('re', idempotencyKey);
      return (await this.storeOnce<StoredRefund>(`refund-state:${refundId}`, 'refund-state', { state: { status: 'pending', refundId }, failsLater: true }))
        .state;
    }
    const result = await this.acquirer.refund({ chargeId: req.chargeId, amountMinor: req.amountMinor, currency: req.currency }, { idempotencyKey });
    return result.status === 'succeeded'
      ? { status: 'succeeded', refundId: result.refundId }
      : { status: 'failed', code: result.code, message: result.message };
  }

  async syncRefund(refundId: string): Promise<RefundState> {
    const key = `refund-state:${refundId}`;
    const stored = await this.stored<StoredRefund>(key);
    if (!stored) {
      // A refund that settled at once is kept only as its idempotency record.
      const [settled] = await this.db
        .select({ result: sandboxOperations.result })
        .from(sandboxOperations)
        .where(and(eq(sandboxOperations.operation, 'refund'), sql`${sandboxOperations.result}->>'refundId' = ${refundId}`));
      if (!settled) throw new Error(`sandbox: no refund ${refundId}`);
      return { status: 'succeeded', refundId };
    }
    if (stored.state.status === 'pending' && stored.failsLater) {
      const failed: StoredRefund = {
        state: { status: 'failed', refundId, code: 'refund_failed', message: 'The card issuer returned the refund: the card account is closed.' },
      };
      if (await this.replace(key, stored, failed)) return failed.state;
      return (await this.stored<StoredRefund>(key))!.state;
    }
    return stored.state;
  }

  parseWebhook(): ConnectorEvent {
    throw new WebhookVerificationError('the sandbox sends no webhooks', '(request)');
  }
}
