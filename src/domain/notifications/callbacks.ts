import { and, asc, eq, inArray, isNull, lte, or } from 'drizzle-orm';
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
 * already delivered.
 */
export async function recordCallbackAttempt(
  db: Db,
  opts: { eventId: string; startedAt: Date; outcome: AttemptOutcome; now: Date; schedule: readonly number[]; random?: () => number },
): Promise<{ attempt: number; state: CallbackState; nextAt: Date | null }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ attempts: outboxEvents.callbackAttempts, state: outboxEvents.callbackState })
      .from(outboxEvents)
      .where(eq(outboxEvents.id, opts.eventId))
      .for('update');
    if (!row) throw new Error(`outbox event ${opts.eventId} vanished`);
    const attempt = row.attempts + 1;
    const { outcome } = opts;
    await tx.insert(webhookAttempts).values({
      id: newId('wha'),
      eventId: opts.eventId,
      attempt,
      startedAt: opts.startedAt,
      latencyMs: outcome.latencyMs,
      statusCode: outcome.statusCode ?? null,
      error: outcome.error ?? null,
    });
    if (row.state !== 'pending') {
      await tx.update(outboxEvents).set({ callbackAttempts: attempt }).where(eq(outboxEvents.id, opts.eventId));
      return { attempt, state: row.state, nextAt: null };
    }
    if (outcome.ok) {
      await tx
        .update(outboxEvents)
        .set({ callbackAttempts: attempt, callbackState: 'delivered', callbackDeliveredAt: opts.now, callbackNextAt: null, callbackLockedUntil: null })
        .where(eq(outboxEvents.id, opts.eventId));
      return { attempt, state: 'delivered', nextAt: null };
    }
    const decision = outcome.permanent
      ? ({ kind: 'give-up' } as const)
      : nextRetry({ attempt, schedule: opts.schedule, now: opts.now, retryAfterSeconds: outcome.retryAfterSeconds, random: opts.random });
    const state = decision.kind === 'retry' ? 'pending' : 'failed';
    const nextAt = decision.kind === 'retry' ? decision.at : null;
    await tx
      .update(outboxEvents)
      .set({ callbackAttempts: attempt, callbackState: state, callbackNextAt: nextAt, callbackLockedUntil: null })
      .where(eq(outboxEvents.id, opts.eventId));
    return { attempt, state, nextAt };
  });
}
