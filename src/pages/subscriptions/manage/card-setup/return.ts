import type { APIRoute } from 'astro';
import { backToPage, cardRefusal } from '../../../../api/subscriber-page.ts';
import { DomainError } from '../../../../domain/errors.ts';
import { openSubscriberToken } from '../../../../domain/subscriptions/access.ts';
import { cardReplacement } from '../../../../domain/subscriptions/card-setup.ts';

/**
 * Where the acquirer's card form comes back (Stripe adds `setup_intent`): a succeeded setup puts
 * its card on the subscription, and the page says so; otherwise the page shows the form again,
 * with why the card was not saved.
 */
export const GET: APIRoute = async ({ locals, url }) => {
  const app = locals.paylink;
  const q = (name: string) => url.searchParams.get(name) ?? undefined;
  const token = q('token') ?? '';
  const subscription = (q('subscription') ?? '').slice(0, 64);
  const setupId = q('setup_intent');
  const back = (query: Record<string, string | undefined>) => backToPage({ token, lang: q('lang'), ...query });
  const opened = openSubscriberToken(app, token);
  if (!opened.ok) return back({});
  try {
    const found = await cardReplacement(app, opened.subscriber, subscription, setupId);
    if (found.state === 'saved') return back({ done: 'card_saved' });
    if (found.state === 'closed') return back({ done: 'card_declined' });
    // Declined or not finished: the same form again, which says why the card was not saved.
    return back({ replace: subscription, setup: setupId });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return back({ done: cardRefusal(error) });
  }
};

export const ALL: APIRoute = () => new Response('Method not allowed', { status: 405, headers: { allow: 'GET' } });
