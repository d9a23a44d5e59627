import type { APIRoute } from 'astro';
import { clientIpOf } from '../../../api/endpoint.ts';
import { requestLocale } from '../../../api/page-locale.ts';
import { backToPage, readSubscriberForm } from '../../../api/subscriber-page.ts';
import { DomainError } from '../../../domain/errors.ts';
import { findActiveLink } from '../../../domain/links/service.ts';
import { openSubscriberToken } from '../../../domain/subscriptions/access.ts';
import { admitSubscriberLinkRequest, sendSubscriberLink } from '../../../domain/subscriptions/request.ts';
import { isLocale } from '../../../i18n/index.ts';
import { isEmailAddress } from '../../../schemas/email-rules.ts';

/**
 * "Send me a link" (a plain form POST: email, and the merchant as an expired page token or a
 * subscription link's slug). Rate limited per client and per e-mail; the answer is the same
 * whether the address has subscriptions or not, and is given before the look-up and the e-mail
 * (src/domain/subscriptions/request.ts), so its timing says nothing either.
 */
export const POST: APIRoute = async (context) => {
  const { locals, request, url } = context;
  const app = locals.paylink;
  const posted = await readSubscriberForm(app, request, url);
  if (posted instanceof Response) return posted;
  const field = (name: string) => posted.text(name).trim();
  const token = field('token') || undefined;
  const slug = field('link').slice(0, 64) || undefined;
  const back = (done: string) => backToPage({ token, link: slug, lang: posted.lang, done });
  const opened = token ? openSubscriberToken(app, token) : undefined;
  let integratorId = opened?.ok ? opened.subscriber.integratorId : opened?.reason === 'expired' ? opened.integratorId : undefined;
  if (!integratorId && slug) {
    const link = await findActiveLink(app.db, slug);
    if (link?.link.subscription) integratorId = link.link.integratorId;
  }
  const email = field('email');
  if (!integratorId || email.length > 254 || !isEmailAddress(email)) return back('bad_email');
  try {
    await admitSubscriberLinkRequest(app, clientIpOf(context), email);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'ER.07.02') return back('too_many');
    throw error;
  }
  // The page's language (its form posts ?lang=), else the switcher's cookie or the browser's.
  const locale = isLocale(posted.lang) ? posted.lang : requestLocale(request);
  void sendSubscriberLink(app, integratorId, email, locale);
  return back('requested');
};

export const ALL: APIRoute = () => new Response('Method not allowed', { status: 405, headers: { allow: 'POST' } });
