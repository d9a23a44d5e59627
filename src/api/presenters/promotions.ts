import type { PromotionRow } from '../../db/schema.ts';
import { formatDecimal } from '../../domain/money.ts';
import type { Page } from '../../domain/pagination.ts';
import type { PageView } from '../../schemas/pagination.ts';
import type { PromotionView } from '../../schemas/promotion.ts';
import { pageView } from './pagination.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A promotion code as the API shows it: a fixed discount as a decimal in its currency. */
export function promotionView(p: PromotionRow): PromotionView {
  return {
    id: p.id,
    code: p.code,
    discount:
      p.discount.kind === 'percent'
        ? { kind: 'percent', percent: p.discount.percent }
        : { kind: 'fixed', amount: formatDecimal(BigInt(p.discount.minor), p.discount.currency), currency: p.discount.currency },
    link_ids: p.linkIds ?? null,
    valid_from: iso(p.validFrom),
    valid_until: iso(p.validUntil),
    max_redemptions: p.maxRedemptions,
    redeemed: p.redeemed,
    once_per_email: p.oncePerEmail,
    active: p.active,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

export const promotionPageView = (page: Page<PromotionRow>): PageView<PromotionView> => pageView(page, promotionView, (p) => p.id);
