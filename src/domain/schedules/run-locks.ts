import { inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { scheduleRuns } from '../../db/schema.ts';

/**
 * Locks the runs a recorder is about to close (charge outcomes, payment links) and answers, for
 * each run still pending, the attempt it is at: a recorder acts only on a run pending at its own
 * attempt, so a second recorder of the same claim records nothing. In id order, so two recorders
 * of overlapping batches cannot deadlock.
 */
export async function lockPendingRuns(tx: Tx, runIds: string[]): Promise<Map<string, number>> {
  const ids = [...new Set(runIds)].sort();
  const locked = await tx
    .select({ id: scheduleRuns.id, status: scheduleRuns.status, attempts: scheduleRuns.attempts })
    .from(scheduleRuns)
    .where(inArray(scheduleRuns.id, ids))
    .orderBy(scheduleRuns.id)
    .for('update');
  return new Map(locked.filter((r) => r.status === 'pending').map((r) => [r.id, r.attempts]));
}
