import type { LinkSettings } from './editor.ts';

/**
 * A subscription link's rules beyond its own schema (src/schemas/subscription.ts): every period
 * charges the same amount, so the link has a fixed amount, not a range the customer picks from.
 * Its `max_payments` still applies: it counts the customers who subscribe through the page.
 * A free trial is refused for now: the payment page charges the first period as it takes the card,
 * so a trial set here would charge customers who were promised none (docs/subscriptions.md).
 */
export function subscriptionProblems(s: Pick<LinkSettings, 'subscription' | 'amount'>): Array<[field: string, message: string]> {
  const problems: Array<[string, string]> = [];
  if (s.subscription && s.amount === null) problems.push(['amount', 'is required on a subscription link: each period charges this fixed amount']);
  if (s.subscription?.trial_days !== undefined)
    problems.push(['subscription.trial_days', 'is not available yet: the payment page charges the first period when the customer subscribes']);
  return problems;
}
