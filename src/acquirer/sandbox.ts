import { createHash } from 'node:crypto';
import cardValidator from 'card-validator';
import { eq, inArray, sql } from 'drizzle-orm';
import { newId, type Sealer } from '../crypto.ts';
import type { Db, DbOrTx } from '../db/client.ts';
import { sandboxOperations, sandboxVault } from '../db/schema.ts';
import {
  type Acquirer,
  type CardInput,
  type CardSummary,
  type ChargeResult,
  type ChargeSource,
  declineMessages,
  type RefundResult,
  type VerifyResult,
} from './acquirer.ts';
import { testCards } from './test-cards.ts';

/**
 * The sandbox acquirer: decides outcomes from test card numbers and keeps card numbers only in
 * its own vault (sandbox_vault), encrypted with AES-256-GCM. CVCs are checked for shape and
 * never stored. Every operation is recorded under its idempotency key and replayed on reuse.
 */
export interface SandboxOptions {
  db: Db;
  vaultSealer: Sealer;
  fingerprint: (pan: string) => string;
  now?: () => Date;
}

const brandName = (type: string | undefined) =>
  ({
    visa: 'visa',
    mastercard: 'mastercard',
    'american-express': 'amex',
    discover: 'discover',
    jcb: 'jcb',
    'diners-club': 'diners',
    unionpay: 'unionpay',
    maestro: 'maestro',
  })[type ?? ''] ??
  type ??
  'unknown';

const digitsOnly = (s: string) => s.replace(/[\s-]/g, '');

/** What an idempotency key was first used for: a reuse for another request is refused. */
const hashRequest = (request: unknown) =>
  createHash('sha256')
    .update(JSON.stringify(request, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)))
    .digest('hex');

/** A charge whose outcome the test card decided, to be recorded under its key. */
interface DecidedCharge {
  key: string;
  requestHash: string;
  outcome: ChargeResult;
  chargeId: string;
  amountMinor: bigint;
  currency: string;
  behaviour: 'refund_fails' | 'refund_fails_later' | 'normal';
}

export class SandboxAcquirer implements Acquirer {
  readonly name = 'sandbox';
  constructor(private readonly opts: SandboxOptions) {}

  fingerprint(cardNumber: string): string {
    return this.opts.fingerprint(digitsOnly(cardNumber));
  }

  private now() {
    return this.opts.now?.() ?? new Date();
  }

  /**
   * Runs an operation once per idempotency key; later calls get the recorded result. A
   * transaction-scoped advisory lock on the key makes concurrent calls with one key wait for the
   * first instead of moving money twice.
   */
  private async once<T extends object>(key: string, operation: string, request: unknown, run: (tx: DbOrTx) => Promise<T>): Promise<T> {
    const requestHash = hashRequest(request);
    return this.opts.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`sandbox:${key}`}, 0))`);
      const [existing] = await tx.select().from(sandboxOperations).where(eq(sandboxOperations.idempotencyKey, key));
      if (existing) {
        if (existing.operation !== operation || existing.requestHash !== requestHash) {
          throw new Error(`sandbox: idempotency key reused for a different ${operation} request`);
        }
        return existing.result as T;
      }
      const result = await run(tx);
      await tx.insert(sandboxOperations).values({ idempotencyKey: key, operation, requestHash, result: result as Record<string, unknown> });
      return result;
    });
  }

  /** Past its expiry month (or not a month at all). */
  private expired(card: { expMonth: number; expYear: number }): boolean {
    const expiryEnd = Date.UTC(card.expYear, card.expMonth, 1); // first instant after the expiry month
    return !(card.expMonth >= 1 && card.expMonth <= 12) || expiryEnd <= this.now().getTime();
  }

  private check(card: CardInput): ({ ok: true } & CardSummary) | { ok: false; code: 'invalid_card' | 'expired_card' } {
    const number = digitsOnly(card.number);
    const validation = cardValidator.number(number);
    if (!validation.isValid || !validation.card) return { ok: false, code: 'invalid_card' };
    if (this.expired(card)) return { ok: false, code: 'expired_card' };
    if (card.cvc !== undefined && !cardValidator.cvv(card.cvc, validation.card.code.size).isValid) return { ok: false, code: 'invalid_card' };
    return {
      ok: true,
      brand: brandName(validation.card.type),
      last4: number.slice(-4),
      expMonth: card.expMonth,
      expYear: card.expYear,
      fingerprint: this.opts.fingerprint(number),
    };
  }

  async verifyCard(card: CardInput, { idempotencyKey }: { idempotencyKey: string }): Promise<VerifyResult> {
    const checked = this.check(card);
    // The idempotency record holds the outcome only, never the card.
    return this.once(idempotencyKey, 'verify', { fp: checked.ok ? checked.fingerprint : checked.code }, async (tx): Promise<VerifyResult> => {
      if (!checked.ok) return { status: 'declined', code: checked.code, message: declineMessages[checked.code] };
      const { ok: _ok, ...summary } = checked;
      const decline = testCards[digitsOnly(card.number)]?.decline;
      if (decline) return { status: 'declined', code: decline, message: declineMessages[decline], ...summary };
      const token = newId('tok');
      await tx.insert(sandboxVault).values({ token, numberEnc: this.opts.vaultSealer.seal(digitsOnly(card.number)), ...summary });
      return { status: 'verified', token, ...summary };
    });
  }

  async charge(
    req: { source: ChargeSource; amountMinor: bigint; currency: string; description?: string },
    { idempotencyKey }: { idempotencyKey: string },
  ): Promise<ChargeResult> {
    if ('method' in req.source) {
      // A local method the customer authorised on a sandbox page: money moves, no card to check.
      const chargeId = newId('ch');
      const [result] = await this.record([
        {
          key: idempotencyKey,
          requestHash: hashRequest({ method: req.source.method, amount: req.amountMinor, currency: req.currency }),
          outcome: { status: 'succeeded', chargeId, method: req.source.method },
          chargeId,
          amountMinor: req.amountMinor,
          currency: req.currency,
          behaviour: 'normal',
        },
      ]);
      return result!;
    }
    if ('token' in req.source) {
      const [result] = await this.chargeVaulted([{ token: req.source.token, amountMinor: req.amountMinor, currency: req.currency, idempotencyKey }]);
      return result!;
    }
    const checked = this.check(req.source.card);
    if (!checked.ok) return { status: 'declined', code: checked.code, message: declineMessages[checked.code] };
    const { ok: _ok, ...summary } = checked;
    const [result] = await this.record([this.decide(digitsOnly(req.source.card.number), summary, false, { ...req, idempotencyKey })]);
    return result!;
  }

  /**
   * Charges of vaulted cards (scheduled charges), each under its own idempotency key, in two round
   * trips however many there are: the vault rows in one query, the ledger in one call. The
   * outcome of each is what `charge` with that token and key gives.
   */
  chargeSavedCards(reqs: Array<{ token: string; amountMinor: bigint; currency: string; idempotencyKey: string }>): Promise<ChargeResult[]> {
    return this.chargeVaulted(reqs);
  }

  private async chargeVaulted(reqs: Array<{ token: string; amountMinor: bigint; currency: string; idempotencyKey: string }>): Promise<ChargeResult[]> {
    if (reqs.length === 0) return [];
    const tokens = [...new Set(reqs.map((r) => r.token))];
    const vault = new Map((await this.opts.db.select().from(sandboxVault).where(inArray(sandboxVault.token, tokens))).map((v) => [v.token, v]));
    const results: ChargeResult[] = [];
    const pending: Array<{ n: number; charge: DecidedCharge }> = [];
    for (const [n, req] of reqs.entries()) {
      const vaulted = vault.get(req.token);
      if (!vaulted) {
        results[n] = { status: 'declined', code: 'unknown_token', message: declineMessages.unknown_token };
        continue;
      }
      // The number was checked when it was vaulted, and the row keeps what checking it gave (brand,
      // last4, fingerprint): only the expiry can have changed since.
      if (this.expired(vaulted)) {
        results[n] = { status: 'declined', code: 'expired_card', message: declineMessages.expired_card };
        continue;
      }
      const summary: CardSummary = {
        brand: vaulted.brand,
        last4: vaulted.last4,
        expMonth: vaulted.expMonth,
        expYear: vaulted.expYear,
        fingerprint: vaulted.fingerprint,
      };
      pending.push({ n, charge: this.decide(this.opts.vaultSealer.open(vaulted.numberEnc), summary, true, req) });
    }
    const recorded = await this.record(pending.map((p) => p.charge));
    for (const [i, { n }] of pending.entries()) results[n] = recorded[i]!;
    return results;
  }

  /** The outcome the test card gives (not yet recorded). */
  private decide(number: string, summary: CardSummary, stored: boolean, req: { amountMinor: bigint; currency: string; idempotencyKey: string }): DecidedCharge {
    const behaviour = testCards[number];
    const decline = behaviour?.decline ?? (stored ? behaviour?.declineStoredCharges : undefined);
    const chargeId = newId('ch');
    return {
      key: req.idempotencyKey,
      requestHash: hashRequest({ fp: summary.fingerprint, amount: req.amountMinor, currency: req.currency }),
      outcome: decline ? { status: 'declined', code: decline, message: declineMessages[decline], ...summary } : { status: 'succeeded', chargeId, ...summary },
      chargeId,
      amountMinor: req.amountMinor,
      currency: req.currency,
      behaviour: behaviour?.refundFails ? 'refund_fails' : behaviour?.refundFailsLater ? 'refund_fails_later' : 'normal',
    };
  }

  /**
   * Records charges once per key in one call (`paylink_sandbox_charge` per row, drizzle/0008): a key
   * seen before returns its first outcome. Keys are taken in sorted order, so two batches that
   * share keys (a recovery racing the first attempt) cannot deadlock on their advisory locks.
   */
  private async record(charges: DecidedCharge[]): Promise<ChargeResult[]> {
    if (charges.length === 0) return [];
    const order = charges.map((_c, i) => i).sort((a, b) => (charges[a]!.key < charges[b]!.key ? -1 : charges[a]!.key > charges[b]!.key ? 1 : 0));
    const batch = order.map((i) => {
      const c = charges[i]!;
      return { k: c.key, h: c.requestHash, o: c.outcome, c: c.chargeId, a: c.amountMinor.toString(), cur: c.currency, b: c.behaviour };
    });
    const recorded = await this.opts.db.execute(
      sql`select paylink_sandbox_charge(e->>'k', e->>'h', e->'o', e->>'c', (e->>'a')::bigint, e->>'cur', e->>'b') as outcome
        from jsonb_array_elements(${JSON.stringify(batch)}::jsonb) with ordinality as t(e, n)
        order by n`,
    );
    const rows = (recorded as unknown as { rows: Array<{ outcome: ChargeResult }> }).rows;
    const results: ChargeResult[] = [];
    for (const [j, i] of order.entries()) results[i] = rows[j]!.outcome;
    return results;
  }

  /**
   * One round trip: the ledger steps run in the database as `paylink_sandbox_refund`
   * (drizzle/0007_refund_version.sql), under the same advisory lock and idempotency record as
   * `once`, so the sandbox costs what a real acquirer's single HTTP call costs.
   */
  async refund(req: { chargeId: string; amountMinor: bigint; currency: string }, { idempotencyKey }: { idempotencyKey: string }): Promise<RefundResult> {
    const requestHash = hashRequest(req);
    const result = await this.opts.db.execute(
      sql`select paylink_sandbox_refund(${idempotencyKey}, ${requestHash}, ${req.chargeId}, ${req.amountMinor.toString()}::bigint, ${req.currency}, ${newId('re')}) as outcome`,
    );
    return (result as unknown as { rows: Array<{ outcome: RefundResult }> }).rows[0]!.outcome;
  }
}
