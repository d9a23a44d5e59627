import { and, eq, inArray, ne } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { scheduleRuns, schedules } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { recordEvent } from '../notifications/domain-events.ts';
import { closeWaitingLinks } from './pay-links.ts';

/**
 * Cancels schedules in the caller's transaction: no further occurrences, and retries waiting
 * for their next attempt are cancelled. An occurrence whose charge is already in flight
 * (status pending) is finished, because the acquirer may already have moved the money. A payment
 * link still waiting for the customer closes (its run is cancelled).
 * Returns the references cancelled now (already-cancelled ones are left as they are).
 */
export async function cancelSchedulesTx(
  app: Pick<DomainContext, 'presentEvent'>,
  tx: Tx,
  opts: { integratorId: string; scheduleId?: string; cardRegistrationReference?: string; now: Date; reason: 'requested' | 'card_registration_deleted' },
): Promise<string[]> {
  const where = [eq(schedules.integratorId, opts.integratorId), ne(schedules.status, 'cancelled')];
  if (opts.scheduleId) where.push(eq(schedules.id, opts.scheduleId));
  if (opts.cardRegistrationReference) where.push(eq(schedules.cardRegistrationReference, opts.cardRegistrationReference));
  const cancelled = await tx
    .update(schedules)
    .set({ status: 'cancelled', cancelledAt: opts.now, nextRunAt: null })
    .where(and(...where))
    .returning({ id: schedules.id, callbackUrl: schedules.callbackUrl });
  if (cancelled.length === 0) return [];
  const ids = cancelled.map((s) => s.id);
  await tx
    .update(scheduleRuns)
    .set({ status: 'cancelled', nextAttemptAt: null, completedAt: opts.now })
    .where(and(inArray(scheduleRuns.scheduleId, ids), eq(scheduleRuns.status, 'retrying')));
  await closeWaitingLinks(tx, ids, opts.now);
  for (const schedule of cancelled) {
    await recordEvent(app.presentEvent, tx, {
      integratorId: opts.integratorId,
      event: { type: 'schedule.cancelled', scheduleId: schedule.id, reason: opts.reason },
      callbackUrl: schedule.callbackUrl,
      now: opts.now,
    });
  }
  return ids;
}
