import { z } from 'zod';
import { httpUrlSchema } from './callback.ts';
import { customerViewSchema } from './customer.ts';
import { emailFilter, listQuerySchema, pageSchema, referenceFilter } from './pagination.ts';

/**
 * POST /api/v1/schedule: `{ payload }`, a JWT whose `data` claim is the schedule (spec §2.2).
 * Required: credit_card.reference, the six recurrence fields, payment.amount and currency,
 * time_offset. The rest is optional. Recurrence fields accept a string or a whole number.
 */
export const scheduleRequestSchema = z
  .object({ payload: z.string({ error: 'is required: a JWT signed with HS256' }).trim().min(1, 'is required: a JWT signed with HS256') })
  .strict();

const cronField = z.union([z.string().trim().min(1, 'must not be empty').max(100), z.number().int().min(0).transform(String)], {
  error: 'is required: a cron field such as "0", "*/15" or "MON-FRI"',
});

const boolish = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')], { error: 'must be true or false' });

export const scheduleDataSchema = z
  .object({
    credit_card: z.object({ reference: z.string({ error: 'is required: the card registration reference' }) }).strict(),
    schedule: z
      .object({
        second: cronField,
        minute: cronField,
        hour: cronField,
        day_of_month: cronField,
        month: cronField,
        day_of_week: cronField,
      })
      .strict(),
    payment: z
      .object({
        description: z.string().trim().max(500).optional(),
        amount: z.union([z.number(), z.string()], { error: 'is required: a positive amount such as 150.00' }),
        currency: z.string({ error: 'is required: an ISO 4217 code such as PHP' }).regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as PHP'),
        merchant_reference_id: z.string().trim().max(255).optional(),
        other_references: z.array(z.string().max(255)).max(20).optional(),
      })
      .strict(),
    route: z
      .object({
        callback_url: httpUrlSchema.optional(),
        notify_user: boolish.optional(),
      })
      .strict()
      .optional(),
    time_offset: z.string({ error: 'is required: a UTC offset such as +08:00' }),
    customer_ip_address: z.union([z.ipv4(), z.ipv6()], { error: 'must be an IPv4 or IPv6 address' }).optional(),
  })
  .strict();

/** DELETE /api/v1/schedule and /api/v1/card-registration: `{ reference }`. */
export const referenceBodySchema = z
  .object({ reference: z.string({ error: 'is required: a schedule or card registration reference' }).trim().min(1, 'is required').max(100) })
  .strict();

const isoTime = z.string().meta({ format: 'date-time' });
const decimal = z.string().regex(/^\d+(\.\d+)?$/);

/** POST /schedule (OK.12.00). */
export const scheduleCreatedSchema = z.object({ reference: z.string().meta({ description: 'The schedule reference (sch_…).' }) }).strict();

/** DELETE /schedule with a schedule reference: OK.12.20 (cancelled now) or OK.12.21 (cancelled before). */
export const scheduleCancelledSchema = z.object({ reference: z.string(), timestamp: isoTime }).strict().meta({ id: 'ScheduleCancelled' });
export type ScheduleCancelled = z.infer<typeof scheduleCancelledSchema>;

/** GET /schedules/{reference} (and, without runs, GET /api/v1/schedules): times are in the schedule's own UTC offset. */
export const scheduleViewSchema = z
  .object({
    reference: z.string(),
    status: z.enum(['active', 'suspended', 'cancelled']),
    card_registration_reference: z.string(),
    recurrence: z.record(z.string(), z.string()).meta({ description: 'The six recurrence fields exactly as given.' }),
    time_offset: z.string(),
    amount: decimal,
    currency: z.string(),
    description: z.string().nullable(),
    merchant_reference_id: z.string().nullable(),
    other_references: z.array(z.string()),
    notify_user: z.boolean(),
    customer: customerViewSchema.nullable().meta({ description: 'The customer of the registered card.' }),
    link: z
      .string()
      .nullable()
      .meta({ description: 'The slug of the subscription link a customer started it from (docs/subscriptions.md); null: signed by the integrator.' }),
    cycles_left: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Charges still to make before a subscription with a number of cycles ends; null: until cancelled.' }),
    every: z.number().int().meta({
      description:
        'It runs on one occurrence of its recurrence in every `every` (a subscription every 2 weeks: 2; docs/schedules.md). Always 1 for a schedule the integrator signed.',
    }),
    trial_ends_at: isoTime.nullable().meta({
      description: 'A subscription started with a free trial: when the trial ends, which is its first charge; null: no trial.',
    }),
    cancel_at: isoTime.nullable().meta({ description: 'A subscription the customer cancelled at the end of its period: when it ends (no charge then).' }),
    next_run_at: isoTime.nullable(),
    consecutive_failures: z.number().int(),
    created_at: isoTime.nullable(),
    cancelled_at: isoTime.nullable(),
    suspended_at: isoTime.nullable(),
    runs: z.array(
      z
        .object({
          id: z.string(),
          due_at: isoTime.nullable(),
          status: z.enum(['pending', 'retrying', 'awaiting_customer', 'succeeded', 'failed', 'cancelled']),
          attempts: z.number().int(),
          next_attempt_at: isoTime.nullable(),
          transaction_id: z.string().nullable(),
          transaction_status: z.enum(['succeeded', 'failed']).nullable(),
          refunded_amount: decimal.nullable(),
          failure_code: z.string().nullable(),
          failure_message: z.string().nullable(),
          completed_at: isoTime.nullable(),
        })
        .strict(),
    ),
  })
  .strict()
  .meta({ id: 'Schedule' });
export type ScheduleView = z.infer<typeof scheduleViewSchema>;

export const scheduleReplySchema = z.object({ schedule: scheduleViewSchema }).strict();

/** A schedule as listed (GET /api/v1/schedules): its state and terms, without its runs. */
export const scheduleListItemSchema = scheduleViewSchema.omit({ runs: true }).strict().meta({ id: 'ScheduleListItem' });
export type ScheduleListItem = z.infer<typeof scheduleListItemSchema>;
export const schedulePageSchema = pageSchema(scheduleListItemSchema);

/** GET /api/v1/schedules. */
export const schedulesQuerySchema = listQuerySchema({
  status: z
    .enum(['active', 'suspended', 'cancelled'], { error: 'must be active, suspended or cancelled' })
    .optional()
    .describe('Only schedules in this state.'),
  merchant_reference_id: referenceFilter.optional().describe('Only schedules with exactly this merchant_reference_id.'),
  card_registration_reference: z.uuid('must be a card registration reference (a UUID)').optional().describe('Only schedules charging this registered card.'),
  customer_email: emailFilter.optional(),
});
export type SchedulesQuery = z.infer<typeof schedulesQuerySchema>;

/** POST /api/v1/schedules/{reference}/run (sandbox only): the occurrence charged now. */
export const scheduleRunNowViewSchema = z
  .object({
    reference: z.string().describe('The schedule.'),
    run_id: z.string().describe('The occurrence charged now.'),
    due_at: z.string().describe('The occurrence’s due time (in the schedule’s time_offset).'),
    outcome: z.enum(['succeeded', 'retrying', 'failed', 'suspended', 'already_recorded']).describe('How the charge ended, as the scheduler records it.'),
    transaction_id: z.string().nullable().describe('The transaction recorded for it.'),
    next_run_at: z.string().nullable().describe('The following occurrence.'),
  })
  .strict()
  .meta({ id: 'ScheduleRunNow' });
export type ScheduleRunNowView = z.infer<typeof scheduleRunNowViewSchema>;

/** POST /api/v1/schedules/{reference}/resume: the schedule is active again. */
export const scheduleResumedViewSchema = z
  .object({
    reference: z.string().describe('The schedule.'),
    status: z.literal('active').describe('Active again.'),
    next_run_at: z.string().describe('Its next occurrence: the first after the resumption (in the schedule’s time_offset); missed ones are not charged.'),
    timestamp: z.string().describe('When it was resumed (ISO 8601 UTC).'),
  })
  .strict()
  .meta({ id: 'ScheduleResumed' });
export type ScheduleResumedView = z.infer<typeof scheduleResumedViewSchema>;
