import { z } from 'zod';
import { discountSchema } from './link-sale.ts';

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
