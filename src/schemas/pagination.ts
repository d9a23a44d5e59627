import { z } from 'zod';

/**
 * The shape every list endpoint shares (GET /api/v1/transactions, /refunds, /schedules,
 * /card-registrations, /links, /events): newest first (`created_at` desc, then id desc),
 * keyset cursors that are object ids, and the page inside the envelope's `data`.
 */
export const LIST_LIMIT_MAX = 100;
export const LIST_LIMIT_DEFAULT = 20;

const limitMessage = `must be a whole number from 1 to ${LIST_LIMIT_MAX}`;
const timestampMessage = 'must be an ISO 8601 timestamp with a time zone, e.g. 2025-01-31T08:00:00Z';
const cursorMessage = 'must be the id of an object from this list';

/** Instants the database stores and JavaScript prints the same way: the years 1970 to 9999. */
export const inStorableRange = (ms: number) => !Number.isNaN(ms) && ms >= 0 && ms < Date.UTC(10000, 0, 1);

/** An ISO 8601 instant with a time zone, as a Date. */
export const timestampParam = z
  .string()
  .trim()
  .max(64, timestampMessage)
  .refine((v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i.test(v) && inStorableRange(Date.parse(v)), {
    message: timestampMessage,
  })
  .transform((v) => new Date(v));

const cursorParam = z
  .string()
  .trim()
  .min(1, cursorMessage)
  .max(64, cursorMessage)
  .regex(/^[A-Za-z0-9_-]+$/, cursorMessage);

/** The query parameters every list takes; each list adds its own filters (`listQuerySchema`). */
export const pageParams = {
  limit: z.coerce
    .number({ error: limitMessage })
    .int(limitMessage)
    .min(1, limitMessage)
    .max(LIST_LIMIT_MAX, limitMessage)
    .default(LIST_LIMIT_DEFAULT)
    .describe('How many items to return.'),
  starting_after: cursorParam.optional().describe('An object id from a previous page (its next_cursor): the page of objects older than it.'),
  ending_before: cursorParam.optional().describe('An object id from a previous page (its previous_cursor): the page of objects newer than it.'),
  created_gte: timestampParam.optional().describe('Only objects created at or after this instant (ISO 8601).'),
  created_lt: timestampParam.optional().describe('Only objects created before this instant (ISO 8601).'),
};

/** A list's query schema: the shared page parameters plus its own filters; unknown parameters are refused. */
export function listQuerySchema<F extends z.ZodRawShape>(filters: F) {
  return z
    .object({ ...pageParams, ...filters })
    .strict()
    .superRefine((q, ctx) => {
      const v = q as { starting_after?: string; ending_before?: string; created_gte?: Date; created_lt?: Date };
      if (v.starting_after && v.ending_before) {
        ctx.addIssue({ code: 'custom', path: ['ending_before'], message: 'cannot be combined with starting_after; page in one direction at a time' });
      }
      if (v.created_gte && v.created_lt && v.created_gte >= v.created_lt) {
        ctx.addIssue({ code: 'custom', path: ['created_lt'], message: 'must be later than created_gte' });
      }
    });
}

/** What the shared keyset helper needs from a parsed list query. */
export interface PageRequest {
  limit: number;
  starting_after?: string;
  ending_before?: string;
  created_gte?: Date;
  created_lt?: Date;
}

/** The page inside the envelope's `data`, the same for every list. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item).describe('The objects, newest first.'),
    has_more: z.boolean().describe('Whether more objects exist in the direction being paged (older for starting_after or no cursor; newer for ending_before).'),
    next_cursor: z.string().nullable().describe('Pass as starting_after for the next (older) page; null when there is none.'),
    previous_cursor: z.string().nullable().describe('Pass as ending_before for the previous (newer) page; null when there is none.'),
  });
}
export type PageView<T> = { items: T[]; has_more: boolean; next_cursor: string | null; previous_cursor: string | null };

/** An e-mail filter: exact, case-insensitive. */
export const emailFilter = z
  .string()
  .trim()
  .min(3, 'must be an e-mail address')
  .max(254, 'must be an e-mail address')
  .regex(/^[^\s@]+@[^\s@]+$/, 'must be an e-mail address')
  .describe('Only objects whose customer e-mail is exactly this (case-insensitive).');

/** A free-text reference filter (merchant_reference_id): exact match. */
export const referenceFilter = z.string().min(1, 'must not be empty').max(255, 'must be at most 255 characters');
