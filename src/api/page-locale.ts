import type { AstroCookies } from 'astro';
import type { Locale } from '../i18n/index.ts';
import { LANG_COOKIE, LANG_COOKIE_MAX_AGE, preferredLocale, resolveLocale } from '../i18n/negotiate.ts';

interface PageContext {
  url: URL;
  request: Request;
  cookies: AstroCookies;
  response: { headers: Headers };
}

/**
 * The customer's language as a card submission shows it (the switcher's cookie, Accept-Language):
 * recorded on the checkout session, so the e-mails about the payment speak it.
 */
export function requestLocale(request: Request): Locale | undefined {
  const cookie = new RegExp(`(?:^|;\\s*)${LANG_COOKIE}=([^;]*)`).exec(request.headers.get('cookie') ?? '')?.[1];
  return preferredLocale({ cookie, acceptLanguage: request.headers.get('accept-language') });
}

/**
 * The language of a customer page (src/i18n/negotiate.ts says in which order). A `?lang=` the
 * switcher sent is remembered in a cookie for this site, so the receipt the form redirects to
 * speaks it too; the answer varies with the headers it was chosen from.
 */
export function pageLocale(ctx: PageContext, linkLocale?: string | null): Locale {
  const query = ctx.url.searchParams.get('lang');
  const locale = resolveLocale({
    query,
    cookie: ctx.cookies.get(LANG_COOKIE)?.value,
    acceptLanguage: ctx.request.headers.get('accept-language'),
    linkLocale,
  });
  if (query === locale) {
    ctx.cookies.set(LANG_COOKIE, locale, { path: '/', maxAge: LANG_COOKIE_MAX_AGE, sameSite: 'lax', httpOnly: true, secure: ctx.url.protocol === 'https:' });
  }
  ctx.response.headers.append('vary', 'Accept-Language, Cookie');
  return locale;
}
