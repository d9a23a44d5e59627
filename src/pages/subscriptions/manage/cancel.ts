import type { APIRoute } from 'astro';
import { backToPage, readSubscriberForm } from '../../../api/subscriber-page.ts';
import { DomainError } from '../../../domain/errors.ts';
import { openSubscriberToken } from '../../../domain/subscriptions/access.ts';
import { cancelBySubscriber } from '../../../domain/subscriptions/portal.ts';

/**
 * The subscriptions page's Cancel (a plain form POST: token, subscription, mode). Back to the page,
 * which says what happened; a token that no longer opens the page goes back to it too (it offers a
 * new link). Never an error page for a form a customer sent.
 */
export const POST: APIRoute = async ({ locals, request, url }) => {
  const app = locals.paylink;
  const posted = await readSubscriberForm(app, request, url);
  if (posted instanceof Response) return posted;
  const field = (name: string) => posted.text(name);
  const token = field('token');
  const back = (query: Record<string, string | undefined>) => backToPage({ token, lang: posted.lang, ...query });
  const opened = openSubscriberToken(app, token);
  if (!opened.ok) return back({});
  try {
    const done = await cancelBySubscriber(app, opened.subscriber, field('subscription').slice(0, 64), field('mode'));
    if (done.ended === 'period_end') return back({ done: 'cancels_at_end', until: done.at.toISOString() });
    return back({ done: 'cancelled_now' });
  } catch (error) {
    if (error instanceof DomainError && error.code === 'ER.07.01') return back({ done: 'not_yours' });
    throw error;
  }
};

export const ALL: APIRoute = () => new Response('Method not allowed', { status: 405, headers: { allow: 'POST' } });
