import { z } from 'zod';
import { discountSchema } from './link-sale.ts';
import { inStorableRange, listQuerySchema, pageSchema } from './pagination.ts';

/** A promotion code as the console and the API create it (docs/payment-links.md). */
export const promotionCreateSchema = z
  .object({
    code: z
      .string()
      .trim()
      .transform((c) => c.toUpperCase())
      .pipe(z.string().regex(/^[A-Z0-9][A-Z0-9_-]{2,31}$/, 'must be 3 to 32 letters, digits, - or _, starting with a letter or digit')),
    discount: discountSchema,
    link_ids: z.array(z.string().min(1).max(64)).min(1).max(100).optional(),
    valid_from: z.coerce.date().optional(),
    valid_until: z.coerce.date().optional(),
    max_redemptions: z.number().int().min(1).max(1_000_000).optional(),
    once_per_email: z.boolean().default(false),
  })
  .strict()
  .refine((p) => !p.valid_from || !p.valid_until || p.valid_from < p.valid_until, { message: 'must be after valid_from', path: ['valid_until'] });
export type PromotionCreate = z.infer<typeof promotionCreateSchema>;

/*
 * The wire format of /api/v1/promotions. A fixed discount's amount is a decimal in its currency at
 * the edge ("50.00", or 50.00 as a JSON number), as every amount of the API; the domain keeps
 * minor units (promotionCreateSchema above).
 */

const instant = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 date and time with a UTC offset, such as 2027-01-31T23:59:59+08:00' })
  .refine((v) => inStorableRange(Date.parse(v)), 'must be between the years 1970 and 9999');
const linkIds = z
  .array(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a link id such as lnk_…'), { error: 'must be a list of link ids (lnk_…)' })
  .min(1, 'must name at least one link (leave it out, or null, for every link)')
  .max(100, 'must name at most 100 links');
const maxRedemptions = z
  .number({ error: 'must be a whole number' })
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(1_000_000, 'must be at most 1000000');

export const promotionDiscountWireSchema = z.discriminatedUnion(
  'kind',
  [
    z
      .object({
        kind: z.literal('percent'),
        percent: z
          .number({ error: 'must be a whole number from 1 to 100' })
          .int('must be a whole number from 1 to 100')
          .min(1)
          .max(100)
          .describe('Percent off, 1–100.'),
      })
      .strict(),
    z
      .object({
        kind: z.literal('fixed'),
        amount: z
          .union([z.string().trim().max(32), z.number()], { error: 'must be a decimal amount such as "50.00"' })
          .transform(String)
          .describe('Amount off, a decimal in `currency`, e.g. "50.00" (a JSON number is accepted).'),
        currency: z
          .string()
          .regex(/^[A-Z]{3}$/, 'must be a three-letter currency code such as PHP')
          .describe('ISO 4217 code; the code applies only to links in this currency.'),
      })
      .strict(),
  ],
  { error: 'must be {"kind": "percent", "percent": 10} or {"kind": "fixed", "amount": "50.00", "currency": "PHP"}' },
);

/** POST /api/v1/promotions. */
export const promotionCreateBodySchema = z
  .object({
    code: z.string({ error: 'is required' }).describe('3–32 letters, digits, - or _; stored in upper case and compared without case.'),
    discount: promotionDiscountWireSchema,
    link_ids: linkIds.nullable().optional().describe('The links (ids, lnk_…) it applies to; absent or null: every link.'),
    valid_from: instant.nullable().optional().describe('From when it applies (inclusive).'),
    valid_until: instant.nullable().optional().describe('Until when it applies (exclusive).'),
    max_redemptions: maxRedemptions.nullable().optional().describe('Most payments that may use it; absent or null: no limit.'),
    once_per_email: z.boolean({ error: 'must be true or false' }).default(false).describe('Each customer e-mail address may use it once.'),
  })
  .strict();
export type PromotionCreateBody = z.infer<typeof promotionCreateBodySchema>;

/** PATCH /api/v1/promotions/{id}: only what is given changes; null clears a setting. The code and its discount never change. */
export const promotionUpdateBodySchema = z
  .object({
    link_ids: linkIds.nullable().optional().describe('The links it applies to; null: every link.'),
    valid_from: instant.nullable().optional(),
    valid_until: instant.nullable().optional(),
    max_redemptions: maxRedemptions.nullable().optional().describe('Never below `redeemed` (409 ER.06.20); null: no limit.'),
    active: z.boolean({ error: 'must be true or false' }).optional().describe('false deactivates it (customers typing it are refused), true reactivates it.'),
  })
  .strict()
  .refine((p) => Object.values(p).some((v) => v !== undefined), { message: 'must change at least one setting', path: ['(body)'] });
export type PromotionUpdateBody = z.infer<typeof promotionUpdateBodySchema>;

/** GET /api/v1/promotions. */
export const promotionsQuerySchema = listQuerySchema({
  active: z.enum(['true', 'false'], { error: 'must be true or false' }).optional().describe('Only active (true) or inactive (false) codes.'),
});
export type PromotionsQuery = z.infer<typeof promotionsQuerySchema>;

export const promotionViewSchema = z
  .object({
    id: z.string().describe('The promotion id (promo_…).'),
    code: z.string().describe('The code, in upper case.'),
    discount: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('percent'), percent: z.number() }).strict(),
      z.object({ kind: z.literal('fixed'), amount: z.string().describe('Decimal string.'), currency: z.string() }).strict(),
    ]),
    link_ids: z.array(z.string()).nullable().describe('The links it applies to; null: every link.'),
    valid_from: z.string().nullable(),
    valid_until: z.string().nullable(),
    max_redemptions: z.number().nullable(),
    redeemed: z.number().describe('Redemptions held now (a payment that ended unpaid gives its place back).'),
    once_per_email: z.boolean(),
    active: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .strict();
export type PromotionView = z.infer<typeof promotionViewSchema>;
export const promotionReplySchema = z.object({ promotion: promotionViewSchema }).strict();
export const promotionPageSchema = pageSchema(promotionViewSchema);
