import type { SubscriptionConfig } from '../../schemas/subscription.ts';
import type { Recurrence } from '../schedules/recurrence.ts';

/**
 * A plan's interval as a schedule's recurrence, anchored at a moment (the first payment, or the
 * trial's end), in UTC: the same second, minute and hour; weekly on that weekday; monthly on that day
 * of the month (from the 29th on: the month's last day, so a short month is not skipped); yearly on
 * that day and month. `every` is the schedule's own (one occurrence in N, counted from the anchor).
 */
export function planRecurrence(plan: Pick<SubscriptionConfig, 'interval'>, anchor: Date): Recurrence {
  const time = { second: String(anchor.getUTCSeconds()), minute: String(anchor.getUTCMinutes()), hour: String(anchor.getUTCHours()) };
  const day = anchor.getUTCDate() > 28 ? 'L' : String(anchor.getUTCDate());
  const month = anchor.getUTCMonth() + 1;
  if (plan.interval === 'week') return { ...time, day_of_month: '*', month: '*', day_of_week: String(anchor.getUTCDay()) };
  if (plan.interval === 'year') return { ...time, day_of_month: day, month: String(month), day_of_week: '*' };
  return { ...time, day_of_month: day, month: '*', day_of_week: '*' };
}

/** When a trial of `days` started at `from` ends: the first charge. */
export const trialEnd = (from: Date, days: number) => new Date(Math.floor(from.getTime() / 1000) * 1000 + days * 86_400_000);
