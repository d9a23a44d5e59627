import type { RefundCapability } from '../../db/schema.ts';
import { DomainError, invalidFields } from '../errors.ts';
import { formatDecimal, MoneyError, parseAmount } from '../money.ts';

/**
 * The refund rules, as small pure functions with named limits (the shape of hyperswitch's
 * core/refunds/validator.rs). Each returns or throws a DomainError carrying its catalogue code;
 * the service calls them in `checkRefund`'s order while it holds the payment row locked.
 */
export type RefundType = 'full' | 'partial';

export const DEFAULT_REFUND_MAX_COUNT = 10;
export const DEFAULT_REFUND_WINDOW_DAYS = 365;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The parts of a payment the rules read. */
export interface RefundablePayment {
  status: 'succeeded' | 'failed';
  amountMinor: bigint;
  refundedMinor: bigint;
  refundReservedMinor: bigint;
  refundCount: number;
  currency: string;
  cardBrand: string | null;
  paidAt: Date | null;
}

export interface RefundLimits {
  maxCount: number;
  windowDays: number;
}

/** What a new refund may still return: amount − succeeded refunds − refunds in flight. */
export function refundableMinor(p: Pick<RefundablePayment, 'amountMinor' | 'refundedMinor' | 'refundReservedMinor'>): bigint {
  const left = p.amountMinor - p.refundedMinor - p.refundReservedMinor;
  return left > 0n ? left : 0n;
}

/** The decimal-string balances a reply or an event carries. */
export function balances(p: Pick<RefundablePayment, 'amountMinor' | 'refundedMinor' | 'refundReservedMinor' | 'currency'>) {
  return {
    refunded_amount: formatDecimal(p.refundedMinor, p.currency),
    refundable_amount: formatDecimal(refundableMinor(p), p.currency),
    currency: p.currency,
  };
}

/** PARTIAL amounts are parsed exactly in the payment's currency: bad input is 422 ER.02.30 on `amount`. */
export function parseRefundAmount(input: string | number, currency: string): bigint {
  try {
    return parseAmount(input, currency).minor;
  } catch (error) {
    if (error instanceof MoneyError) throw invalidFields({ amount: [error.message] });
    throw error;
  }
}

export function assertPaymentRefundable(p: Pick<RefundablePayment, 'status' | 'paidAt'>): void {
  if (p.status !== 'succeeded' || !p.paidAt) {
    throw new DomainError('ER.20.22', 'Transaction cannot be refunded', {
      messages: { transaction_id: ['was not paid (the payment failed), so there is nothing to refund'] },
    });
  }
}

export function assertRefundTypeAvailable(capability: RefundCapability, type: RefundType, brand: string | null): void {
  const cards = brand ? `${brand} cards` : 'this card';
  if (capability === 'none') {
    throw new DomainError('ER.20.23', 'Refund type not available for this card brand', {
      messages: { transaction_id: [`refunds are not available for ${cards} on your account; contact support to enable them`] },
    });
  }
  if (capability === 'full' && type === 'partial') {
    throw new DomainError('ER.20.23', 'Refund type not available for this card brand', {
      messages: { amount: [`PARTIAL refunds are not available for ${cards} on your account; omit amount to make a FULL refund`] },
    });
  }
}

export function assertWithinRefundWindow(paidAt: Date, now: Date, windowDays: number): void {
  if (now.getTime() - paidAt.getTime() > windowDays * DAY_MS) {
    throw new DomainError('ER.20.25', 'Refund window closed', {
      messages: { transaction_id: [`was paid more than ${windowDays} days ago; refunds are accepted for ${windowDays} days after payment`] },
    });
  }
}

export function assertSomethingLeft(p: RefundablePayment): void {
  if (refundableMinor(p) > 0n) return;
  const inFlight = p.refundReservedMinor > 0n ? ` (${formatDecimal(p.refundReservedMinor, p.currency)} ${p.currency} is being refunded right now)` : '';
  throw new DomainError('ER.20.20', 'Unable to process client request because the transaction is already refunded', {
    messages: { transaction_id: [`has already been fully refunded${inFlight}; nothing is left to refund`] },
    data: balances(p),
  });
}

export function assertUnderRefundCount(refundCount: number, maxCount: number): void {
  if (refundCount >= maxCount) {
    throw new DomainError('ER.20.24', 'Refund limit reached', {
      messages: { transaction_id: [`already has ${refundCount} refunds, the most one transaction may have (${maxCount})`] },
    });
  }
}

export function assertAmountWithinRefundable(amountMinor: bigint, p: RefundablePayment): void {
  const left = refundableMinor(p);
  if (amountMinor > left) {
    throw new DomainError('ER.20.21', 'Refund amount exceeds the refundable amount', {
      messages: { amount: [`exceeds what is still refundable: at most ${formatDecimal(left, p.currency)} ${p.currency} remains`] },
      data: balances(p),
    });
  }
}

/**
 * Every business rule, in the order the answers are most useful: a failed payment, the
 * account's capability, the window, then the balance (ER.20.20 before the count, as the spec's
 * rule 2), the count, and the amount. Returns the amount to refund in minor units.
 */
export function checkRefund(
  p: RefundablePayment,
  request: { type: RefundType; amountMinor?: bigint },
  ctx: { capability: RefundCapability; limits: RefundLimits; now: Date },
): bigint {
  assertPaymentRefundable(p);
  assertRefundTypeAvailable(ctx.capability, request.type, p.cardBrand);
  assertWithinRefundWindow(p.paidAt!, ctx.now, ctx.limits.windowDays);
  assertSomethingLeft(p);
  assertUnderRefundCount(p.refundCount, ctx.limits.maxCount);
  if (request.type === 'full') return refundableMinor(p);
  assertAmountWithinRefundable(request.amountMinor!, p);
  return request.amountMinor!;
}

/** A staff member's refunds are summed over this many hours for the daily cap (a rolling day, the same in every time zone). */
export const STAFF_CAP_WINDOW_HOURS = 24;

/** What an owner lets one staff member refund in a currency; null is no cap. */
export interface StaffCap {
  perRefundMinor: bigint | null;
  perDayMinor: bigint | null;
}

/**
 * A staff member's refund within the owner's caps: at most `perRefundMinor` at once (ER.20.40),
 * and with what they refunded in the last STAFF_CAP_WINDOW_HOURS (pending or succeeded) at most
 * `perDayMinor` (ER.20.41). Owners and the API are not capped, so they never call this.
 */
export function assertWithinStaffCap(amountMinor: bigint, currency: string, cap: StaffCap | undefined, refundedInWindowMinor: bigint): void {
  if (!cap) return;
  const money = (minor: bigint) => `${formatDecimal(minor, currency)} ${currency}`;
  if (cap.perRefundMinor !== null && amountMinor > cap.perRefundMinor) {
    throw new DomainError('ER.20.40', 'Refund above your per-refund limit', {
      messages: {
        amount: [`is above what staff may refund at once (${money(cap.perRefundMinor)}): refund less, or ask an owner to make this refund`],
      },
      data: { per_refund_limit: formatDecimal(cap.perRefundMinor, currency), currency },
    });
  }
  if (cap.perDayMinor !== null && refundedInWindowMinor + amountMinor > cap.perDayMinor) {
    const left = cap.perDayMinor > refundedInWindowMinor ? cap.perDayMinor - refundedInWindowMinor : 0n;
    throw new DomainError('ER.20.41', 'Refund above your daily limit', {
      messages: {
        amount: [
          `would take your refunds in the last ${STAFF_CAP_WINDOW_HOURS} hours above the ${money(cap.perDayMinor)} staff may refund in a day: ${money(refundedInWindowMinor)} refunded so far, ${money(left)} left; ask an owner to make this refund`,
        ],
      },
      data: { daily_limit: formatDecimal(cap.perDayMinor, currency), refunded_today: formatDecimal(refundedInWindowMinor, currency), currency },
    });
  }
}

/** A console refund confirmed at one amount is refused if the amount it would make now differs (another refund came between). */
export function assertConfirmedAmount(amountMinor: bigint, confirmedMinor: bigint | undefined, currency: string): void {
  if (confirmedMinor === undefined || confirmedMinor === amountMinor) return;
  throw new DomainError('ER.20.42', 'The refund changed since it was confirmed', {
    messages: {
      amount: [
        `was confirmed as ${formatDecimal(confirmedMinor, currency)} ${currency} but would now be ${formatDecimal(amountMinor, currency)} ${currency} (another refund was made meanwhile): nothing was refunded, review it again`,
      ],
    },
  });
}
