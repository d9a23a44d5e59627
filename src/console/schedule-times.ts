import type { Schedule } from '../db/schema.ts';
import { cadenceOf, nextRunAfter } from '../domain/schedules/recurrence.ts';
import { type TimeInOffset, timeInOffset } from './format.ts';

/** How many charges after the next one a schedule's page lists, to check the words against dates. */
const LATER_CHARGES = 3;

/** A schedule's times as its page shows them: in its own offset, the next charge and the few after it. */
export function scheduleTimes(schedule: Pick<Schedule, 'status' | 'nextRunAt' | 'cronPattern' | 'timeOffset' | 'every' | 'anchorAt'> | undefined) {
  const inOffset = (d: Date | null): TimeInOffset | undefined => (d && schedule ? timeInOffset(d, schedule.timeOffset) : undefined);
  const later: TimeInOffset[] = [];
  if (schedule?.status === 'active' && schedule.nextRunAt) {
    const cadence = cadenceOf(schedule);
    let after: Date | null = schedule.nextRunAt;
    while (after && later.length < LATER_CHARGES) {
      after = nextRunAfter(cadence, after, after);
      if (after) later.push(timeInOffset(after, schedule.timeOffset));
    }
  }
  return { inOffset, next: schedule?.status === 'active' ? inOffset(schedule.nextRunAt) : undefined, later };
}
