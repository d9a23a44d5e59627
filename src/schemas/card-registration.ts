import { z } from 'zod';
import { httpUrlSchema } from './callback.ts';
import { emailFilter, listQuerySchema, pageSchema } from './pagination.ts';

/**
 * POST /api/v1/card-registrations: who the card belongs to (shown on the hosted page, and the
 * address notified when a schedule has notify_user) and where to send the customer afterwards.
 */
export const cardRegistrationCreateSchema = z
  .object({
    customer: z
      .object({
        name: z.string().trim().min(1).max(120).optional(),
        email: z.email('must be an e-mail address').max(254).optional(),
      })
      .strict()
      .optional(),
    callback_url: httpUrlSchema.optional(),
    return_url: httpUrlSchema.optional(),
  })
  .strict();

export type CardRegistrationCreate = z.infer<typeof cardRegistrationCreateSchema>;

/** GET /api/v1/card-registrations. */
export const cardRegistrationsQuerySchema = listQuerySchema({
  status: z.enum(['pending', 'active', 'deleted'], { error: 'must be pending, active or deleted' }).optional().describe('Only registrations in this state.'),
  customer_email: emailFilter.optional(),
});
export type CardRegistrationsQuery = z.infer<typeof cardRegistrationsQuerySchema>;

/** A card registration (GET /card-registrations and /card-registrations/{reference}): never the number. */
export const cardRegistrationViewSchema = z.object({
  reference: z.string().describe('The card registration reference (a UUID).'),
  status: z.enum(['pending', 'active', 'deleted']).describe('pending until the customer enters a card; active; deleted.'),
  customer: z.object({ name: z.string().nullable().describe('Customer name, as given.'), email: z.string().nullable().describe('Customer e-mail, as given.') }),
  card: z
    .object({
      brand: z.string().nullable().describe('Card brand.'),
      last4: z.string().nullable().describe('Last four digits.'),
      exp_month: z.number().int().nullable().describe('Expiry month.'),
      exp_year: z.number().int().nullable().describe('Expiry year.'),
    })
    .nullable()
    .describe('The registered card; null until one is entered.'),
  created_at: z.string().describe('When it was created.'),
  expires_at: z.string().nullable().describe('When the hosted page stops accepting a card (pending only).'),
  activated_at: z.string().nullable().describe('When the card was registered.'),
  deleted_at: z.string().nullable().describe('When it was deleted.'),
});
export type CardRegistrationView = z.infer<typeof cardRegistrationViewSchema>;
export const cardRegistrationPageSchema = pageSchema(cardRegistrationViewSchema);
