import type { LinkAcquirer } from './acquirer-fit.ts';
import { acquirerName } from './acquirer-fit.ts';
import type { LinkSettings } from './editor.ts';

/**
 * A subscription link's rules beyond its own schema (src/schemas/subscription.ts): every period
 * charges the same amount, so the link has a fixed amount, not a range the customer picks from.
 * Its `max_payments` still applies: it counts the customers who subscribe through the page.
 * A free trial needs a card kept for the first charge at its end, taken on paylink's own card
 * form into the acquirer's vault (the sandbox) or saved by a setup in the acquirer's own form
 * (Stripe); an acquirer that cannot keep a card uncharged (PayMongo) is refused rather than
 * charging customers who were promised a trial (docs/subscriptions.md §2, "Trials").
 */
export function subscriptionProblems(
  s: Pick<LinkSettings, 'subscription' | 'amount' | 'paymentMethods' | 'tip' | 'promotionCodes'>,
  acquirer: LinkAcquirer,
): Array<[field: string, message: string]> {
  const problems: Array<[string, string]> = [];
  if (s.subscription && s.amount === null) problems.push(['amount', 'is required on a subscription link: each period charges this fixed amount']);
  if (s.subscription?.trial_days !== undefined && !takesTrials(acquirer))
    problems.push([
      'subscription.trial_days',
      `is not available with ${acquirerName(acquirer)} yet: a free trial needs a card form that keeps the card without charging it`,
    ]);
  if (s.subscription?.trial_days !== undefined && s.paymentMethods && s.paymentMethods.length > 0 && !s.paymentMethods.includes('card'))
    problems.push(['paymentMethods', 'must include card on a link with a free trial: the trial keeps the card for its first charge']);
  // Nothing is paid on a trial's page, so there is nothing to add a tip to or take a code off.
  if (s.subscription?.trial_days !== undefined && s.tip) problems.push(['tip', 'cannot be asked on a link with a free trial: nothing is paid on its page']);
  if (s.subscription?.trial_days !== undefined && s.promotionCodes)
    problems.push(['promotionCodes', 'cannot be taken on a link with a free trial: nothing is paid on its page']);
  return problems;
}

/**
 * The acquirer keeps a card without charging it and charges it later itself: typed on paylink's
 * own form into its vault (the sandbox), or saved by a setup in its own form (Stripe's Element).
 */
export const takesTrials = (acquirer: LinkAcquirer) =>
  acquirer.capabilities.offSession === 'native' &&
  (acquirer.capabilities.cardCollection === 'server_vault' || acquirer.capabilities.cardCollection === 'stripe_element');

/** A link whose customers start a free trial: nothing charged on its page. */
export const isTrialLink = (link: { subscription: { trial_days?: number | undefined } | null }) => link.subscription?.trial_days !== undefined;
