import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { newId } from '../../crypto.ts';
import type { Db } from '../../db/client.ts';
import { outboxEvents, webhookAttempts } from '../../db/schema.ts';
import type { EventPayload } from '../../schemas/events.ts';
import { nextRetry } from './retry.ts';
import type { AttemptOutcome } from './webhook-client.ts';

/**
 * The callback side of the outbox, in the database: claim due events under a lease, then
 * record each attempt and the event's new delivery state. No network I/O happens here; the
 * worker delivers between the two, outside any transaction.
 */
export type OutboxEvent = typeof outboxEvents.$inferSelect;

/** The JSON body POSTed for an event; byte-for-byte the same on every attempt. */
export function eventPayload(event: Pick<OutboxEvent, 'id' | 'type' | 'createdAt' | 'data'>): EventPayload {
  return { id: event.id, type: event.type, created_at: event.createdAt.toISOString(), data: event.data };
}
export const webhookBody = (event: Pick<OutboxEvent, 'id' | 'type' | 'createdAt' | 'data'>) => JSON.stringify(eventPayload(event));

/**
 * Claims up to `limit` events whose callback is due and not leased, leasing them until
 * `now + leaseMs`. One statement (UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED)), so
 * concurrent workers never claim the same event; a worker that dies leaves a lease that lapses,
 * and the event is claimed again (same webhook-id: at-least-once).
 */
export async function claimDueCallbacks(db: Db, opts: { now: Date; leaseMs: number; limit: number }): Promise<OutboxEvent[]> {
  const due = db
    .select({ id: outboxEvents.id })
    .from(outboxEvents)
    .where(
      and(
        eq(outboxEvents.callbackState, 'pending'),
        lte(outboxEvents.callbackNextAt, opts.now),
        or(isNull(outboxEvents.callbackLockedUntil), lte(outboxEvents.callbackLockedUntil, opts.now)),
      ),
    )
    .orderBy(asc(outboxEvents.callbackNextAt))
    .limit(opts.limit)
    .for('update', { skipLocked: true });
  return db
    .update(outboxEvents)
    .set({ callbackLockedUntil: new Date(opts.now.getTime() + opts.leaseMs) })
    .where(and(inArray(outboxEvents.id, due), eq(outboxEvents.callbackState, 'pending')))
    .returning();
}

export type CallbackState = OutboxEvent['callbackState'];

/**
 * Records one attempt and moves the event on: delivered on 2xx; otherwise pending with the
 * next attempt time (schedule + jitter, later if Retry-After says so), or failed when the
 * schedule is exhausted or retrying cannot help. Never downgrades an event another worker
 * already finished. One statement (an UPDATE feeding an INSERT), so it is atomic without an
 * explicit transaction and costs one round trip.
 */
export async function recordCallbackAttempt(
  db: Db,
  opts: {
    event: Pick<OutboxEvent, 'id' | 'callbackAttempts'>;
    startedAt: Date;
    outcome: AttemptOutcome;
    now: Date;
    schedule: readonly number[];
    random?: () => number;
  },
): Promise<{ attempt: number; state: CallbackState; nextAt: Date | null }> {
  const { outcome } = opts;
  const attempt = opts.event.callbackAttempts + 1;
  let state: CallbackState = 'delivered';
  let nextAt: Date | null = null;
  if (!outcome.ok) {
    const decision = outcome.permanent
      ? ({ kind: 'give-up' } as const)
      : nextRetry({ attempt, schedule: opts.schedule, now: opts.now, retryAfterSeconds: outcome.retryAfterSeconds, random: opts.random });
    state = decision.kind === 'retry' ? 'pending' : 'failed';
    nextAt = decision.kind === 'retry' ? decision.at : null;
  }
  const now = opts.now.toISOString();
  const result = (await db.execute(sql`
    with upd as (
      update ${outboxEvents} set
        callback_attempts = callback_attempts + 1,
        callback_state = case when callback_state = 'pending' then ${state}::text else callback_state end,
        callback_delivered_at = case when callback_state = 'pending' and ${state}::text = 'delivered' then ${now}::timestamptz else callback_delivered_at end,
        callback_next_at = case when callback_state = 'pending' then ${nextAt?.toISOString() ?? null}::timestamptz else callback_next_at end,
        callback_locked_until = null
      where id = ${opts.event.id}
      returning id, callback_attempts, callback_state
    )
    insert into ${webhookAttempts} (id, event_id, attempt, started_at, latency_ms, status_code, error)
    select ${newId('wha')}, upd.id, upd.callback_attempts, ${opts.startedAt.toISOString()}::timestamptz, ${outcome.latencyMs}::int, ${outcome.statusCode ?? null}::int, ${outcome.error ?? null}::text
    from upd
    returning attempt, (select callback_state from upd) as state`)) as unknown as { rows: Array<{ attempt: number; state: CallbackState }> };
  const row = result.rows[0];
  if (!row) throw new Error(`outbox event ${opts.event.id} vanished`);
  return { attempt: Number(row.attempt), state: row.state, nextAt: row.state === 'pending' ? nextAt : null };
}
