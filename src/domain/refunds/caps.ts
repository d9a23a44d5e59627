import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { consoleUsers, refunds, type StaffRefundCap, staffRefundCaps } from '../../db/schema.ts';
import { parseWith } from '../../schemas/parse.ts';
import { staffRefundCapSchema } from '../../schemas/staff-refund-cap.ts';
import { type Actor, recordAudit } from '../accounts/audit.ts';
import { canManageAccount } from '../accounts/rules.ts';
import type { DomainContext } from '../context.ts';
import { invalidFields, notFound } from '../errors.ts';
import { formatDecimal, isCurrency, MoneyError, parseAmount } from '../money.ts';
import { assertWithinStaffCap, STAFF_CAP_WINDOW_HOURS, type StaffCap } from './rules.ts';

/**
 * Staff refund caps: an owner limits what each staff member may refund, per currency, at once
 * and in any 24 hours. Checked when a staff member reviews a refund (so the confirm step already
 * says no) and again in tx1 under the staff member's own console_users row lock, so two of their
 * refunds at once (on one payment or two) cannot pass the daily cap together: the second waits
 * for the first's reservation and then sums it. The lock is the user's, not the integrator's,
 * because the cap is per staff member and refunds insert rows that reference the integrator.
 */

/** The account's caps, by currency. */
export async function listStaffRefundCaps(app: DomainContext, integratorId: string): Promise<StaffRefundCap[]> {
  return app.db.select().from(staffRefundCaps).where(eq(staffRefundCaps.integratorId, integratorId)).orderBy(asc(staffRefundCaps.currency));
}

async function capFor(tx: DbOrTx, integratorId: string, currency: string): Promise<StaffCap | undefined> {
  const [cap] = await tx
    .select()
    .from(staffRefundCaps)
    .where(and(eq(staffRefundCaps.integratorId, integratorId), eq(staffRefundCaps.currency, currency)));
  return cap;
}

/** What a console user asked to refund in a currency since `since`: pending and succeeded refunds (a failed one returned nothing). */
async function refundedSince(tx: DbOrTx, userId: string, currency: string, since: Date): Promise<bigint> {
  const [row] = await tx
    .select({ total: sql<string>`coalesce(sum(${refunds.amountMinor}), 0)` })
    .from(refunds)
    .where(
      and(
        eq(refunds.requestedByUserId, userId),
        eq(refunds.currency, currency),
        gt(refunds.createdAt, since),
        inArray(refunds.status, ['pending', 'succeeded']),
      ),
    );
  return BigInt(row?.total ?? 0);
}

const windowStart = (now: Date) => new Date(now.getTime() - STAFF_CAP_WINDOW_HOURS * 3_600_000);

/** Whether the actor's refunds are capped: a console user acting as staff (owners and the API are not). */
export const isCappedActor = (actor: Actor | undefined): actor is Actor & { userId: string } =>
  actor?.role !== undefined && !canManageAccount(actor.role) && actor.userId !== null;

/** tx1's lock for a capped refund, taken before the payment's: the staff member's own row, so their refunds reserve one at a time. */
export async function lockStaffMember(tx: DbOrTx, actor: Actor & { userId: string }): Promise<void> {
  await tx.select({ id: consoleUsers.id }).from(consoleUsers).where(eq(consoleUsers.id, actor.userId)).for('no key update');
}

/**
 * Throws ER.20.40 / ER.20.41 when a staff member's refund of `amountMinor` is above a cap. In tx1
 * it runs after lockStaffMember, so the sum it reads cannot change before the refund is written.
 */
export async function assertStaffCap(
  tx: DbOrTx,
  actor: Actor | undefined,
  refund: { integratorId: string; currency: string; amountMinor: bigint; now: Date },
): Promise<void> {
  if (!isCappedActor(actor)) return;
  const cap = await capFor(tx, refund.integratorId, refund.currency);
  if (!cap) return;
  const spent = cap.perDayMinor === null ? 0n : await refundedSince(tx, actor.userId, refund.currency, windowStart(refund.now));
  assertWithinStaffCap(refund.amountMinor, refund.currency, cap, spent);
}

/** A cap as the owner's form shows it: decimal strings in the currency ('' for no cap). */
export const capAsDecimals = (cap: StaffRefundCap) => ({
  currency: cap.currency,
  perRefund: cap.perRefundMinor === null ? '' : formatDecimal(cap.perRefundMinor, cap.currency),
  perDay: cap.perDayMinor === null ? '' : formatDecimal(cap.perDayMinor, cap.currency),
});

function minorOrNull(value: string, currency: string, field: string, messages: Record<string, string[]>): bigint | null {
  if (value === '') return null;
  try {
    return parseAmount(value, currency).minor;
  } catch (error) {
    if (!(error instanceof MoneyError)) throw error;
    messages[field] = [error.message];
    return null;
  }
}

/**
 * Sets (or, with both amounts empty, removes) the staff refund cap of a currency. Owners only;
 * amounts are decimals in the currency, each above zero; audited with the values in words.
 */
export async function setStaffRefundCap(
  app: DomainContext,
  actor: Actor & { integratorId: string },
  input: { currency: string; per_refund: string; per_day: string },
): Promise<{ currency: string; removed: boolean }> {
  if (!actor.role || !canManageAccount(actor.role)) throw notFound('(request)', 'This page');
  const parsed = parseWith(staffRefundCapSchema, input);
  if (!parsed.ok) throw invalidFields(parsed.messages);
  const { currency, per_refund, per_day } = parsed.value;
  const messages: Record<string, string[]> = {};
  if (!isCurrency(currency)) throw invalidFields({ currency: ['is not an ISO 4217 currency code'] });
  const perRefundMinor = minorOrNull(per_refund, currency, 'per_refund', messages);
  const perDayMinor = minorOrNull(per_day, currency, 'per_day', messages);
  if (perRefundMinor !== null && perDayMinor !== null && perRefundMinor > perDayMinor) {
    messages.per_refund = ['must not be more than the daily limit: one refund could never reach it'];
  }
  if (Object.keys(messages).length > 0) throw invalidFields(messages);
  const now = app.now();
  const removed = perRefundMinor === null && perDayMinor === null;
  const words = (minor: bigint | null) => (minor === null ? 'no limit' : `${formatDecimal(minor, currency)} ${currency}`);
  await app.db.transaction(async (tx) => {
    const key = and(eq(staffRefundCaps.integratorId, actor.integratorId), eq(staffRefundCaps.currency, currency));
    if (removed) await tx.delete(staffRefundCaps).where(key);
    else
      await tx
        .insert(staffRefundCaps)
        .values({ integratorId: actor.integratorId, currency, perRefundMinor, perDayMinor, updatedAt: now })
        .onConflictDoUpdate({ target: [staffRefundCaps.integratorId, staffRefundCaps.currency], set: { perRefundMinor, perDayMinor, updatedAt: now } });
    const target = removed ? `${currency}: no limits` : `${currency}: per refund ${words(perRefundMinor)}, per day ${words(perDayMinor)}`;
    await recordAudit(tx, actor, 'refund_caps.changed', target, now);
  });
  return { currency, removed };
}
