import { z } from 'zod';
import { httpUrlSchema } from './callback.ts';
import { EMAIL_MAX_LENGTH, EMAIL_MESSAGE, EMAIL_PATTERN } from './email-rules.ts';
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
        email: z.email({ pattern: EMAIL_PATTERN, error: EMAIL_MESSAGE }).max(EMAIL_MAX_LENGTH, EMAIL_MESSAGE).optional(),
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

const isoTime = z.string().meta({ format: 'date-time' });

/** GET /card-registrations (listed) and /card-registrations/{reference}: state, brand, last 4 and expiry (never the number). */
export const cardRegistrationViewSchema = z
  .object({
    reference: z.uuid(),
    status: z.enum(['pending', 'active', 'deleted']),
    collection: z.enum(['saved_card', 'pay_link']).meta({
      description:
        'How its schedules collect: `saved_card` charges the card off-session; `pay_link` (acquirers without off-session charges, e.g. PayMongo) e-mails the customer a payment link each occurrence, and `card` stays null.',
    }),
    customer: z.object({ name: z.string().nullable(), email: z.string().nullable() }).strict(),
    card: z
      .object({ brand: z.string().nullable(), last4: z.string().nullable(), exp_month: z.number().int().nullable(), exp_year: z.number().int().nullable() })
      .strict()
      .nullable(),
    created_at: isoTime,
    expires_at: isoTime.nullable().meta({ description: 'While pending: when the hosted page stops accepting a card.' }),
    activated_at: isoTime.nullable(),
    deleted_at: isoTime.nullable(),
  })
  .strict()
  .meta({ id: 'CardRegistration' });
export type CardRegistrationView = z.infer<typeof cardRegistrationViewSchema>;
export const cardRegistrationPageSchema = pageSchema(cardRegistrationViewSchema);

export const cardRegistrationReplySchema = z.object({ card_registration: cardRegistrationViewSchema }).strict();

/** POST /card-registrations (OK.11.00): the reference and the hosted page the customer opens. */
export const cardRegistrationCreatedSchema = z
  .object({ reference: z.uuid(), link: z.url().meta({ description: 'The hosted page where the customer enters the card.' }), expires_at: isoTime })
  .strict()
  .meta({ id: 'CardRegistrationCreated' });
export type CardRegistrationCreated = z.infer<typeof cardRegistrationCreatedSchema>;

/** DELETE with a card registration reference: OK.11.20 (deleted now, with the schedules it cancelled) or OK.11.21 (deleted before). */
export const cardRegistrationDeletedSchema = z
  .object({ reference: z.string(), cancelled_schedules: z.array(z.string()).optional(), timestamp: isoTime })
  .strict()
  .meta({ id: 'CardRegistrationDeleted' });
export type CardRegistrationDeleted = z.infer<typeof cardRegistrationDeletedSchema>;

/** The hosted page's card submission (OK.11.00): where the browser goes next. */
export const cardRegistrationCompletedSchema = z
  .object({ reference: z.uuid(), status: z.enum(['pending', 'active', 'deleted']), redirect_url: z.string() })
  .strict()
  .meta({ id: 'CardRegistrationCompleted' });
export type CardRegistrationCompleted = z.infer<typeof cardRegistrationCompletedSchema>;
