import type { Link } from '../../db/schema.ts';
import { type FieldMode, type FieldPath, fieldModes, fieldPaths } from '../../schemas/fields.ts';
import type { Item } from '../../schemas/link-sale.ts';
import type { PaymentMethod } from '../../schemas/payment-method.ts';
import type { DomainContext } from '../context.ts';
import { isCurrency, MoneyError, parseAmount } from '../money.ts';
import type { LinkSettings } from './editor.ts';
import { draftSale, type SaleSettings } from './editor-sale.ts';
import { readLogoSource, validateLogo } from './logos.ts';
import { allowedMethods, defaultMethodsOf } from './payment-methods.ts';
import { logoUrl } from './service.ts';

/**
 * A link as it would be after a save, built in memory for the editor's preview. Unlike a save it
 * refuses nothing: a setting the editor would refuse is shown as the page would show its absence
 * (an amount that is not a number: the customer enters one), so the preview follows the
 * merchant's typing. A new logo goes through the same checks as a saved one (type read from the
 * bytes, SVG sanitised) and is shown as a data: URL; nothing is stored.
 */
export interface LinkDraft {
  link: Link;
  /** Where the page's logo comes from: the stored asset, the unsaved upload (data: URL), or none. */
  logo: string | undefined;
  /** The payment methods its page would offer, in their order (allowedMethods). */
  methods: PaymentMethod[];
}

export const PREVIEW_LINK_ID = 'lnk_preview';

/**
 * An unsaved logo as an image address (data: URL of the checked, sanitised image), for the
 * preview and the editor's thumbnail; undefined when a save would refuse it (the editor names why).
 */
export async function draftLogoUrl(source: string, baseDir = '/'): Promise<string | undefined> {
  try {
    const checked = await validateLogo(await readLogoSource(source, baseDir));
    return `data:${checked.contentType};base64,${checked.bytes.toString('base64')}`;
  } catch {
    return undefined;
  }
}

/**
 * The draft's items with their images: an unsaved upload as its checked data: URL (the page's
 * `itemImageUrl` shows it as it is), a kept one as the saved asset's id, a refused one as none.
 */
async function draftItemImages(items: Item[], given: SaleSettings['items'], current: Link | undefined): Promise<Item[]> {
  const list = Array.isArray(given) ? given : [];
  return Promise.all(
    items.map(async (item) => {
      const source = list.find((i) => i?.id === item.id)?.image;
      // Only an upload is read: the preview never opens a path, whatever the draft holds.
      const upload = typeof source === 'string' && source.startsWith('data:') ? await draftLogoUrl(source) : undefined;
      const image = source === undefined ? current?.items.find((c) => c.id === item.id)?.image : upload;
      return image ? { ...item, image } : item;
    }),
  );
}

export async function draftLink(app: DomainContext, integratorId: string, s: LinkSettings, current?: Link): Promise<LinkDraft> {
  const currency = isCurrency(s.currency) ? s.currency : (current?.currency ?? 'USD');
  const minor = (value: string | null) => {
    if (value === null) return null;
    try {
      return parseAmount(value, currency).minor;
    } catch (error) {
      if (error instanceof MoneyError) return null;
      throw error;
    }
  };
  const amountMinor = minor(s.amount);
  const labels: Record<string, string> = {};
  const fields: Record<string, FieldMode> = {};
  for (const path of fieldPaths as readonly FieldPath[]) {
    const label = s.labels[path]?.trim();
    if (label && label.length <= 80) labels[path] = label;
    const mode = s.fields[path];
    if (mode && (fieldModes as readonly string[]).includes(mode)) fields[path] = mode;
  }
  let logo = s.logo === undefined ? logoUrl(current?.logoAssetId ?? null) : undefined;
  if (s.logo) logo = await draftLogoUrl(s.logo.source, s.logo.baseDir);
  const sale = draftSale(s, currency);
  sale.items = await draftItemImages(sale.items, s.items, current);
  const now = app.now();
  const link: Link = {
    id: current?.id ?? PREVIEW_LINK_ID,
    integratorId,
    slug: current?.slug ?? 'preview',
    title: s.title.trim() || 'Untitled link',
    description: s.description?.trim() || null,
    currency,
    amountMinor,
    minAmountMinor: amountMinor === null ? minor(s.minAmount) : null,
    maxAmountMinor: amountMinor === null ? minor(s.maxAmount) : null,
    brandColor: s.brandColor,
    logoAssetId: null,
    labels,
    fields,
    paymentMethods: s.paymentMethods,
    ...sale,
    subscription: s.subscription,
    callbackUrl: s.callbackUrl,
    active: s.active,
    system: false,
    expiresAt: null,
    maxPayments: s.maxPayments,
    successUrl: s.successUrl,
    cancelUrl: s.cancelUrl,
    locale: s.locale,
    seedSha256: null,
    createdAt: current?.createdAt ?? now,
    updatedAt: now,
  };
  const acquirer = await app.connectors.forIntegrator(integratorId);
  const methods = allowedMethods(link, { defaultPaymentMethods: await defaultMethodsOf(app.db, integratorId) }, acquirer);
  return { link, logo, methods };
}
