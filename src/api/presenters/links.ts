import type { Link } from '../../db/schema.ts';
import { saleSettingsOf } from '../../domain/links/editor-sale.ts';
import { isDynamicOnly } from '../../domain/links/form.ts';
import { itemImageUrl } from '../../domain/links/item-images.ts';
import { logoUrl } from '../../domain/links/service.ts';
import { formatDecimal } from '../../domain/money.ts';
import type { Page } from '../../domain/pagination.ts';
import type { LinkView } from '../../schemas/link.ts';
import type { PageView } from '../../schemas/pagination.ts';
import { pageView } from './pagination.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A link as the API shows it; `origin` makes its page address absolute. */
export function linkView(link: Link, origin: string): LinkView {
  const money = (minor: bigint | null) => (minor === null ? null : formatDecimal(minor, link.currency));
  const logo = logoUrl(link.logoAssetId);
  const sale = saleSettingsOf(link);
  return {
    id: link.id,
    slug: link.slug,
    url: `${origin}/pay/${link.slug}`,
    kind: isDynamicOnly(link) ? 'dynamic' : 'static',
    active: link.active,
    title: link.title,
    description: link.description,
    currency: link.currency,
    amount: money(link.amountMinor),
    min_amount: money(link.minAmountMinor),
    max_amount: money(link.maxAmountMinor),
    brand_color: link.brandColor,
    logo_url: logo ? `${origin}${logo}` : null,
    labels: link.labels,
    fields: link.fields,
    callback_url: link.callbackUrl,
    expires_at: iso(link.expiresAt),
    max_payments: link.maxPayments,
    success_url: link.successUrl,
    cancel_url: link.cancelUrl,
    locale: link.locale,
    payment_methods: link.paymentMethods,
    questions: sale.questions,
    items: sale.items.map((item, i) => {
      const image = itemImageUrl(link.items[i] ?? {});
      return { ...item, image_url: image ? `${origin}${image}` : null };
    }),
    tip: sale.tip,
    promotion_codes: sale.promotionCodes,
    subscription: link.subscription,
    created_at: link.createdAt.toISOString(),
    updated_at: link.updatedAt.toISOString(),
  };
}

export const linkPageView = (page: Page<Link>, origin: string): PageView<LinkView> =>
  pageView(
    page,
    (l) => linkView(l, origin),
    (l) => l.id,
  );
