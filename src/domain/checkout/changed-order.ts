import { and, eq, isNull } from 'drizzle-orm';
import type { Connector } from '../../acquirer/connector.ts';
import type { Tx } from '../../db/client.ts';
import { type CheckoutSession, checkoutSessions, promotionRedemptions } from '../../db/schema.ts';
import type { PaymentSale } from '../../schemas/link-sale.ts';
import type { DomainContext } from '../context.ts';
import { DomainError } from '../errors.ts';
import { formatMoney } from '../money.ts';
import { releaseRedemption } from '../promotions/redemptions.ts';
import type { SaleChoice } from './sale.ts';
import { PROCESSING_LEASE_MS } from './sessions.ts';

/**
 * A customer who comes back to an attempt they started (a card step left, a QR code not scanned)
 * and changes the order on the page (a quantity, the tip, the code) must never pay the first
 * order's total: the attempt at the provider was made for it. So an attempt is resumed only for the
 * same total and sale; for another order the unpaid attempt is ended (its code given back) and a
 * new one starts with a key of its own, which redeems the new code. When the first attempt cannot
 * be ended safely (a provider page still payable, an answer still unknown) the customer is told to
 * finish or wait, and nothing is charged for the new order meanwhile.
 */

export interface Order {
  amountMinor: bigint;
  sale: PaymentSale | null;
}

/** JSON with its keys sorted: a sale read back from jsonb keeps no key order. */
const canonical = (value: unknown): string =>
  Array.isArray(value)
    ? `[${value.map(canonical).join(',')}]`
    : typeof value === 'object' && value !== null
      ? `{${Object.keys(value)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
          .join(',')}}`
      : JSON.stringify(value ?? null);

/** Whether an attempt was made for this order: the same total, lines, code, tip and answers. */
export const sameOrder = (attempt: { amountMinor: string; sale?: PaymentSale | null }, order: Order): boolean =>
  attempt.amountMinor === order.amountMinor.toString() && canonical(attempt.sale ?? null) === canonical(order.sale);

const waitingError = (amount: string) =>
  new DomainError('ER.03.24', 'Payment already in progress', {
    messages: {
      '(request)': [
        `A payment of ${amount} you started is still open with the payment provider: finish it there, or wait until it ends, to pay for what the page shows now.`,
      ],
    },
    say: 'refusal.in_progress',
  });

/**
 * Before a provider card attempt (PayMongo's or Stripe's form), once the current attempt's lease has
 * passed: that attempt, made for another order and not yet paid, is ended so the claim starts a new one. An attempt the
 * provider settled meanwhile is recorded (the claim then says it is paid); one still at the
 * provider's page (3-D Secure, PayMongo's hosted page) is left to finish or expire.
 */
export async function endChangedProviderAttempt(
  app: DomainContext,
  connector: Pick<Connector, 'syncPayment'>,
  session: CheckoutSession,
  order: Order,
  settle: (state: Awaited<ReturnType<Connector['syncPayment']>>) => Promise<unknown>,
): Promise<void> {
  const attempt = session.providerAttempt;
  if (!session.processingAt || !session.providerPaymentId || !attempt || attempt.attempt !== session.attempts) return;
  // Within its lease the browser may be paying it at this moment: the claim refuses the new order instead.
  if (app.now().getTime() - session.processingAt.getTime() < PROCESSING_LEASE_MS) return;
  if ((attempt.method && attempt.method !== 'card') || sameOrder(attempt, order)) return;
  const amount = formatMoney(BigInt(attempt.amountMinor), session.currency);
  // PayMongo's own page stays payable by its address: never left behind unwatched.
  if (attempt.checkoutUrl) throw waitingError(amount);
  const state = await connector.syncPayment(session.providerPaymentId);
  if (state.status === 'requires_payment_method' || (state.status === 'declined' && !state.providerPaymentId)) {
    await endAttempt(app, session, attempt.attempt);
    return;
  }
  if (state.status === 'requires_action') throw waitingError(amount);
  await settle(state);
}

/** Ends an unpaid attempt still the session's current one (checked under its lock) and gives back its code. */
async function endAttempt(app: DomainContext, session: CheckoutSession, attempt: number): Promise<void> {
  await app.db.transaction(async (tx) => {
    const [row] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, session.id)).for('update');
    if (!row?.processingAt || row.attempts !== attempt || row.status !== 'open') return;
    await tx.update(checkoutSessions).set({ processingAt: null }).where(eq(checkoutSessions.id, session.id));
    await releaseRedemption(tx, `checkout:${session.id}:${attempt}`, app.now());
  });
}

/**
 * For an interrupted card attempt resumed under its own key (its answer unknown): whether the
 * customer's code is the one the attempt holds. Another code cannot be swapped in, since the
 * first may have been charged; throws ER.03.24 saying so.
 */
export async function ensureSameCode(tx: Tx, reference: string, redemption: SaleChoice['redemption'] | undefined): Promise<void> {
  const held = await tx
    .select({ promotionId: promotionRedemptions.promotionId, discountMinor: promotionRedemptions.discountMinor })
    .from(promotionRedemptions)
    .where(and(eq(promotionRedemptions.reference, reference), isNull(promotionRedemptions.releasedAt)));
  const same =
    held.length === (redemption ? 1 : 0) &&
    (!redemption || (held[0]!.promotionId === redemption.promotionId && held[0]!.discountMinor === redemption.discountMinor));
  if (same) return;
  throw new DomainError('ER.03.24', 'Payment already in progress', {
    messages: {
      '(request)': [
        'We are still confirming your previous payment attempt, made with other choices. Try again with the same choices and card, or wait a moment and reload the page.',
      ],
    },
    say: 'refusal.in_progress',
  });
}
