import { z } from 'zod';

/**
 * The event a callback carries (Standard Webhooks payload shape, with the id repeated in the
 * body): `{ id, type, created_at, data }`. `id` equals the `webhook-id` header and is the same on
 * every retry, so receivers deduplicate on it.
 */
export const eventTypes = [
  'payment.succeeded',
  'payment.failed',
  'refund.succeeded',
  'refund.failed',
  'card_registration.completed',
  'card_registration.deleted',
  'schedule.created',
  'schedule.cancelled',
  'schedule.charge_succeeded',
  'schedule.charge_failed',
  'schedule.suspended',
] as const;

export interface EventPayload {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

export const EVENTS_PAGE_MAX = 100;
export const EVENTS_PAGE_DEFAULT = 50;

/** Query of GET /api/v1/events: `after` is an event id (evt_…) or an ISO 8601 timestamp. */
export const eventsQuerySchema = z
  .object({
    after: z
      .string()
      .trim()
      .max(64)
      .refine((v) => /^evt_[0-9a-f]{32}$/.test(v) || (/^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v))), {
        message: 'must be an event id (evt_…) or an ISO 8601 timestamp with a time zone, e.g. 2025-01-31T08:00:00Z',
      })
      .optional(),
    limit: z.coerce
      .number({ error: `must be a whole number from 1 to ${EVENTS_PAGE_MAX}` })
      .int(`must be a whole number from 1 to ${EVENTS_PAGE_MAX}`)
      .min(1, `must be a whole number from 1 to ${EVENTS_PAGE_MAX}`)
      .max(EVENTS_PAGE_MAX, `must be a whole number from 1 to ${EVENTS_PAGE_MAX}`)
      .default(EVENTS_PAGE_DEFAULT),
    type: z.enum(eventTypes, { error: `must be one of ${eventTypes.join(', ')}` }).optional(),
  })
  .strict();
export type EventsQuery = z.infer<typeof eventsQuerySchema>;

const isoTime = z.string().meta({ format: 'date-time' });

/** One event with its callback and e-mail delivery state (GET /api/v1/events). */
export const eventViewSchema = z
  .object({
    id: z.string().meta({ description: 'evt_…: equals the `webhook-id` header of its callbacks.' }),
    type: z.enum(eventTypes),
    created_at: isoTime,
    data: z.record(z.string(), z.unknown()).meta({ description: 'The event’s fields, as its callback carries them (docs/callbacks.md).' }),
    callback: z
      .object({
        url: z.string().nullable(),
        state: z.enum(['none', 'pending', 'delivered', 'failed']),
        attempts: z.number().int(),
        next_attempt_at: isoTime.nullable(),
        delivered_at: isoTime.nullable(),
        attempt_log: z.array(
          z
            .object({
              attempt: z.number().int(),
              started_at: isoTime,
              status_code: z.number().int().nullable(),
              latency_ms: z.number().int().nullable(),
              error: z.string().nullable(),
            })
            .strict(),
        ),
      })
      .strict(),
    email: z
      .object({
        state: z.enum(['none', 'pending', 'sent', 'failed']),
        attempts: z.number().int(),
        next_attempt_at: isoTime.nullable(),
        sent_at: isoTime.nullable(),
        last_error: z.string().nullable(),
      })
      .strict(),
  })
  .strict()
  .meta({ id: 'Event' });
export type EventView = z.infer<typeof eventViewSchema>;

/** A page of events; pass `next_after` as `after` for the next one. */
export const eventPageSchema = z
  .object({ events: z.array(eventViewSchema), has_more: z.boolean(), next_after: z.string().nullable() })
  .strict()
  .meta({ id: 'EventPage' });
export type EventPageView = z.infer<typeof eventPageSchema>;

/** POST /api/v1/webhook-secret/rotate: the new secret, shown once. */
export const webhookSecretRotatedSchema = z
  .object({
    webhook_secret: z.string().meta({ description: 'The new signing secret (whsec_…); shown only in this response.' }),
    previous_secret_valid_until: isoTime.meta({ description: 'Until then callbacks carry signatures by both secrets.' }),
  })
  .strict();
