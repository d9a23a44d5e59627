import type { APIRoute } from 'astro';
import { clientIpOf } from '../../../api/endpoint.ts';
import { backToPage, cardRefusal, cardSetupReturnUrl, readSubscriberForm } from '../../../api/subscriber-page.ts';
import { DomainError } from '../../../domain/errors.ts';
import { openSubscriberToken } from '../../../domain/subscriptions/access.ts';
import { startCardReplacement } from '../../../domain/subscriptions/card-setup.ts';

/**
 * "Replace card" with an acquirer that takes the card in its own form (Stripe): a plain form POST
 * that prepares the form, then back to the page, which shows it for that subscription.
 */
export const POST: APIRoute = async (context) => {
  const { locals, request, url } = context;
  const app = locals.paylink;
  const posted = await readSubscriberForm(app, request, url);
  if (posted instanceof Response) return posted;
  const token = posted.text('token').trim();
  const subscription = posted.text('subscription').trim().slice(0, 64);
  const back = (query: Record<string, string | undefined>) => backToPage({ token, lang: posted.lang, ...query });
  const opened = openSubscriberToken(app, token);
  if (!opened.ok) return back({});
  try {
    const returnUrl = cardSetupReturnUrl(app, { token, subscription, lang: posted.lang });
    const { setupId } = await startCardReplacement(app, opened.subscriber, subscription, { clientIp: clientIpOf(context), returnUrl });
    return back({ replace: subscription, setup: setupId });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return back({ done: cardRefusal(error) });
  }
};

export const ALL: APIRoute = () => new Response('Method not allowed', { status: 405, headers: { allow: 'POST' } });
