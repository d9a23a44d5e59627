import { isNull, sql } from 'drizzle-orm';
import { newId } from '../../crypto.ts';
import type { Db } from '../../db/client.ts';
/**
 * The callback side of the outbox, in the database: claim due events under a lease, then
 * record each attempt and the event's new delivery state. No network I/O happens here; the
 * worker delivers between the two, outside any transaction.
 */
import type { OutboxEvent } from '../../db/schema.ts';
import { integrators, outboxEvents, webhookAttempts } from '../../db/schema.ts';
import type { AttemptOutcome } from '../../outbound/webhook-client.ts';
import { claimDue } from './outbox.ts';
import { nextRetry } from './retry.ts';

export type { OutboxEvent };

/** Claims due callbacks under a lease (see claimDue). */
export const claimDueCallbacks = (db: Db, opts: { now: Date; leaseMs: number; limit: number }): Promise<OutboxEvent[]> => claimDue(db, 'callback', opts);

export type CallbackState = OutboxEvent['callbackState'];

export interface AttemptRecord {
  event: Pick<OutboxEvent, 'id' | 'callbackAttempts'>;
  startedAt: Date;
  outcome: AttemptOutcome;
}

export interface RecordedAttempt {
  attempt: number;
  state: CallbackState;
  nextAt: Date | null;
}

/**
 * Records attempts and moves their events on: delivered on 2xx; otherwise pending with the
 * next attempt time (schedule + jitter, later if Retry-After says so), or failed when the
 * schedule is exhausted or retrying cannot help. Never downgrades an event another worker
 * already finished. One statement for the whole list (an UPDATE … FROM VALUES feeding an
 * INSERT), so it is atomic without an explicit transaction and costs one round trip.
 * Each event id may appear once per call.
 */
export async function recordCallbackAttempts(
  db: Db,
  records: readonly AttemptRecord[],
  opts: { now: Date; schedule: readonly number[]; random?: () => number },
): Promise<Map<string, RecordedAttempt>> {
  const results = new Map<string, RecordedAttempt>();
  if (records.length === 0) return results;
  const decided = records.map((r) => {
    const { outcome } = r;
    const attempt = r.event.callbackAttempts + 1;
    let state: CallbackState = 'delivered';
    let nextAt: Date | null = null;
    if (!outcome.ok) {
      const decision = outcome.permanent
        ? ({ kind: 'give-up' } as const)
        : nextRetry({ attempt, schedule: opts.schedule, now: opts.now, retryAfterSeconds: outcome.retryAfterSeconds, random: opts.random });
      state = decision.kind === 'retry' ? 'pending' : 'failed';
      nextAt = decision.kind === 'retry' ? decision.at : null;
    }
    return { ...r, state, nextAt };
  });
  const rows = sql.join(
    decided.map(
      (r) =>
        sql`(${r.event.id}::text, ${r.state}::text, ${r.nextAt?.toISOString() ?? null}::timestamptz, ${newId('wha')}::text, ${r.startedAt.toISOString()}::timestamptz, ${r.outcome.latencyMs}::int, ${r.outcome.statusCode ?? null}::int, ${r.outcome.error ?? null}::text)`,
    ),
    sql`, `,
  );
  const now = opts.now.toISOString();
  const result = (await db.execute(sql`
    with input (event_id, state, next_at, attempt_id, started_at, latency_ms, status_code, error) as (values ${rows}),
    upd as (
      update ${outboxEvents} o set
        callback_attempts = o.callback_attempts + 1,
        callback_state = case when o.callback_state = 'pending' then i.state else o.callback_state end,
        callback_delivered_at = case when o.callback_state = 'pending' and i.state = 'delivered' then ${now}::timestamptz else o.callback_delivered_at end,
        callback_next_at = case when o.callback_state = 'pending' then i.next_at else o.callback_next_at end,
        callback_locked_until = null
      from input i
      where o.id = i.event_id
      returning o.id, o.callback_attempts, o.callback_state
    ),
    ins as (
      insert into ${webhookAttempts} (id, event_id, attempt, started_at, latency_ms, status_code, error)
      select i.attempt_id, upd.id, upd.callback_attempts, i.started_at, i.latency_ms, i.status_code, i.error
      from upd join input i on i.event_id = upd.id
      returning event_id, attempt
    )
    select ins.event_id, ins.attempt, upd.callback_state as state from ins join upd on upd.id = ins.event_id`)) as unknown as {
    rows: Array<{ event_id: string; attempt: number; state: CallbackState }>;
  };
  const nextAtById = new Map(decided.map((r) => [r.event.id, r.nextAt]));
  for (const row of result.rows) {
    results.set(row.event_id, {
      attempt: Number(row.attempt),
      state: row.state,
      nextAt: row.state === 'pending' ? (nextAtById.get(row.event_id) ?? null) : null,
    });
  }
  return results;
}

/**
 * Integrators with no default callback URL: their events that name no callback_url of their own
 * are recorded with callback state `no_destination` and sent to no one (the callback worker says
 * so once per integrator when it starts).
 */
export function integratorsWithoutDestination(db: Db): Promise<Array<{ id: string }>> {
  return db.select({ id: integrators.id }).from(integrators).where(isNull(integrators.defaultCallbackUrl)).orderBy(integrators.id);
}
