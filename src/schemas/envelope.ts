import { z } from 'zod';

/**
 * The response envelope every API answer carries (docs/interface.md), as zod schemas: the
 * OpenAPI document (src/api/openapi/) is generated from these and from each operation's `data`.
 */
export const envelopeTimestampSchema = z.string().meta({
  id: 'Timestamp',
  description: 'When the response was made: ISO 8601 date-time with milliseconds and a UTC offset.',
  examples: ['2026-11-21T09:15:02.123+00:00'],
});

export const statusCodeSchema = z.string().regex(/^(OK|ER)\.\d{2}\.\d{2}$/);

/** `messages`: dotted field path → what is wrong with it; one plain sentence on a server error. */
export const messagesSchema = z.union([z.record(z.string(), z.array(z.string())), z.string()]).meta({
  id: 'Messages',
  description: 'Per-field messages (dotted field path → list of messages) on errors; a plain sentence for ER.99.00.',
  examples: [{ amount: ['PHP allows at most 2 decimal places in the amount'] }],
});

/** The `data` of a failure that carries nothing beyond its code (more fields may be added, e.g. `request_id`). */
export const errorDataSchema = z.looseObject({ status_code: statusCodeSchema, status_description: z.string() });

/** The dynamic payment link's success: not the envelope, as the interface shows. */
export const dynamicLinkReplySchema = z.object({ link: z.url().meta({ description: 'The checkout page to send the customer to.' }) }).strict();
