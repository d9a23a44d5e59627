import { invalidFields, type Messages } from '../domain/errors.ts';
import { MoneyError, parseAmount } from '../domain/money.ts';
import type { PromotionPatch } from '../domain/promotions/manage.ts';
import { CODE_PATTERN, normalizeCode } from '../domain/promotions/rules.ts';
import type { Discount } from '../schemas/link-sale.ts';
import type { PromotionCreate, PromotionCreateBody, PromotionUpdateBody } from '../schemas/promotion.ts';

/**
 * The promotions API's wire body (src/schemas/promotion.ts) as the domain's input: the code's
 * form checked and a fixed discount's decimal amount turned into minor units of its currency. The
 * console's form reads through the same mapping (src/api/promotion-form.ts), so both doors refuse
 * alike, every bad field at once.
 */
export function promotionCreateOf(body: PromotionCreateBody): PromotionCreate {
  const messages: Messages = {};
  const code = normalizeCode(body.code);
  if (!CODE_PATTERN.test(code)) messages.code = ['must be 3 to 32 letters, digits, - or _, starting with a letter or digit'];
  let discount: Discount | undefined;
  if (body.discount.kind === 'percent') discount = body.discount;
  else {
    try {
      const money = parseAmount(body.discount.amount, body.discount.currency);
      discount = { kind: 'fixed', minor: money.minor.toString(), currency: money.currency };
    } catch (error) {
      if (!(error instanceof MoneyError)) throw error;
      const field = /currency/.test(error.message) ? 'discount.currency' : 'discount.amount';
      messages[field] = [field === 'discount.currency' ? 'is not a currency paylink takes (a three-letter code such as PHP)' : error.message];
    }
  }
  if (Object.keys(messages).length > 0 || !discount) throw invalidFields(messages);
  return {
    code,
    discount,
    link_ids: body.link_ids ?? undefined,
    valid_from: body.valid_from ? new Date(body.valid_from) : undefined,
    valid_until: body.valid_until ? new Date(body.valid_until) : undefined,
    max_redemptions: body.max_redemptions ?? undefined,
    once_per_email: body.once_per_email,
  };
}

const instantOf = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : new Date(v));

export function promotionPatchOf(body: PromotionUpdateBody): PromotionPatch {
  const patch: PromotionPatch = {
    linkIds: body.link_ids,
    validFrom: instantOf(body.valid_from),
    validUntil: instantOf(body.valid_until),
    maxRedemptions: body.max_redemptions,
    active: body.active,
  };
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as PromotionPatch;
}
