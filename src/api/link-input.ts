import { withFieldNames } from '../domain/errors.ts';
import type { LinkPatch, LinkSettings, NewLink } from '../domain/links/editor.ts';
import { type LinkCreate, type LinkUpdate, linkWireField } from '../schemas/link.ts';

/**
 * The links API's snake_case settings (src/schemas/link.ts) as the links editor's settings, and
 * the editor's refusals back under the API's names: the wire format stops here. The console's
 * form reads through the same mapping (src/api/link-form.ts).
 */
export function linkPatchOf(body: LinkUpdate): LinkPatch {
  const patch: { [K in keyof LinkSettings]: LinkSettings[K] | undefined } = {
    title: body.title,
    description: body.description,
    currency: body.currency,
    amount: body.amount,
    minAmount: body.min_amount,
    maxAmount: body.max_amount,
    brandColor: body.brand_color,
    logo: body.logo === undefined ? undefined : body.logo === null ? null : { source: body.logo, baseDir: '/' },
    labels: body.labels,
    fields: body.fields,
    callbackUrl: body.callback_url,
    active: body.active,
    expiresAt: body.expires_at,
    maxPayments: body.max_payments,
    successUrl: body.success_url,
    cancelUrl: body.cancel_url,
    locale: body.locale,
    paymentMethods: body.payment_methods,
    questions: body.questions,
    items: body.items,
    tip: body.tip,
    promotionCodes: body.promotion_codes,
    subscription: body.subscription,
  };
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as LinkPatch;
}

export const newLinkOf = (body: LinkCreate): NewLink => ({
  ...linkPatchOf(body),
  title: body.title,
  currency: body.currency,
  ...(body.slug !== undefined ? { slug: body.slug } : {}),
});

/** Runs a links editor call; a refusal names the API's fields (`min_amount`, `brand_color`, …). */
export async function withWireFields<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw withFieldNames(error, linkWireField);
  }
}
