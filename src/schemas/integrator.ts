import { z } from 'zod';
import { httpUrlSchema } from './callback.ts';
import { paymentMethodIdsSchema } from './link.ts';
import { paymentMethods } from './payment-method.ts';

/** PATCH /api/v1/integrator: the account settings an integrator changes itself. */
export const integratorUpdateSchema = z
  .object({
    default_callback_url: httpUrlSchema
      .nullable()
      .describe('Where events go when a payment, schedule or card registration names no callback_url (a public http(s) URL); null clears it.'),
    support_email: z
      .email({ error: 'must be an e-mail address such as help@example.com' })
      .max(254)
      .nullable()
      .describe(
        'Where customers write with questions: shown on payment pages and the Reply-To of customer e-mails; null clears it (replies then go to the account e-mail).',
      ),
    default_payment_methods: paymentMethodIdsSchema(1)
      .nullable()
      .describe(
        'The payment methods a link offers when it names none of its own, in the order of preference; each must be one the acquirer takes. null: every method the acquirer takes.',
      ),
  })
  .partial()
  .strict();
export type IntegratorUpdate = z.infer<typeof integratorUpdateSchema>;

/** GET and PATCH /api/v1/integrator: the account as its owner sees it (never secrets). */
export const integratorViewSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    link_key: z.string().meta({
      description:
        'The publishable link key (`pk_link_…`): the `key` of POST /pay/{slug}, which creates checkouts and nothing else. Every /api/v1 route refuses it (ER.01.30).',
    }),
    refund_capabilities: z
      .record(z.string(), z.enum(['full_partial', 'full', 'none']))
      .meta({ description: 'Refund types allowed per card brand; `default` applies to brands not listed.' }),
    default_callback_url: z.string().nullable().meta({ description: 'Where events go when nothing else names a callback URL.' }),
    support_email: z.string().nullable().meta({ description: 'Shown to customers on payment pages; the Reply-To of customer e-mails.' }),
    default_payment_methods: z
      .array(z.enum(paymentMethods))
      .nullable()
      .meta({ description: 'The payment methods a link offers when it names none; null: every method the acquirer takes.' }),
    links: z.number().int().meta({ description: 'How many payment links the integrator has.' }),
    status: z.enum(['active', 'suspended']).meta({
      description:
        "`suspended`: paylink's operator has suspended the account; what takes new money answers 403 ER.01.40, while reads, refunds and cancellations still work.",
    }),
    suspended_at: z.string().nullable().meta({ format: 'date-time', description: 'Since when the account is suspended; null while active.' }),
    created_at: z.string().meta({ format: 'date-time' }),
  })
  .strict()
  .meta({ id: 'Integrator' });
export type IntegratorView = z.infer<typeof integratorViewSchema>;

export const integratorReplySchema = z.object({ integrator: integratorViewSchema }).strict();

/** POST /api/v1/events/{id}/resend answers with the event's id and its callback state. */
export const eventResendViewSchema = z
  .object({
    event_id: z.string().describe('The event (and webhook-id) being delivered again.'),
    callback_url: z.string().describe('Where it goes.'),
    callback_state: z.literal('pending').describe('Queued: the callback worker delivers it at once.'),
    attempts: z.number().int().describe('Delivery attempts made before this one.'),
  })
  .strict()
  .meta({ id: 'EventResend' });

/** Why the operator suspends an integrator (the console's form, `npm run admin -- suspend ID --reason TEXT`). */
export const suspensionReasonSchema = z
  .string({ error: 'is required: say why the integrator is suspended' })
  .trim()
  .min(1, { error: 'is required: say why the integrator is suspended' })
  .max(500, { error: 'must be at most 500 characters' });
