import { DEFAULT_PROMOTION_ZONE } from '../api/promotion-form.ts';
import type { PromotionRow } from '../db/schema.ts';
import { formatMoney } from '../domain/money.ts';

/** A promotion code in the console's words: "10 % off", "₱50.00 off", its window in Philippine time, "3 of 100". */

export const discountInWords = (d: PromotionRow['discount']) =>
  d.kind === 'percent' ? `${d.percent} % off` : `${formatMoney(BigInt(d.minor), d.currency)} off`;

const zoned = new Intl.DateTimeFormat('en-PH', { dateStyle: 'medium', timeStyle: 'short', timeZone: DEFAULT_PROMOTION_ZONE });

/** When it applies, in the console's zone (the zone is named on the page). */
export function windowInWords(p: Pick<PromotionRow, 'validFrom' | 'validUntil'>): string {
  if (!p.validFrom && !p.validUntil) return 'Always';
  if (!p.validUntil) return `From ${zoned.format(p.validFrom!)}`;
  if (!p.validFrom) return `Until ${zoned.format(p.validUntil)}`;
  return `${zoned.format(p.validFrom)} – ${zoned.format(p.validUntil)}`;
}

export const redeemedInWords = (p: Pick<PromotionRow, 'redeemed' | 'maxRedemptions'>) =>
  p.maxRedemptions === null ? `${p.redeemed} (no limit)` : `${p.redeemed} of ${p.maxRedemptions}`;

/** The links it applies to, by title (a link no longer listed by its id). */
export function linksInWords(linkIds: readonly string[] | null, titles: ReadonlyMap<string, string>): string {
  if (!linkIds) return 'All links';
  return linkIds.map((id) => titles.get(id) ?? id).join(', ');
}

/** Whether customers can use it now, in a word. */
export function promotionState(p: Pick<PromotionRow, 'active' | 'validFrom' | 'validUntil' | 'maxRedemptions' | 'redeemed'>, now: Date): string {
  if (!p.active) return 'Inactive';
  if (p.validUntil && now >= p.validUntil) return 'Ended';
  if (p.validFrom && now < p.validFrom) return 'Scheduled';
  if (p.maxRedemptions !== null && p.redeemed >= p.maxRedemptions) return 'Used up';
  return 'Active';
}
