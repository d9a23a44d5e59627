import { and, eq } from 'drizzle-orm';
import type { Integrator } from '../../db/schema.ts';
import { cardRegistrations, schedules } from '../../db/schema.ts';
import { type Actor, recordAudit } from '../accounts/audit.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { recordEvent } from '../notifications/domain-events.ts';
import { cadenceOf, nextRunAfter, parseTimeOffset } from './recurrence.ts';

/** What a resumption did: the schedule is active again from `nextRunAt`. */
export interface ScheduleResumption {
  reference: string;
  nextRunAt: Date;
  timeOffset: string;
  at: Date;
}

const notSuspended = (detail: string) => new DomainError('ER.12.34', 'Schedule is not suspended', { messages: { reference: [detail] } });

/**
 * POST /schedules/{reference}/resume and the console's Resume: a schedule the scheduler
 * suspended (PAYLINK_SCHEDULE_MAX_FAILED_RUNS failed occurrences in a row) becomes active again.
 * Its next occurrence is the first one after now (the missed ones are not charged), and its count
 * of failed occurrences starts again from 0. Only a suspended schedule resumes: an active one has
 * nothing to resume, a cancelled one is never restarted, a plan whose last cycle has passed is
 * over, and a schedule whose card registration was deleted stays as it is.
 */
export async function resumeSchedule(
  app: DomainContext,
  integrator: Pick<Integrator, 'id'>,
  reference: string,
  opts: { actor?: Actor } = {},
): Promise<ScheduleResumption> {
  const now = app.now();
  return app.db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        id: schedules.id,
        status: schedules.status,
        cronPattern: schedules.cronPattern,
        timeOffset: schedules.timeOffset,
        every: schedules.every,
        anchorAt: schedules.anchorAt,
        cyclesLeft: schedules.cyclesLeft,
        callbackUrl: schedules.callbackUrl,
        cardStatus: cardRegistrations.status,
      })
      .from(schedules)
      .innerJoin(cardRegistrations, eq(cardRegistrations.reference, schedules.cardRegistrationReference))
      .where(and(eq(schedules.id, reference), eq(schedules.integratorId, integrator.id)))
      .for('update', { of: schedules });
    if (!row) throw notFound('reference', 'Schedule');
    if (row.status !== 'suspended') {
      throw notSuspended(
        row.status === 'cancelled'
          ? 'the schedule is cancelled, and a cancelled schedule is never restarted; create a new schedule instead'
          : 'the schedule is active already; only a suspended schedule can be resumed',
      );
    }
    // A plan of N cycles (a subscription's `cycles`) is over once its last one was claimed, paid or not.
    if (row.cyclesLeft !== null && row.cyclesLeft <= 0)
      throw notSuspended('its last cycle has passed: the plan is over; start a new subscription or schedule instead');
    if (row.cardStatus !== 'active') throw notSuspended('its card registration is no longer active; register the card again and create a new schedule');
    const offsetMinutes = parseTimeOffset(row.timeOffset) ?? 0;
    const nextRunAt = nextRunAfter(cadenceOf(row), now);
    if (!nextRunAt) throw notSuspended('its recurrence has no occurrence after now');
    await tx.update(schedules).set({ status: 'active', suspendedAt: null, consecutiveFailures: 0, nextRunAt }).where(eq(schedules.id, row.id));
    // Integrators hear of it as of the suspension (to the schedule's callback URL, else the account's default).
    await recordEvent(app.presentEvent, tx, {
      integratorId: integrator.id,
      event: { type: 'schedule.resumed', scheduleId: row.id, nextRunAt, timeOffset: row.timeOffset, offsetMinutes },
      callbackUrl: row.callbackUrl,
      now,
    });
    if (opts.actor) await recordAudit(tx, opts.actor, 'schedule.resumed', row.id, now);
    return { reference: row.id, nextRunAt, timeOffset: row.timeOffset, at: now };
  });
}
