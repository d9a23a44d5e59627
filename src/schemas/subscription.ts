import { z } from 'zod';

/**
 * A link sold as a subscription (docs/subscriptions.md): a fixed amount charged every `every`
 * weeks, months or years, after an optional free trial, for an optional number of cycles. How a
 * customer may cancel is the merchant's choice: at once, at the end of the period already paid,
 * or the customer picks one of the two. The same schema checks the links API, the console's
 * editor and the seed file, and describes it in the OpenAPI document.
 */
export const subscriptionIntervals = ['week', 'month', 'year'] as const;
export type SubscriptionInterval = (typeof subscriptionIntervals)[number];
export const subscriptionCancelModes = ['immediately', 'period_end', 'customer_chooses'] as const;
export type SubscriptionCancelMode = (typeof subscriptionCancelModes)[number];

/**
 * How many intervals one period may last: up to a year of weeks, two years of months, five years
 * (the schedule runs on one occurrence of its weekly, monthly or yearly recurrence in every N).
 */
export const EVERY_MAX = { week: 52, month: 24, year: 5 } as const satisfies Record<SubscriptionInterval, number>;
/** A trial of at most a year; at most 1000 payments. */
export const MAX_TRIAL_DAYS = 365;
export const MAX_CYCLES = 1000;

const whole = (what: string) => z.number({ error: `must be a whole number of ${what}` }).int(`must be a whole number of ${what}`);

export const subscriptionSchema = z
  .object({
    interval: z.enum(subscriptionIntervals, { error: 'must be week, month or year' }).describe('The length of one period.'),
    every: whole('intervals')
      .min(1, 'must be at least 1')
      .default(1)
      .describe('How many intervals one period lasts: 1–52 weeks, 1–24 months or 1–5 years (every 2 weeks: 2).'),
    trial_days: whole('days')
      .min(1, 'must be at least 1 (leave it out for no trial)')
      .max(MAX_TRIAL_DAYS, `must be at most ${MAX_TRIAL_DAYS}`)
      .optional()
      .describe('A free trial: the first charge comes this many days after the customer subscribes.'),
    cycles: whole('payments')
      .min(1, 'must be at least 1 (leave it out for no end)')
      .max(MAX_CYCLES, `must be at most ${MAX_CYCLES}`)
      .optional()
      .describe('How many payments the subscription takes in all; absent: until cancelled.'),
    cancel: z
      .enum(subscriptionCancelModes, { error: 'must be immediately, period_end or customer_chooses' })
      .default('period_end')
      .describe('How the customer’s cancel works: at once, at the end of the period paid, or the customer chooses.'),
  })
  .strict()
  .superRefine((s, ctx) => {
    const max = EVERY_MAX[s.interval];
    if (s.every > max) ctx.addIssue({ code: 'custom', path: ['every'], message: `must be at most ${max} for ${s.interval}s` });
  })
  .meta({ id: 'Subscription' });
export type SubscriptionConfig = z.output<typeof subscriptionSchema>;
