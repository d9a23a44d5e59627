import { invalidFields, withFieldNames } from '../domain/errors.ts';
import type { LinkPatch, LinkSettings, NewLink } from '../domain/links/editor.ts';
import { type SaleSettings, saleSettingsOf } from '../domain/links/editor-sale.ts';
import { fieldLabel, fieldMode } from '../domain/links/form.ts';
import type { Link } from '../domain/links/service.ts';
import { DEFAULT_BRAND_COLOR } from '../domain/links/theme.ts';
import { formatDecimal } from '../domain/money.ts';
import { defaultLabels, type FieldMode, type FieldPath, fieldPaths } from '../schemas/fields.ts';
import { linkCreateSchema, linkUpdateSchema, linkWireField } from '../schemas/link.ts';
import { emptyMessages, parseWith } from '../schemas/parse.ts';
import { type PaymentMethod, paymentMethods } from '../schemas/payment-method.ts';
import { hexColour } from '../schemas/slug.ts';
import {
  emptySaleForm,
  isPendingUpload,
  linkSaleForm,
  optionLabelProblems,
  readSaleForm,
  type SaleFormValues,
  saleFormField,
  saleSettingsOfForm,
  uploadOf,
} from './link-form-sale.ts';
import { linkPatchOf, newLinkOf } from './link-input.ts';
import {
  blankSubscriptionForm,
  draftSubscription,
  readSubscriptionForm,
  type SubscriptionFormValues,
  subscriptionFormOf,
  subscriptionSettingOf,
} from './subscription-form.ts';
import { isTimeZone, zonedTimeToUtc } from './zoned-time.ts';

/**
 * The console's link editor form (src/components/LinkEditor.astro) as plain values, and its way
 * into the links editor's settings through the very rules the API reads with (src/schemas/link.ts):
 * the console has no rules of its own, so a refusal reads the same here as from /api/v1/links. Input names follow the API's
 * fields (`title`, `min_amount`, …; `label.{path}` and `mode.{path}` for the field table), so
 * a refusal's field name is the input it belongs to.
 */
export interface LinkFormValues extends SaleFormValues {
  slug: string;
  title: string;
  description: string;
  /** `items`: the link sells the items of the form's Items section, and has no single amount. */
  amount_mode: 'fixed' | 'open' | 'items';
  amount: string;
  min_amount: string;
  max_amount: string;
  currency: string;
  brand_color: string;
  remove_logo: boolean;
  /** A logo chosen on an earlier, refused try (data: URL), carried so it need not be chosen again; '' none. */
  pending_logo: string;
  labels: Record<FieldPath, string>;
  modes: Record<FieldPath, FieldMode>;
  callback_url: string;
  active: boolean;
  /** When it expires: a UTC ISO 8601 time (or the text as posted when it is not a time); '' never. */
  expires_at: string;
  /** The IANA time zone the expiry is shown and typed in (the merchant's browser's; UTC without script). */
  time_zone: string;
  max_payments: string;
  success_url: string;
  cancel_url: string;
  locale: string;
  /** `default`: the account's default payment methods; `chosen`: the ticked ones, in their order. */
  methods_mode: 'default' | 'chosen';
  /** The ticked methods (ids as posted, checked on save), in the merchant's order. */
  payment_methods: string[];
  /** The "Subscription" section (src/api/subscription-form.ts). */
  subscription: SubscriptionFormValues;
}

/** Where a refusal of `labels.{path}` or `fields.{path}` is shown: the inputs `label.{path}` / `mode.{path}`. */
export const formFieldOf = (key: string) =>
  key
    .replace(/^labels\./, 'label.')
    .replace(/^fields\./, 'mode.')
    .replace(/^payment_methods\.\d+$/, 'payment_methods')
    .replace(/^(items|questions|tip)\..*$/, saleFormField);

const allPaths = <T>(value: (path: FieldPath) => T) => Object.fromEntries(fieldPaths.map((p) => [p, value(p)])) as Record<FieldPath, T>;

/**
 * A new link's form: fixed amount, the default colour, the default labels, and the field modes
 * support agreed with the integrator (`agreed`, the operator console's) over the links' defaults.
 */
export function newLinkForm(agreed: Partial<Record<FieldPath, FieldMode>> = {}): LinkFormValues {
  const none = { fields: agreed, labels: {} };
  return {
    slug: '',
    title: '',
    description: '',
    amount_mode: 'fixed',
    amount: '',
    min_amount: '',
    max_amount: '',
    currency: 'PHP',
    brand_color: DEFAULT_BRAND_COLOR,
    remove_logo: false,
    pending_logo: '',
    labels: allPaths((p) => fieldLabel(none, p)),
    modes: allPaths((p) => fieldMode(none, p)),
    callback_url: '',
    active: true,
    expires_at: '',
    time_zone: 'UTC',
    max_payments: '',
    success_url: '',
    cancel_url: '',
    locale: '',
    methods_mode: 'default',
    payment_methods: [],
    ...emptySaleForm(),
    subscription: blankSubscriptionForm(),
  };
}

/** A saved link's form. */
export function linkForm(link: Link): LinkFormValues {
  const money = (minor: bigint | null) => (minor === null ? '' : formatDecimal(minor, link.currency));
  return {
    slug: link.slug,
    title: link.title,
    description: link.description ?? '',
    amount_mode: link.items.length > 0 ? 'items' : link.amountMinor === null ? 'open' : 'fixed',
    amount: money(link.amountMinor),
    min_amount: money(link.minAmountMinor),
    max_amount: money(link.maxAmountMinor),
    currency: link.currency,
    brand_color: link.brandColor ?? DEFAULT_BRAND_COLOR,
    remove_logo: false,
    pending_logo: '',
    labels: allPaths((p) => fieldLabel(link, p)),
    modes: allPaths((p) => fieldMode(link, p)),
    callback_url: link.callbackUrl ?? '',
    active: link.active,
    expires_at: link.expiresAt?.toISOString() ?? '',
    time_zone: 'UTC',
    max_payments: link.maxPayments === null ? '' : String(link.maxPayments),
    success_url: link.successUrl ?? '',
    cancel_url: link.cancelUrl ?? '',
    locale: link.locale ?? '',
    methods_mode: link.paymentMethods === null ? 'default' : 'chosen',
    payment_methods: link.paymentMethods ?? [],
    ...linkSaleForm(link, saleSettingsOf(link)),
    subscription: subscriptionFormOf(link),
  };
}

export interface PostedLinkForm {
  values: LinkFormValues;
  /** A chosen logo file as a data: URL; null: remove the logo; undefined: keep it. */
  logo: string | null | undefined;
  /** Refusals found while reading the form (a logo file too large to carry). */
  messages: Record<string, string[]>;
}

/** Reads the posted editor form (multipart, so the logo file comes with it). */
export async function readLinkForm(form: FormData): Promise<PostedLinkForm> {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === 'string' ? v.trim() : '';
  };
  const blank = newLinkForm();
  const values: LinkFormValues = {
    slug: text('slug'),
    title: text('title'),
    description: text('description'),
    amount_mode: text('amount_mode') === 'open' ? 'open' : text('amount_mode') === 'items' ? 'items' : 'fixed',
    amount: text('amount'),
    min_amount: text('min_amount'),
    max_amount: text('max_amount'),
    currency: text('currency').toUpperCase(),
    brand_color: hexColour(text('brand_color')) ?? text('brand_color'),
    remove_logo: form.get('remove_logo') === 'on',
    pending_logo: '',
    labels: allPaths((p) => (form.has(`label.${p}`) ? text(`label.${p}`) : blank.labels[p])),
    modes: allPaths((p) => (form.has(`mode.${p}`) ? (text(`mode.${p}`) as FieldMode) : blank.modes[p])),
    callback_url: text('callback_url'),
    active: form.get('active') === 'on',
    expires_at: text('expires_at'),
    time_zone: text('time_zone') || 'UTC',
    max_payments: text('max_payments'),
    success_url: text('success_url'),
    cancel_url: text('cancel_url'),
    locale: text('locale'),
    methods_mode: text('methods_mode') === 'chosen' ? 'chosen' : 'default',
    payment_methods: postedMethods(form),
    ...emptySaleForm(),
    subscription: readSubscriptionForm(form),
  };
  const messages = emptyMessages();
  Object.assign(values, await readSaleForm(form, messages));
  const expiry = expiryOf(values.expires_at, values.time_zone);
  if ('refusal' in expiry) messages.expires_at = [expiry.refusal];
  else values.expires_at = expiry.utc;
  let logo: string | null | undefined = values.remove_logo ? null : undefined;
  const upload = values.remove_logo ? undefined : await uploadOf(form.get('logo'), 'logo');
  const pending = text('pending_logo');
  if (upload && 'refusal' in upload) messages.logo = [upload.refusal];
  else if (upload) logo = upload.dataUrl;
  else if (!values.remove_logo && isPendingUpload(pending)) logo = pending;
  if (typeof logo === 'string') values.pending_logo = logo;
  return { values, logo, messages };
}

/**
 * The posted expiry as UTC: a date-time picker's local time (`2027-01-31T23:59`) read in the
 * form's time zone; a time with its own offset or Z (typed by hand) stays as it is for the schema.
 */
function expiryOf(posted: string, zone: string): { utc: string } | { refusal: string } {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(posted)) return { utc: posted };
  if (!isTimeZone(zone))
    return { refusal: `cannot be read: the time zone ${JSON.stringify(zone.slice(0, 64))} is not known; reload the page and choose the time again` };
  return { utc: zonedTimeToUtc(posted, zone) ?? posted };
}

/**
 * The ticked `payment_method` boxes in the order of their `method_order.{id}` numbers (the
 * merchant's order of preference; works without JavaScript); a box without a number keeps its place
 * after the numbered ones.
 */
export function postedMethods(form: FormData): string[] {
  const ticked = [...new Set(form.getAll('payment_method').filter((v): v is string => typeof v === 'string'))];
  const position = (id: string) => {
    const n = Number(form.get(`method_order.${id}`));
    return Number.isFinite(n) && String(form.get(`method_order.${id}`) ?? '').trim() !== '' ? n : Number.POSITIVE_INFINITY;
  };
  return ticked
    .map((id, i) => ({ id, i, at: position(id) }))
    .sort((a, b) => a.at - b.at || a.i - b.i)
    .map((m) => m.id);
}

const orNull = (v: string) => (v === '' ? null : v);

/** The settings every save sends: the whole form (a save replaces every setting but the logo when none is chosen). */
function settingsOf(v: LinkFormValues) {
  const open = v.amount_mode === 'open';
  const items = v.amount_mode === 'items';
  return {
    title: v.title,
    description: orNull(v.description),
    currency: v.currency,
    amount: open || items ? null : orNull(v.amount),
    min_amount: open ? orNull(v.min_amount) : null,
    max_amount: open ? orNull(v.max_amount) : null,
    brand_color: orNull(v.brand_color),
    // Only labels that differ from the default are stored, so a default label changed later applies.
    labels: Object.fromEntries(fieldPaths.filter((p) => v.labels[p] !== '' && v.labels[p] !== defaultLabels[p]).map((p) => [p, v.labels[p]])),
    fields: v.modes,
    callback_url: orNull(v.callback_url),
    active: v.active,
    expires_at: orNull(v.expires_at),
    max_payments: v.max_payments === '' ? null : /^\d{1,10}$/.test(v.max_payments) ? Number(v.max_payments) : v.max_payments,
    success_url: orNull(v.success_url),
    cancel_url: orNull(v.cancel_url),
    locale: orNull(v.locale),
    payment_methods: v.methods_mode === 'chosen' ? v.payment_methods : null,
    ...saleSettingsOfForm(v, items),
    subscription: subscriptionSettingOf(v.subscription),
  };
}

function checked<T>(result: { ok: true; value: T } | { ok: false; messages: Record<string, string[]> }, posted: PostedLinkForm): T {
  const messages = { ...(result.ok ? {} : result.messages), ...optionLabelProblems(posted.values.questions), ...posted.messages };
  if (posted.values.amount_mode === 'fixed' && posted.values.amount === '') {
    messages.amount = ['must be given for a fixed amount (or choose “The customer enters the amount”)'];
  }
  if (posted.values.amount_mode === 'items' && posted.values.items.length === 0) {
    messages.items = ['must hold at least one item with a name and a price (or choose another way to set the amount)'];
  }
  if (Object.keys(messages).length > 0 || !result.ok) throw invalidFields(messages);
  return result.value;
}

/** POST /console/links/new: the form as a new link, read by the API's rules; a refusal names each bad field. */
export function linkCreateInput(posted: PostedLinkForm): NewLink {
  const { slug } = posted.values;
  return newLinkOf(checked(parseWith(linkCreateSchema, { ...(slug ? { slug } : {}), ...settingsOf(posted.values), logo: posted.logo ?? null }), posted));
}

/** POST /console/links/{slug}: the form as a change (the logo only when chosen or removed). */
export function linkUpdateInput(posted: PostedLinkForm): LinkPatch {
  return linkPatchOf(
    checked(parseWith(linkUpdateSchema, { ...settingsOf(posted.values), ...(posted.logo !== undefined ? { logo: posted.logo } : {}) }), posted),
  );
}

/** Runs a links editor call for the console; a refusal names the editor form's inputs (`min_amount`, `label.{path}`). */
export async function withFormFields<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw withFieldNames(error, (field) => formFieldOf(linkWireField(field)));
  }
}

/** The preview's settings: the form as typed, unchecked (the preview shows what it can). */
export function linkDraftSettings(posted: PostedLinkForm): LinkSettings {
  const s = settingsOf(posted.values);
  return {
    title: s.title,
    description: s.description,
    currency: s.currency,
    amount: s.amount,
    minAmount: s.min_amount,
    maxAmount: s.max_amount,
    brandColor: s.brand_color,
    logo: posted.logo === undefined ? undefined : posted.logo === null ? null : { source: posted.logo, baseDir: '/' },
    labels: Object.fromEntries(fieldPaths.map((p) => [p, posted.values.labels[p]]).filter(([, l]) => l)),
    fields: s.fields,
    callbackUrl: s.callback_url,
    active: s.active,
    expiresAt: s.expires_at,
    maxPayments: typeof s.max_payments === 'number' ? s.max_payments : null,
    successUrl: s.success_url,
    cancelUrl: s.cancel_url,
    locale: s.locale,
    // The preview shows the known methods of the choice as typed; saving refuses the rest.
    paymentMethods: s.payment_methods === null ? null : s.payment_methods.filter(isPaymentMethod),
    // Checked part by part in the preview (src/domain/links/editor-sale.ts draftSale).
    questions: s.questions as SaleSettings['questions'],
    items: s.items as SaleSettings['items'],
    tip: s.tip as SaleSettings['tip'],
    promotionCodes: s.promotion_codes,
    subscription: draftSubscription(posted.values.subscription),
  };
}

const isPaymentMethod = (id: string): id is PaymentMethod => (paymentMethods as readonly string[]).includes(id);
