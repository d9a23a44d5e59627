import { and, asc, eq, gt, inArray, or, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { outboxEvents, webhookAttempts } from '../../db/schema.ts';
import type { EventsQuery } from '../../schemas/events.ts';
import { notFound } from '../errors.ts';
import { eventPayload } from './callbacks.ts';

/**
 * GET /api/v1/events: an integrator's own events, oldest first, with their callback and e-mail
 * delivery state, so nothing depends on a callback arriving. Cursor: `after` = the last event
 * id seen (exact, stable), or a timestamp (events created strictly after it).
 */
export interface EventView {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
  callback: {
    url: string | null;
    state: string;
    attempts: number;
    next_attempt_at: string | null;
    delivered_at: string | null;
    attempt_log: Array<{ attempt: number; started_at: string; status_code: number | null; latency_ms: number | null; error: string | null }>;
  };
  email: { state: string; attempts: number; next_attempt_at: string | null; sent_at: string | null; last_error: string | null };
}

export interface EventPage {
  events: EventView[];
  has_more: boolean;
  /** Pass as `after` to get the next page (the last event's id), or null when the page is empty. */
  next_after: string | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export async function listEvents(db: DbOrTx, integratorId: string, query: EventsQuery): Promise<EventPage> {
  const conditions: SQL[] = [eq(outboxEvents.integratorId, integratorId)];
  if (query.type) conditions.push(eq(outboxEvents.type, query.type));
  if (query.after?.startsWith('evt_')) {
    const [cursor] = await db
      .select({ id: outboxEvents.id, createdAt: outboxEvents.createdAt })
      .from(outboxEvents)
      .where(and(eq(outboxEvents.id, query.after), eq(outboxEvents.integratorId, integratorId)));
    if (!cursor) throw notFound('after', `Event ${query.after}`);
    conditions.push(or(gt(outboxEvents.createdAt, cursor.createdAt), and(eq(outboxEvents.createdAt, cursor.createdAt), gt(outboxEvents.id, cursor.id)))!);
  } else if (query.after) {
    conditions.push(gt(outboxEvents.createdAt, new Date(query.after)));
  }
  const rows = await db
    .select()
    .from(outboxEvents)
    .where(and(...conditions))
    .orderBy(asc(outboxEvents.createdAt), asc(outboxEvents.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const log = page.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(
          inArray(
            webhookAttempts.eventId,
            page.map((r) => r.id),
          ),
        )
        .orderBy(asc(webhookAttempts.attempt))
    : [];
  const byEvent = new Map<string, typeof log>();
  for (const a of log) byEvent.set(a.eventId, [...(byEvent.get(a.eventId) ?? []), a]);
  return {
    events: page.map((row) => ({
      ...eventPayload(row),
      callback: {
        url: row.callbackUrl,
        state: row.callbackState,
        attempts: row.callbackAttempts,
        next_attempt_at: row.callbackState === 'pending' ? iso(row.callbackNextAt) : null,
        delivered_at: iso(row.callbackDeliveredAt),
        attempt_log: (byEvent.get(row.id) ?? []).map((a) => ({
          attempt: a.attempt,
          started_at: a.startedAt.toISOString(),
          status_code: a.statusCode,
          latency_ms: a.latencyMs,
          error: a.error,
        })),
      },
      email: {
        state: row.emailState,
        attempts: row.emailAttempts,
        next_attempt_at: row.emailState === 'pending' ? iso(row.emailNextAt) : null,
        sent_at: iso(row.emailSentAt),
        last_error: row.emailLastError,
      },
    })),
    has_more: rows.length > query.limit,
    next_after: page.at(-1)?.id ?? null,
  };
}
