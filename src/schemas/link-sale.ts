import { z } from 'zod';
import type { locales } from './locales.ts';

/**
 * What a link sells beyond one amount: custom questions, items with quantities and a
 * tip. The link's configuration as the links API, the console's editor and the seed give it; the
 * same schemas check it on the server and describe it in the OpenAPI document. Amounts here are
 * minor units as decimal strings (they survive JSON exactly); the API's own edge turns "12.50" into
 * them with the link's currency.
 */

export const MAX_QUESTIONS = 5;
export const MAX_ITEMS = 20;
export const MAX_DROPDOWN_OPTIONS = 20;
export const MAX_TEXT_ANSWER = 500;
export const MAX_QUANTITY = 999;
export const MAX_TIP_PRESETS = 4;

const key = z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'must start with a letter and use only a-z, 0-9 and _ (at most 40 characters)');

/** A text in English, with Filipino and Spanish where the merchant wrote them (English is shown otherwise). */
export const localizedTextSchema = (max: number) =>
  z
    .object({
      en: z.string().trim().min(1).max(max),
      fil: z.string().trim().max(max).optional(),
      es: z.string().trim().max(max).optional(),
    } satisfies Record<(typeof locales)[number], z.ZodType>)
    .strict();
export type LocalizedText = z.infer<ReturnType<typeof localizedTextSchema>>;

const minorString = z.string().regex(/^\d{1,16}$/, 'must be a whole number of minor units');

const questionBase = {
  id: key,
  label: localizedTextSchema(120),
  help: localizedTextSchema(300).optional(),
  required: z.boolean().default(false),
};

export const questionSchema = z.discriminatedUnion('type', [
  z.object({ ...questionBase, type: z.literal('text'), max_length: z.number().int().min(1).max(MAX_TEXT_ANSWER).default(200) }).strict(),
  z
    .object({
      ...questionBase,
      type: z.literal('number'),
      min: z.number().int().min(-1e9).max(1e9).optional(),
      max: z.number().int().min(-1e9).max(1e9).optional(),
    })
    .strict()
    .refine((q) => q.min === undefined || q.max === undefined || q.min <= q.max, { message: 'min must not be above max', path: ['min'] }),
  z
    .object({
      ...questionBase,
      type: z.literal('dropdown'),
      options: z
        .array(z.object({ value: key, label: localizedTextSchema(120) }).strict())
        .min(1)
        .max(MAX_DROPDOWN_OPTIONS)
        .refine((o) => new Set(o.map((x) => x.value)).size === o.length, 'option values must be unique')
        .describe(
          'The choices: each a stable `value` (what an answer stores, whatever the language) and a `label` in English with Filipino and Spanish optional, shown in the page’s language.',
        ),
    })
    .strict(),
  // A box to tick, e.g. consent to terms; `terms_url` is shown as a link beside the label.
  z
    .object({
      ...questionBase,
      type: z.literal('checkbox'),
      terms_url: z
        .url({ protocol: /^https$/ })
        .max(2000)
        .optional(),
    })
    .strict(),
  z.object({ ...questionBase, type: z.literal('date') }).strict(),
]);
export type Question = z.infer<typeof questionSchema>;

export const questionsSchema = z
  .array(questionSchema)
  .max(MAX_QUESTIONS, `at most ${MAX_QUESTIONS} questions`)
  .refine((qs) => new Set(qs.map((q) => q.id)).size === qs.length, 'question ids must be unique');

const itemQuantitySchema = z
  .object({
    min: z.number().int().min(0).max(MAX_QUANTITY).default(1),
    max: z.number().int().min(1).max(MAX_QUANTITY).default(1),
    default: z.number().int().min(0).max(MAX_QUANTITY).default(1),
  })
  .strict()
  .refine((q) => q.min <= q.max && q.default >= q.min && q.default <= q.max, 'quantity needs min ≤ default ≤ max')
  .default({ min: 1, max: 1, default: 1 });

const itemFields = {
  id: key,
  name: localizedTextSchema(120),
  /** An image of the item: an asset id from the link's uploads (as the logo). */
  image: z.string().max(200).optional(),
  quantity: itemQuantitySchema,
};

export const itemSchema = z
  .object({ ...itemFields, unit_amount_minor: minorString })
  .strict()
  // A regex, not BigInt(): zod runs an object's refinement even when a field's own check failed.
  .refine((i) => /[1-9]/.test(i.unit_amount_minor), { message: 'must be greater than zero', path: ['unit_amount_minor'] });
export type Item = z.infer<typeof itemSchema>;

export const itemsSchema = z
  .array(itemSchema)
  .max(MAX_ITEMS, `at most ${MAX_ITEMS} items`)
  .refine((items) => new Set(items.map((i) => i.id)).size === items.length, 'item ids must be unique');

/**
 * A decimal amount in the link's currency as the doors take it ("150.00"; a JSON number is
 * accepted, as for a link's amount): the links editor turns it into minor units.
 */
export const decimalInputSchema = z.union([z.string().trim().max(32), z.number()], { error: 'must be a decimal amount such as "150.00"' }).transform(String);

/**
 * An item as a dynamic link's POST gives it: its unit price as a decimal in the checkout's
 * currency, and no image (a checkout's items are shown by name only).
 */
export const itemInputSchema = z
  .object({
    id: itemFields.id,
    name: itemFields.name,
    quantity: itemFields.quantity,
    unit_amount: decimalInputSchema.describe('The unit price, a decimal amount in the link’s currency such as "150.00".'),
  })
  .strict();
export type ItemInput = z.input<typeof itemInputSchema>;

export const itemsInputSchema = z
  .array(itemInputSchema)
  .max(MAX_ITEMS, `at most ${MAX_ITEMS} items`)
  .refine((items) => new Set(items.map((i) => i.id)).size === items.length, 'item ids must be unique');

/**
 * An item as the links API, the console and the seed give it: as above, with an optional image
 * uploaded as the logo is. `image` is the image's source (a `data:` URL; the seed may name a file);
 * null removes the image; absent keeps the image the link's item of the same id has.
 */
export const linkItemInputSchema = (image: z.ZodType<string>, about = 'The item’s image; null removes it; absent keeps it.') =>
  itemInputSchema.extend({ image: image.nullable().optional().describe(about) }).strict();
export type LinkItemInput = ItemInput & { image?: string | null | undefined };

export const linkItemsInputSchema = (image: z.ZodType<string>, about?: string) =>
  z
    .array(linkItemInputSchema(image, about))
    .max(MAX_ITEMS, `at most ${MAX_ITEMS} items`)
    .refine((items) => new Set(items.map((i) => i.id)).size === items.length, 'item ids must be unique');

/** Tip choices: preset percentages (of the amount after any discount) or preset amounts, and whether any other amount may be typed. */
export const tipSchema = z
  .object({
    presets: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('percent'), values: z.array(z.number().int().min(1).max(100)).min(1).max(MAX_TIP_PRESETS) }).strict(),
      z.object({ kind: z.literal('amount'), values: z.array(minorString).min(1).max(MAX_TIP_PRESETS) }).strict(),
    ]),
    custom: z.boolean().default(true),
  })
  .strict();
export type TipConfig = z.infer<typeof tipSchema>;

/** Tip choices as the doors give them: preset amounts as decimals in the link's currency ("20.00"). */
export const tipInputSchema = z
  .object({
    presets: z.discriminatedUnion('kind', [
      tipSchema.shape.presets.options[0],
      z.object({ kind: z.literal('amount'), values: z.array(decimalInputSchema).min(1).max(MAX_TIP_PRESETS) }).strict(),
    ]),
    custom: z.boolean().default(true),
  })
  .strict();
export type TipInput = z.input<typeof tipInputSchema>;

/** What the customer chose for a tip. */
export const tipChoiceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }).strict(),
  z
    .object({
      kind: z.literal('preset'),
      index: z
        .number()
        .int()
        .min(0)
        .max(MAX_TIP_PRESETS - 1),
    })
    .strict(),
  z.object({ kind: z.literal('custom'), minor: minorString }).strict(),
]);
export type TipChoice = z.infer<typeof tipChoiceSchema>;

/** A promotion code's discount: a whole percentage, or a fixed amount in one currency. */
export const discountSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('percent'), percent: z.number().int().min(1).max(100) }).strict(),
  z.object({ kind: z.literal('fixed'), minor: minorString, currency: z.string().regex(/^[A-Z]{3}$/) }).strict(),
]);
export type Discount = z.infer<typeof discountSchema>;

/** An answer as stored: text, dropdown and date answers as strings, numbers as numbers, checkboxes as booleans. */
export type Answer = string | number | boolean;

/**
 * What a payment bought, as stored on it (payments.sale) and carried to the API, events, the console,
 * the CSV and the receipt: minor units as decimal strings, the lines' names as the merchant wrote them.
 */
export interface PaymentSale {
  lines: { id: string; name: LocalizedText; unit_amount_minor: string; quantity: number; amount_minor: string }[];
  subtotal_minor: string;
  discount: { code: string; promotion_id: string; amount_minor: string } | null;
  tip_minor: string;
  /** By question id; questions left unanswered are absent. */
  answers: Record<string, Answer>;
}
