import { createHash } from 'node:crypto';
import cardValidator from 'card-validator';
import { eq, sql } from 'drizzle-orm';
import { newId, type Sealer } from '../crypto.ts';
import type { Db, DbOrTx } from '../db/client.ts';
import { sandboxOperations, sandboxVault } from '../db/schema.ts';
import { type Acquirer, type CardInput, type CardSummary, type ChargeResult, declineMessages, type RefundResult, type VerifyResult } from './acquirer.ts';
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

  private check(card: CardInput): ({ ok: true } & CardSummary) | { ok: false; code: 'invalid_card' | 'expired_card' } {
    const number = digitsOnly(card.number);
    const validation = cardValidator.number(number);
    if (!validation.isValid || !validation.card) return { ok: false, code: 'invalid_card' };
    const now = this.now();
    const expiryEnd = Date.UTC(card.expYear, card.expMonth, 1); // first instant after the expiry month
    if (!(card.expMonth >= 1 && card.expMonth <= 12) || expiryEnd <= now.getTime()) return { ok: false, code: 'expired_card' };
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
    req: { source: { card: CardInput } | { token: string }; amountMinor: bigint; currency: string; description?: string },
    { idempotencyKey }: { idempotencyKey: string },
  ): Promise<ChargeResult> {
    let summary: CardSummary;
    let number: string;
    let stored = false;
    if ('token' in req.source) {
      const [vaulted] = await this.opts.db.select().from(sandboxVault).where(eq(sandboxVault.token, req.source.token));
      if (!vaulted) return { status: 'declined', code: 'unknown_token', message: declineMessages.unknown_token };
      number = this.opts.vaultSealer.open(vaulted.numberEnc);
      const checked = this.check({ number, expMonth: vaulted.expMonth, expYear: vaulted.expYear });
      if (!checked.ok) return { status: 'declined', code: checked.code, message: declineMessages[checked.code] };
      const { ok: _ok, ...rest } = checked;
      summary = rest;
      stored = true;
    } else {
      const checked = this.check(req.source.card);
      if (!checked.ok) return { status: 'declined', code: checked.code, message: declineMessages[checked.code] };
      const { ok: _ok, ...rest } = checked;
      summary = rest;
      number = digitsOnly(req.source.card.number);
    }
    const request = { fp: summary.fingerprint, amount: req.amountMinor, currency: req.currency };
    const behaviour = testCards[number];
    const decline = behaviour?.decline ?? (stored ? behaviour?.declineStoredCharges : undefined);
    const chargeId = newId('ch');
    const outcome: ChargeResult = decline
      ? { status: 'declined', code: decline, message: declineMessages[decline], ...summary }
      : { status: 'succeeded', chargeId, ...summary };
    // One round trip (drizzle/0008_sandbox_charge_call.sql): the first outcome for this key wins.
    const recorded = await this.opts.db.execute(
      sql`select paylink_sandbox_charge(${idempotencyKey}, ${hashRequest(request)}, ${JSON.stringify(outcome)}::jsonb, ${chargeId}, ${req.amountMinor.toString()}::bigint, ${req.currency}, ${behaviour?.refundFails ? 'refund_fails' : behaviour?.refundFailsLater ? 'refund_fails_later' : 'normal'}) as outcome`,
    );
    return (recorded as unknown as { rows: Array<{ outcome: ChargeResult }> }).rows[0]!.outcome;
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
