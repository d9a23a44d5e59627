import type { APIRoute } from 'astro';
import { ownOrigins } from '../../../api/endpoint.ts';
import { requestLocale } from '../../../api/page-locale.ts';
import { assertSameOrigin } from '../../../api/same-origin.ts';
import { confirmPayLinkRegistration } from '../../../domain/cards/pay-link.ts';
import { DomainError } from '../../../domain/errors.ts';
import { isLocale } from '../../../i18n/index.ts';

/**
 * The hosted page's Confirm for a pay-by-link registration: a plain HTML form POST (works without
 * JavaScript), no body. The registration becomes active and the browser goes back to the page
 * (which now says it is confirmed) or to the merchant's return address; an expired or unknown link
 * goes back to the page, which says so. The page's language rides in `?lang=` so the e-mails speak it.
 */
export const POST: APIRoute = async ({ locals, params, request, url }) => {
  const app = locals.paylink;
  const token = params.token ?? '';
  try {
    assertSameOrigin(request, ownOrigins(app, url));
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return new Response(error.message, { status: 403, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  const lang = url.searchParams.get('lang');
  const row = await confirmPayLinkRegistration(app, token, isLocale(lang) ? lang : requestLocale(request));
  const page = `/register/${encodeURIComponent(token)}`;
  return new Response(null, { status: 303, headers: { location: row?.returnUrl ?? page, 'cache-control': 'no-store' } });
};

export const ALL: APIRoute = () => new Response('Method not allowed', { status: 405, headers: { allow: 'POST' } });
