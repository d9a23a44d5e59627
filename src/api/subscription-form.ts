import type { Link } from '../db/schema.ts';
import {
  type SubscriptionCancelMode,
  type SubscriptionConfig,
  subscriptionCancelModes,
  subscriptionIntervals,
  subscriptionSchema,
} from '../schemas/subscription.ts';

/**
 * The console editor's "Subscription" section (src/components/SubscriptionFields.astro) as plain
 * values, and its way into the API's `subscription` setting, which the links API's rules check
 * (src/schemas/subscription.ts): a number typed wrong reaches the schema as typed, so its refusal
 * reads as the API's does. Inputs are named `subscription.{field}`.
 */
export interface SubscriptionFormValues {
  on: boolean;
  interval: string;
  every: string;
  trial_days: string;
  cycles: string;
  cancel: string;
}

export const blankSubscriptionForm = (): SubscriptionFormValues => ({
  on: false,
  interval: 'month',
  every: '1',
  trial_days: '',
  cycles: '',
  cancel: 'period_end',
});

export function subscriptionFormOf(link: Pick<Link, 'subscription'>): SubscriptionFormValues {
  const s = link.subscription;
  if (!s) return blankSubscriptionForm();
  return {
    on: true,
    interval: s.interval,
    every: String(s.every),
    trial_days: s.trial_days === undefined ? '' : String(s.trial_days),
    cycles: s.cycles === undefined ? '' : String(s.cycles),
    cancel: s.cancel,
  };
}

export function readSubscriptionForm(form: FormData): SubscriptionFormValues {
  const text = (name: string) => {
    const v = form.get(`subscription.${name}`);
    return typeof v === 'string' ? v.trim() : '';
  };
  return {
    on: form.get('subscription.on') === 'on',
    interval: text('interval') || 'month',
    every: text('every') || '1',
    trial_days: text('trial_days'),
    cycles: text('cycles'),
    cancel: text('cancel') || 'period_end',
  };
}

const numberOr = (v: string) => (/^\d{1,9}$/.test(v) ? Number(v) : v);

/** The preview's plan: the section as typed when it reads as one, else none. */
export function draftSubscription(v: SubscriptionFormValues): SubscriptionConfig | null {
  const parsed = subscriptionSchema.safeParse(subscriptionSettingOf(v));
  return parsed.success ? parsed.data : null;
}

/** The API's `subscription` for the form: null when the section is off. */
export function subscriptionSettingOf(v: SubscriptionFormValues): Record<string, unknown> | null {
  if (!v.on) return null;
  return {
    interval: v.interval,
    every: numberOr(v.every),
    ...(v.trial_days !== '' ? { trial_days: numberOr(v.trial_days) } : {}),
    ...(v.cycles !== '' ? { cycles: numberOr(v.cycles) } : {}),
    cancel: v.cancel,
  };
}

export const subscriptionChoices = { intervals: subscriptionIntervals, cancelModes: subscriptionCancelModes };
export const cancelModeWords: Record<SubscriptionCancelMode, string> = {
  immediately: 'At once',
  period_end: 'At the end of the period paid',
  customer_chooses: 'The customer chooses',
};
