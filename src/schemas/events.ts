import { z } from 'zod';
import { pageParams, pageSchema } from './pagination.ts';

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
  'schedule.resumed',
  'schedule.charge_succeeded',
  'schedule.charge_failed',
  'schedule.suspended',
  'schedule.payment_link_sent',
  'schedule.payment_link_expired',
  'webhook.test',
  'subscription.page_link',
] as const;

export interface EventPayload {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

export const EVENTS_PAGE_DEFAULT = 50;

const eventTypeFilter = z
  .enum(eventTypes, { error: `must be one of ${eventTypes.join(', ')}` })
  .optional()
  .describe('Only events of this type.');
const afterCursor = z
  .string()
  .trim()
  .max(64)
  .refine((v) => /^evt_[0-9a-f]{32}$/.test(v) || (/^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v))), {
    message: 'must be an event id (evt_…) or an ISO 8601 timestamp with a time zone, e.g. 2025-01-31T08:00:00Z',
  })
  .describe('Legacy: an event id or timestamp; events after it, oldest first.');

/**
 * Query of GET /api/v1/events. Without `after`: the list every endpoint shares, newest first
 * (`starting_after` / `ending_before`). With `after` (an event id or an ISO 8601 timestamp), the
 * legacy feed: oldest first, as before; the two cannot be mixed.
 */
export const eventsQuerySchema = z
  .object({ ...pageParams, type: eventTypeFilter, after: afterCursor.optional() })
  .strict()
  .superRefine((q, ctx) => {
    if (q.after !== undefined) {
      for (const name of ['starting_after', 'ending_before', 'created_gte', 'created_lt'] as const) {
        if (q[name] !== undefined) ctx.addIssue({ code: 'custom', path: [name], message: 'cannot be combined with after (the legacy oldest-first feed)' });
      }
    }
    if (q.starting_after && q.ending_before) {
      ctx.addIssue({ code: 'custom', path: ['ending_before'], message: 'cannot be combined with starting_after; page in one direction at a time' });
    }
    if (q.created_gte && q.created_lt && q.created_gte >= q.created_lt)
      ctx.addIssue({ code: 'custom', path: ['created_lt'], message: 'must be later than created_gte' });
  });
export type EventsQuery = z.infer<typeof eventsQuerySchema>;

/** The legacy feed's query (with `after`); its default page size stays 50. */
export type LegacyEventsQuery = { after: string; limit: number; type?: EventsQuery['type'] };

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
        state: z.enum(['no_destination', 'pending', 'delivered', 'failed']).meta({
          description:
            '`no_destination`: neither the event’s source nor the account (default_callback_url) named a callback URL, so it was sent to no one; POST /api/v1/events/{id}/resend sends it once a default is set.',
        }),
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
        state: z.enum(['none', 'pending', 'sent', 'saved', 'failed']).meta({
          description:
            'none: no e-mail; pending: queued or retrying; sent: handed to the mail server; saved: not e-mailed, because no mail server is set (written as a file on the server); failed: gave up.',
        }),
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

/** GET /api/v1/events: the list every endpoint shares, newest first. */
export const eventPageSchema = pageSchema(eventViewSchema);

/** The legacy feed's page (with `after`): oldest first; pass `next_after` as `after` for the next one. */
export const legacyEventPageSchema = z
  .object({ events: z.array(eventViewSchema), has_more: z.boolean(), next_after: z.string().nullable() })
  .meta({ id: 'LegacyEventPage' });
export type LegacyEventPageView = z.infer<typeof legacyEventPageSchema>;

/** POST /api/v1/webhook-secret/rotate: the new secret, shown once. */
export const webhookSecretRotatedSchema = z
  .object({
    webhook_secret: z.string().meta({ description: 'The new signing secret (whsec_…); shown only in this response.' }),
    previous_secret_valid_until: isoTime.meta({ description: 'Until then callbacks carry signatures by both secrets.' }),
  })
  .strict();

/** POST /api/v1/events/test answers with the queued webhook.test event. */
export const testEventViewSchema = z
  .object({
    event_id: z.string().describe('The webhook.test event (and its webhook-id).'),
    callback_url: z.string().describe('Where it goes: the account’s default callback URL.'),
    callback_state: z.literal('pending').describe('Queued: the callback worker delivers it at once, signed like every event.'),
  })
  .strict()
  .meta({ id: 'TestEvent' });
