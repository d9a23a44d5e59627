import { and, eq } from 'drizzle-orm';
import { newId } from '../../crypto.ts';
import { cardRegistrations, scheduleRuns, schedules } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { chargeClaim } from './charge.ts';
import { leaseEnd, scheduleColumns, toClaim } from './claim.ts';
import { type RecordOutcome, recordClaimOutcome } from './record.ts';
import { cadenceOf, nextRunAfter } from './recurrence.ts';

/** What POST /schedules/{reference}/run did: the occurrence charged now and how it ended. */
export interface RunNowResult {
  runId: string;
  dueAt: Date;
  outcome: RecordOutcome;
  paymentId: string | null;
  nextRunAt: Date | null;
  timeOffset: string;
}

/**
 * Sandbox only (like a test clock): charges the schedule's next occurrence now, through the
 * scheduler's own path: the occurrence is inserted (unique per schedule and due time) in the
 * transaction that advances next_run_at, then charged with the run's key and recorded once, with
 * the usual events. The acquirer says whether it allows this (`capabilities.runSchedulesNow`).
 */
export async function runScheduleNow(app: DomainContext, integrator: { id: string }, reference: string): Promise<RunNowResult> {
  const connector = await app.connectors.forIntegrator(integrator.id);
  if (!connector.capabilities.runSchedulesNow) {
    throw new DomainError('ER.12.32', 'Only the sandbox acquirer can run a schedule now', {
      messages: { reference: [`the ${connector.name} acquirer charges schedules only when they are due`] },
    });
  }
  const now = app.now();
  const lease = leaseEnd(app, now);
  const claim = await app.db.transaction(async (tx) => {
    const [s] = await tx
      .select(scheduleColumns)
      .from(schedules)
      .innerJoin(cardRegistrations, eq(cardRegistrations.reference, schedules.cardRegistrationReference))
      .where(and(eq(schedules.id, reference), eq(schedules.integratorId, integrator.id)))
      .for('update', { of: schedules });
    if (!s) throw notFound('reference', 'Schedule');
    const notRunnable = (detail: string) => new DomainError('ER.12.33', 'Schedule is not active', { messages: { reference: [detail] } });
    if (s.status !== 'active') throw notRunnable(`the schedule is ${s.status}; only an active schedule can run`);
    if (!s.nextRunAt) throw notRunnable('its recurrence has no occurrence left to charge');
    if (s.cardStatus !== 'active') throw notRunnable('its card registration is no longer active; register the card again and create a new schedule');
    if (!s.cardToken) throw notRunnable('its card registration keeps no card (the customer pays each occurrence by a link); it runs only when due');
    const c = toClaim(s, s.cardToken, { runId: newId('run'), attempt: 1, dueAt: s.nextRunAt });
    const inserted = await tx
      .insert(scheduleRuns)
      .values({
        id: c.runId,
        scheduleId: c.scheduleId,
        dueAt: c.dueAt,
        status: 'pending',
        attempts: 1,
        nextAttemptAt: lease,
        lockedUntil: lease,
        createdAt: now,
      })
      .onConflictDoNothing({ target: [scheduleRuns.scheduleId, scheduleRuns.dueAt] })
      .returning({ id: scheduleRuns.id });
    if (inserted.length === 0) throw notRunnable('its next occurrence is already being charged; try again shortly');
    const next = nextRunAfter(cadenceOf(s), c.dueAt, c.dueAt);
    await tx.update(schedules).set({ nextRunAt: next }).where(eq(schedules.id, c.scheduleId));
    return { claim: c, next };
  });
  const outcome = await recordClaimOutcome(app, claim.claim, await chargeClaim(app, claim.claim));
  const [run] = await app.db.select({ paymentId: scheduleRuns.paymentId }).from(scheduleRuns).where(eq(scheduleRuns.id, claim.claim.runId));
  return {
    runId: claim.claim.runId,
    dueAt: claim.claim.dueAt,
    outcome,
    paymentId: run!.paymentId,
    nextRunAt: claim.next,
    timeOffset: claim.claim.timeOffset,
  };
}
