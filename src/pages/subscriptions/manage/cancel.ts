import type { APIRoute } from 'astro';
import { ownOrigins } from '../../../api/endpoint.ts';
import { assertSameOrigin } from '../../../api/same-origin.ts';
import { pagePath } from '../../../api/subscriber-page.ts';
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
  try {
    assertSameOrigin(request, ownOrigins(app, url));
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return new Response(error.message, { status: 403, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  const form = await request.formData().catch(() => new FormData());
  const field = (name: string) => {
    const v = form.get(name);
    return typeof v === 'string' ? v : '';
  };
  const token = field('token');
  const lang = url.searchParams.get('lang') ?? undefined;
  const back = (query: Record<string, string | undefined>) =>
    new Response(null, { status: 303, headers: { location: pagePath({ token, lang, ...query }), 'cache-control': 'no-store' } });
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
