import type { SubscriptionConfig } from '../../schemas/subscription.ts';
import type { Recurrence } from '../schedules/recurrence.ts';

/**
 * A plan as a schedule's recurrence, anchored at a moment (the first payment, or the trial's end),
 * in UTC: the same second, minute and hour; weekly on that weekday; monthly on that day of the month
 * (from the 29th on: the month's last day, so a short month is not skipped), in the months N apart
 * that include the anchor's; yearly on that day and month. The schema allows only periods that repeat
 * exactly this way (src/schemas/subscription.ts).
 */
export function planRecurrence(plan: Pick<SubscriptionConfig, 'interval' | 'every'>, anchor: Date): Recurrence {
  const time = { second: String(anchor.getUTCSeconds()), minute: String(anchor.getUTCMinutes()), hour: String(anchor.getUTCHours()) };
  const day = anchor.getUTCDate() > 28 ? 'L' : String(anchor.getUTCDate());
  const month = anchor.getUTCMonth() + 1;
  if (plan.interval === 'week') return { ...time, day_of_month: '*', month: '*', day_of_week: String(anchor.getUTCDay()) };
  if (plan.interval === 'year') return { ...time, day_of_month: day, month: String(month), day_of_week: '*' };
  const months = Array.from({ length: 12 / plan.every }, (_, i) => ((month - 1 + i * plan.every) % 12) + 1).sort((a, b) => a - b);
  return { ...time, day_of_month: day, month: plan.every === 1 ? '*' : months.join(','), day_of_week: '*' };
}

/** When a trial of `days` started at `from` ends: the first charge. */
export const trialEnd = (from: Date, days: number) => new Date(Math.floor(from.getTime() / 1000) * 1000 + days * 86_400_000);
