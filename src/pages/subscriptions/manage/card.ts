import type { APIRoute } from 'astro';
import { clientIpOf } from '../../../api/endpoint.ts';
import { backToPage, cardRefusal, readSubscriberForm } from '../../../api/subscriber-page.ts';
import { DomainError } from '../../../domain/errors.ts';
import { openSubscriberToken } from '../../../domain/subscriptions/access.ts';
import { replaceSubscriberCard } from '../../../domain/subscriptions/card.ts';

/** "Replace card" on the subscriptions page (a plain form POST): back to the page, which says whether the card was saved. */
export const POST: APIRoute = async (context) => {
  const { locals, request, url } = context;
  const app = locals.paylink;
  const posted = await readSubscriberForm(app, request, url);
  if (posted instanceof Response) return posted;
  const field = (name: string) => posted.text(name).trim();
  const token = field('token');
  const back = (query: Record<string, string | undefined>) => backToPage({ token, lang: posted.lang, ...query });
  const opened = openSubscriberToken(app, token);
  if (!opened.ok) return back({});
  const card = { number: field('number'), expiry: field('expiry'), cvc: field('cvc'), name: field('name') };
  try {
    await replaceSubscriberCard(app, opened.subscriber, field('subscription').slice(0, 64), card, clientIpOf(context));
    return back({ done: 'card_saved' });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return back({ done: cardRefusal(error) });
  }
};

export const ALL: APIRoute = () => new Response('Method not allowed', { status: 405, headers: { allow: 'POST' } });
