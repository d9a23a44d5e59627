import type { LinkSettings } from './editor.ts';

/**
 * A subscription link's rule beyond its own schema (src/schemas/subscription.ts): every period
 * charges the same amount, so the link has a fixed amount, not a range the customer picks from.
 * Its `max_payments` still applies: it counts the customers who subscribe through the page.
 */
export function subscriptionProblems(s: Pick<LinkSettings, 'subscription' | 'amount'>): Array<[field: string, message: string]> {
  if (s.subscription && s.amount === null) return [['amount', 'is required on a subscription link: each period charges this fixed amount']];
  return [];
}
