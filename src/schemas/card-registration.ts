import { z } from 'zod';
import { httpUrlSchema } from './callback.ts';

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
