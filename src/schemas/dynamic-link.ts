import { z } from 'zod';
import { httpUrlSchema } from './callback.ts';
import { customerFieldSchemas } from './checkout.ts';
import { itemsInputSchema } from './link-sale.ts';

/**
 * The dynamic payment link request (spec §2.4). Lenient where the spec's samples are
 * (`payment.amount` as a number or a numeric string, `route.notify_user` as a boolean or
 * "true"/"false"), strict everywhere else: unknown fields are refused, e-mail, `+` mobile, ISO
 * country and currency codes and the callback URL are checked. Which fields are required
 * depends on the link (its `system` fields, whether it has a fixed amount): see
 * src/domain/checkout/dynamic.ts and docs/payment-links.md.
 */
// The customer field rules are zod/mini schemas shared with the form; zod classic wraps them as they are.
const field = (path: keyof typeof customerFieldSchemas) => customerFieldSchemas[path] as unknown as z.ZodType<string>;

export const dynamicLinkBodySchema = z
  .object({
    key: z.string({ error: 'is required: the link key (pk_link_…) or API token of the integrator who owns the link' }).min(1),
    customer: z
      .object({
        first_name: z.optional(field('customer.first_name')),
        last_name: z.optional(field('customer.last_name')),
        billing_address: z
          .object({
            line1: z.optional(field('customer.billing_address.line1')),
            line2: z.optional(field('customer.billing_address.line2')),
            city_municipality: z.optional(field('customer.billing_address.city_municipality')),
            zip: z.optional(field('customer.billing_address.zip')),
            state_province_region: z.optional(field('customer.billing_address.state_province_region')),
            country_code: z.optional(field('customer.billing_address.country_code')),
          })
          .strict()
          .optional(),
        contact: z
          .object({
            email: z.optional(field('customer.contact.email')),
            mobile: z.optional(field('customer.contact.mobile')),
          })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
    payment: z
      .object({
        description: z.string().trim().min(1, 'must not be empty').max(500, 'must be at most 500 characters').optional(),
        amount: z
          .union(
            [
              z.number(),
              z
                .string()
                .trim()
                .regex(/^\d+(\.\d+)?$/, 'must be a decimal number such as 250.00'),
            ],
            {
              error: 'must be a number or a numeric string such as "250.00"',
            },
          )
          .optional(),
        currency: z
          .string()
          .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 currency code such as PHP')
          .optional(),
        merchant_reference_id: z.string().trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters').optional(),
      })
      .strict()
      .optional(),
    route: z
      .object({
        callback_url: httpUrlSchema.optional(),
        notify_user: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')], { error: 'must be true or false' }).optional(),
        // paylink's extension of spec §2.4 (docs/payment-links.md): this checkout's own ways back to the merchant.
        success_url: httpUrlSchema
          .optional()
          .describe('Extension: where the receipt’s “Return to merchant” goes (the transaction id is appended); overrides the link’s.'),
        cancel_url: httpUrlSchema.optional().describe('Extension: where the form’s cancel link goes; overrides the link’s.'),
      })
      .strict()
      .optional(),
    // paylink's extension of spec §2.4: what this checkout sells, in place of the link's items or amount.
    items: itemsInputSchema
      .optional()
      .describe(
        'Extension: what this checkout sells, in place of the link’s own items or amount: each with an id, a name, a `unit_amount` (decimal in `payment.currency`, such as "150.00") and a quantity range. Not together with `payment.amount`.',
      ),
  })
  .strict();

export type DynamicLinkBody = z.infer<typeof dynamicLinkBodySchema>;
