import type { Discount } from '../../schemas/link-sale.ts';

/**
 * The rules of a promotion code, as pure functions: whether a code the customer typed
 * applies to this payment. The count of redemptions is checked here for a message before paying;
 * the redemption itself is counted in the database under concurrency (never over the maximum), so
 * this check is advice, the database's is the decision.
 */
export interface Promotion {
  id: string;
  code: string;
  discount: Discount;
  /** The links it applies to; null: every link of the merchant. */
  linkIds: readonly string[] | null;
  validFrom: Date | null;
  validUntil: Date | null;
  /** null: no limit. */
  maxRedemptions: number | null;
  redeemed: number;
  /** Each customer e-mail address may redeem it once. */
  oncePerEmail: boolean;
  active: boolean;
}

export type PromotionRefusal = 'inactive' | 'not_yet_valid' | 'expired' | 'used_up' | 'other_link' | 'other_currency' | 'email_needed' | 'already_used';

/** Codes are compared without case and surrounding spaces: "launch10 " is LAUNCH10. */
export const CODE_PATTERN = /^[A-Z0-9][A-Z0-9_-]{2,31}$/;
export const normalizeCode = (typed: string) => typed.trim().toUpperCase();

/** The customer e-mail a once-per-customer code is counted by (case and spaces aside). */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export function promotionRefusal(
  promo: Promotion,
  payment: { now: Date; linkId: string; currency: string; email?: string | null; usedByEmail?: boolean },
): PromotionRefusal | null {
  if (!promo.active) return 'inactive';
  if (promo.validFrom && payment.now < promo.validFrom) return 'not_yet_valid';
  if (promo.validUntil && payment.now >= promo.validUntil) return 'expired';
  if (promo.linkIds && !promo.linkIds.includes(payment.linkId)) return 'other_link';
  if (promo.discount.kind === 'fixed' && promo.discount.currency !== payment.currency) return 'other_currency';
  if (promo.maxRedemptions !== null && promo.redeemed >= promo.maxRedemptions) return 'used_up';
  if (promo.oncePerEmail) {
    if (!payment.email?.trim()) return 'email_needed';
    if (payment.usedByEmail) return 'already_used';
  }
  return null;
}
