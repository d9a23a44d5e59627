import { invalidFields, type Messages, withFieldNames } from '../domain/errors.ts';
import type { PromotionPatch } from '../domain/promotions/manage.ts';
import { parseWith } from '../schemas/parse.ts';
import { type PromotionCreate, promotionCreateBodySchema, promotionUpdateBodySchema } from '../schemas/promotion.ts';
import { promotionCreateOf, promotionPatchOf } from './promotion-input.ts';
import { isTimeZone, utcToZonedTime, zonedTimeToUtc } from './zoned-time.ts';

/**
 * The console's promotion form: its fields as the API's body, so the form and the API refuse
 * alike, and the API's field names back as the form's. Times are typed in a zone the form names
 * (Philippine time unless changed) and stored as UTC.
 */
export const DEFAULT_PROMOTION_ZONE = 'Asia/Manila';

export interface PromotionFormValues {
  code: string;
  discount_kind: 'percent' | 'fixed';
  percent: string;
  amount: string;
  currency: string;
  links_scope: 'all' | 'chosen';
  link_ids: string[];
  valid_from: string;
  valid_until: string;
  time_zone: string;
  max_redemptions: string;
  once_per_email: boolean;
}

export const newPromotionForm = (): PromotionFormValues => ({
  code: '',
  discount_kind: 'percent',
  percent: '',
  amount: '',
  currency: 'PHP',
  links_scope: 'all',
  link_ids: [],
  valid_from: '',
  valid_until: '',
  time_zone: DEFAULT_PROMOTION_ZONE,
  max_redemptions: '',
  once_per_email: false,
});

/** An existing code's settings as the edit form shows them (times in the form's zone). */
export function promotionFormOf(p: {
  code: string;
  linkIds: string[] | null;
  validFrom: Date | null;
  validUntil: Date | null;
  maxRedemptions: number | null;
  oncePerEmail: boolean;
}): PromotionFormValues {
  const local = (d: Date | null) => (d ? (utcToZonedTime(d.toISOString(), DEFAULT_PROMOTION_ZONE) ?? '') : '');
  return {
    ...newPromotionForm(),
    code: p.code,
    links_scope: p.linkIds ? 'chosen' : 'all',
    link_ids: p.linkIds ?? [],
    valid_from: local(p.validFrom),
    valid_until: local(p.validUntil),
    max_redemptions: p.maxRedemptions === null ? '' : String(p.maxRedemptions),
    once_per_email: p.oncePerEmail,
  };
}

export function readPromotionForm(form: FormData): PromotionFormValues {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === 'string' ? v.trim() : '';
  };
  return {
    code: text('code'),
    discount_kind: text('discount_kind') === 'fixed' ? 'fixed' : 'percent',
    percent: text('percent'),
    amount: text('amount'),
    currency: text('currency').toUpperCase() || 'PHP',
    links_scope: text('links_scope') === 'chosen' ? 'chosen' : 'all',
    // The confirm step carries the chosen links as one comma-separated field.
    link_ids: form.getAll('link_ids').flatMap((v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : [])),
    valid_from: text('valid_from'),
    valid_until: text('valid_until'),
    time_zone: text('time_zone') || DEFAULT_PROMOTION_ZONE,
    max_redemptions: text('max_redemptions'),
    once_per_email: form.get('once_per_email') === 'on',
  };
}

/** The values as hidden fields of a confirm step (one value per name). */
export const promotionFormFields = (v: PromotionFormValues): Record<string, string> => ({
  links_scope: v.links_scope,
  link_ids: v.link_ids.join(','),
  valid_from: v.valid_from,
  valid_until: v.valid_until,
  time_zone: v.time_zone,
  max_redemptions: v.max_redemptions,
});

/** A whole number as typed; anything else goes to the schema as it is, to be refused by name. */
const whole = (typed: string) => (/^\d{1,9}$/.test(typed) ? Number(typed) : typed);

function windowOf(v: PromotionFormValues, messages: Messages): { valid_from: string | null; valid_until: string | null } {
  if (!isTimeZone(v.time_zone)) messages.time_zone = ['must be a time zone such as Asia/Manila'];
  const utc = (name: 'valid_from' | 'valid_until') => {
    if (v[name] === '') return null;
    const at = isTimeZone(v.time_zone) ? zonedTimeToUtc(v[name], v.time_zone) : undefined;
    if (!at) messages[name] = ['must be a date and time such as 2026-12-01T00:00'];
    return at ?? null;
  };
  return { valid_from: utc('valid_from'), valid_until: utc('valid_until') };
}

function linksOf(v: PromotionFormValues, messages: Messages): string[] | null {
  if (v.links_scope !== 'chosen') return null;
  if (v.link_ids.length === 0) messages.link_ids = ['must name at least one link: tick some, or choose every link'];
  return v.link_ids.length > 0 ? v.link_ids : null;
}

const FORM_NAMES: Readonly<Record<string, string>> = {
  'discount.kind': 'discount_kind',
  'discount.percent': 'percent',
  'discount.amount': 'amount',
  'discount.currency': 'currency',
  discount: 'discount_kind',
};
export const promotionFormField = (field: string) => FORM_NAMES[field] ?? field;

function refuse(messages: Messages, more: Messages = {}): never {
  throw withFieldNames(invalidFields({ ...more, ...messages }), promotionFormField);
}

export function promotionCreateFromForm(v: PromotionFormValues): PromotionCreate {
  const messages: Messages = {};
  const window = windowOf(v, messages);
  const discount =
    v.discount_kind === 'fixed'
      ? { kind: 'fixed', amount: v.amount, currency: v.currency }
      : { kind: 'percent', percent: v.percent === '' ? undefined : whole(v.percent) };
  const body = {
    code: v.code,
    discount,
    link_ids: linksOf(v, messages),
    ...window,
    max_redemptions: v.max_redemptions === '' ? null : whole(v.max_redemptions),
    once_per_email: v.once_per_email,
  };
  const parsed = parseWith(promotionCreateBodySchema, body);
  if (!parsed.ok) refuse(parsed.messages, messages);
  if (Object.keys(messages).length > 0) refuse(messages);
  try {
    return promotionCreateOf(parsed.value);
  } catch (error) {
    throw withFieldNames(error, promotionFormField);
  }
}

export function promotionPatchFromForm(v: PromotionFormValues): PromotionPatch {
  const messages: Messages = {};
  const body = { link_ids: linksOf(v, messages), ...windowOf(v, messages), max_redemptions: v.max_redemptions === '' ? null : whole(v.max_redemptions) };
  const parsed = parseWith(promotionUpdateBodySchema, body);
  if (!parsed.ok) refuse(parsed.messages, messages);
  if (Object.keys(messages).length > 0) refuse(messages);
  return promotionPatchOf(parsed.value);
}
