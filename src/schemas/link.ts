import { z } from 'zod';
import { httpUrlSchema } from './callback.ts';
import { fieldModes, fieldPaths } from './fields.ts';
import { linkItemsInputSchema, localizedTextSchema, questionSchema, questionsSchema, tipInputSchema } from './link-sale.ts';
import { locales } from './locales.ts';
import { inStorableRange, listQuerySchema, pageSchema } from './pagination.ts';
import { paymentMethods } from './payment-method.ts';
import { subscriptionSchema } from './subscription.ts';

/** Slugs paylink keeps for its own links (src/domain/schedules/pay-links.ts): a merchant's link cannot take one. */
export const SYSTEM_SLUG_PREFIX = 'scheduled-payments-';

/**
 * A payment link as the API shows it (GET /api/v1/links, /links/{slug}). `kind` says how it is
 * paid: `static` — its page /pay/{slug} takes payments as it is (the dynamic POST works too);
 * `dynamic` — some field is system-filled, so it is paid only through the dynamic POST to
 * /pay/{slug}, which answers with a generated payment form.
 */
const fieldPath = z.enum(fieldPaths);

/**
 * A list of payment method ids as links, integrators and the seed send it, in the merchant's order
 * of preference: each a method paylink knows (an unknown id is named in the refusal), none twice.
 * `least: 1` refuses an empty list here; a link's empty list is the links editor's to refuse (ER.03.13).
 */
export const paymentMethodIdsSchema = (least: 0 | 1) =>
  z
    .array(
      z.enum(paymentMethods, {
        error: (issue) => `${JSON.stringify(issue.input)} is not a payment method paylink knows; use ${paymentMethods.join(', ')}`,
      }),
      { error: 'must be a list of payment method ids such as ["qrph", "gcash", "card"]' },
    )
    .min(least, 'must name at least one payment method (null: every method your acquirer takes)')
    .max(paymentMethods.length)
    .refine((list) => new Set(list).size === list.length, 'must not name a payment method twice');

export const linkViewSchema = z
  .object({
    id: z.string().describe('The link id (lnk_…).'),
    slug: z.string().describe('The link’s address: /pay/{slug}.'),
    url: z.string().describe('The payment page address (absolute when PUBLIC_URL is set).'),
    kind: z.enum(['static', 'dynamic']).describe('static: payable at its URL as it is; dynamic: only through the dynamic POST (it has system-filled fields).'),
    active: z.boolean().describe('Whether it takes payments; an inactive link answers 404.'),
    title: z.string().describe('Shown as the page heading.'),
    description: z.string().nullable().describe('Shown under the title.'),
    currency: z.string().describe('ISO 4217 code.'),
    amount: z.string().nullable().describe('Fixed amount, decimal string; null when the customer enters it.'),
    min_amount: z.string().nullable().describe('Least amount a customer may enter.'),
    max_amount: z.string().nullable().describe('Most a customer may enter.'),
    brand_color: z.string().nullable().describe('Brand colour, #rrggbb.'),
    logo_url: z.string().nullable().describe('Where the logo is served from.'),
    labels: z.partialRecord(fieldPath, z.string()).describe('Custom labels of customer fields.'),
    fields: z.partialRecord(fieldPath, z.enum(fieldModes)).describe('Field modes: customer, system or hidden (fields not named use the defaults).'),
    callback_url: z.string().nullable().describe('Where its payments’ events go when the payment names none.'),
    expires_at: z.string().nullable().describe('When it stops taking payments.'),
    max_payments: z.number().int().nullable().describe('How many successful payments it takes.'),
    success_url: z.string().nullable().describe('Where the receipt’s “Return to merchant” goes.'),
    cancel_url: z.string().nullable().describe('Where the form’s cancel link goes.'),
    locale: z.string().nullable().describe('The language of the link’s pages and customer e-mails when the customer’s browser asks for none of paylink’s.'),
    payment_methods: z
      .array(z.enum(paymentMethods))
      .nullable()
      .describe('The payment methods its page offers, in this order; null: the integrator’s `default_payment_methods`.'),
    questions: z.array(questionSchema).describe('The merchant’s own questions the page asks (at most 5).'),
    items: z
      .array(
        z
          .object({
            id: z.string(),
            name: localizedTextSchema(120),
            unit_amount: z.string().describe('The unit price, decimal string in the link’s currency.'),
            quantity: z.object({ min: z.number().int(), max: z.number().int(), default: z.number().int() }).strict(),
            image_url: z.string().nullable().describe('Where the item’s image is served from; null: it has none.'),
          })
          .strict()
          .meta({ id: 'LinkItem' }),
      )
      .describe('What the link sells; empty: it takes one amount (`amount`, or what the customer enters).'),
    tip: z
      .object({
        presets: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('percent'), values: z.array(z.number().int()) }).strict(),
          z.object({ kind: z.literal('amount'), values: z.array(z.string()) }).strict(),
        ]),
        custom: z.boolean(),
      })
      .strict()
      .nullable()
      .describe('The tip the page offers: preset percentages or amounts (decimal strings), and whether any amount may be typed; null: none.'),
    promotion_codes: z.boolean().describe('Whether the page takes promotion codes.'),
    subscription: subscriptionSchema.nullable().describe('Paying it starts a subscription on this plan (docs/subscriptions.md); null: a one-off payment.'),
    created_at: z.string().describe('When it was created.'),
    updated_at: z.string().describe('When it was last changed.'),
  })
  .strict()
  .meta({ id: 'Link' });
export type LinkView = z.infer<typeof linkViewSchema>;
export const linkPageSchema = pageSchema(linkViewSchema);
/** POST /api/v1/links, GET and PATCH /api/v1/links/{slug}: `{ link }`. */
export const linkReplySchema = z.object({ link: linkViewSchema }).strict();

/**
 * The API's (and the seed file's) name of a link setting the links editor names in camelCase
 * (src/domain/links/editor.ts): `minAmount` → `min_amount`. Names without capitals (`amount`,
 * `labels.customer.first_name`) are already the same on both sides.
 */
export const linkWireField = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** GET /api/v1/links. */
export const linksQuerySchema = listQuerySchema({
  active: z.enum(['true', 'false'], { error: 'must be true or false' }).optional().describe('Only active (true) or inactive (false) links.'),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as PHP')
    .optional()
    .describe('Only links in this currency.'),
});
export type LinksQuery = z.infer<typeof linksQuerySchema>;

/**
 * POST /api/v1/links and PATCH /api/v1/links/{slug}: a link's settings. The same rules as the
 * seed file (src/schemas/provisioning.ts) and the same service (src/domain/links/editor.ts); a
 * logo is a `data:` URL here (a seed may also name a file). In a PATCH, null clears a setting.
 */
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
const decimalAmount = z
  .union([z.string().trim().max(32), z.number()], { error: 'must be a decimal amount such as "250.00"' })
  .transform(String)
  .describe('A decimal amount in the link’s currency, e.g. "250.00" (a JSON number is accepted).');
const httpUrl = httpUrlSchema;
const LOGO_MAX_CHARS = 720_000;
/**
 * A link's settings may carry a 512 KiB logo and item images as base64: its body may be up to
 * 8 MiB (about ten images at their largest; a larger catalogue's images go over several PATCHes,
 * since an item sent without `image` keeps its own).
 */
export const LINK_BODY_LIMIT = 8 * 1024 * 1024;
/** An image as the API takes it: a data: URL within the logo's limit. */
const imageDataUrl = z
  .string()
  .max(LOGO_MAX_CHARS, 'must be at most 512 KiB')
  .regex(/^data:/, 'must be a data: URL (data:image/png;base64,…)');
const IMAGE_RULES = 'A PNG, JPEG, WebP or SVG image as a data: URL, at most 512 KiB (the type is read from the bytes); SVG is sanitized.';

const settings = {
  title: z.string().trim().min(1, 'must not be empty').max(120, 'must be at most 120 characters').describe('Page heading.'),
  description: z.string().trim().max(1000, 'must be at most 1000 characters').nullable().describe('Shown under the title.'),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as PHP')
    .describe('ISO 4217 code.'),
  amount: decimalAmount.nullable().describe('Fixed amount; null or absent: the customer enters it.'),
  min_amount: decimalAmount.nullable().describe('Least a customer may enter (only without amount).'),
  max_amount: decimalAmount.nullable().describe('Most a customer may enter (only without amount).'),
  brand_color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour such as #1a56db')
    .nullable()
    .describe('Brand colour, #rrggbb.'),
  logo: imageDataUrl.nullable().describe(`${IMAGE_RULES} null removes it.`),
  labels: z.partialRecord(z.enum(fieldPaths), z.string().trim().min(1).max(80)).describe('Field path → label shown to the customer.'),
  fields: z.partialRecord(z.enum(fieldPaths), z.enum(fieldModes)).describe('Field path → customer, system or hidden.'),
  callback_url: httpUrl.nullable().describe('Where events of payments made on the link go when the payment names none.'),
  active: z.boolean({ error: 'must be true or false' }).describe('false: /pay/{slug} answers 404 and takes no payments.'),
  expires_at: z.iso
    .datetime({ offset: true, error: 'must be an ISO 8601 date and time with a UTC offset, such as 2027-01-31T23:59:59+08:00' })
    .refine((v) => inStorableRange(Date.parse(v)), 'must be between the years 1970 and 9999')
    .nullable()
    .describe('When it stops taking payments.'),
  max_payments: z
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1 (1 makes a single-use link)')
    .max(1_000_000_000)
    .nullable()
    .describe('How many successful payments it takes.'),
  success_url: httpUrl.nullable().describe('Where the receipt’s “Return to merchant” goes.'),
  cancel_url: httpUrl.nullable().describe('Where the form’s cancel link goes.'),
  locale: z
    .enum(locales, { error: `must be one of ${locales.join(', ')}` })
    .nullable()
    .describe(
      'The language (en, fil, es) of the link’s pages and customer e-mails when the customer’s browser asks for none of these; the page’s switcher overrides both.',
    ),
  payment_methods: paymentMethodIdsSchema(0)
    .nullable()
    .describe(
      'The payment methods its page offers, in the order of preference (card, qrph, gcash, paymaya, grab_pay, shopeepay, dob, brankas, billease); each must be one the merchant’s acquirer takes. null: the integrator’s `default_payment_methods`. An empty list is refused (ER.03.13).',
    ),
  questions: questionsSchema.describe(
    'Up to 5 questions of the merchant’s own (text, number, dropdown, checkbox, date), each with a label and optional help in en, fil and es; [] asks none.',
  ),
  items: linkItemsInputSchema(
    imageDataUrl,
    `The item’s image. ${IMAGE_RULES} null removes it; absent keeps the image the link’s item of the same id has.`,
  ).describe(
    'What the link sells: up to 20 items, each with a name, a `unit_amount` (decimal in the link’s currency, such as "150.00"), a quantity range and an optional `image` (a data: URL, as `logo`); the total is computed on the server. A link with items has no `amount`, `min_amount` or `max_amount`; [] sells one amount.',
  ),
  tip: tipInputSchema
    .nullable()
    .describe(
      'A tip: preset percentages (of what is bought after any discount) or preset amounts (decimals), and whether any amount may be typed (`custom`); null: none.',
    ),
  promotion_codes: z.boolean({ error: 'must be true or false' }).describe('Whether the page has a field for a promotion code.'),
  subscription: subscriptionSchema
    .nullable()
    .describe('Makes it a subscription link (a fixed `amount` per period; docs/subscriptions.md). null: a one-off payment link.'),
};

export const linkCreateSchema = z
  .object({
    slug: z
      .string()
      .regex(SLUG, 'must be 1-64 lowercase letters, digits or dashes, not starting or ending with a dash')
      .refine((slug) => !slug.startsWith(SYSTEM_SLUG_PREFIX), `must not start with ${SYSTEM_SLUG_PREFIX} (kept for paylink's own links)`)
      .optional()
      .describe('The link’s address /pay/{slug}; absent: generated.'),
    ...settings,
    labels: settings.labels.optional(),
    fields: settings.fields.optional(),
    active: settings.active.optional(),
  })
  .partial({
    description: true,
    amount: true,
    min_amount: true,
    max_amount: true,
    brand_color: true,
    logo: true,
    callback_url: true,
    expires_at: true,
    max_payments: true,
    success_url: true,
    cancel_url: true,
    locale: true,
    payment_methods: true,
    questions: true,
    items: true,
    tip: true,
    promotion_codes: true,
    subscription: true,
  })
  .strict();
export type LinkCreate = z.infer<typeof linkCreateSchema>;

export const linkUpdateSchema = z.object(settings).partial().strict();
export type LinkUpdate = z.infer<typeof linkUpdateSchema>;
