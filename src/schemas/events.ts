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
