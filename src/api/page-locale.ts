import type { AstroCookies } from 'astro';
import { DomainError } from '../domain/errors.ts';
import { type Locale, t } from '../i18n/index.ts';
import { LANG_COOKIE, LANG_COOKIE_MAX_AGE, preferredLocale, resolveLocale } from '../i18n/negotiate.ts';

export interface PageContext {
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

/** "12 minutes", "12 minuto", "12 minutos": a wait in `locale`'s words (the largest whole unit, rounded up). */
export function waitWords(seconds: number, locale: Locale): string {
  const [unit, n] =
    seconds < 60 ? ['second', Math.max(1, seconds)] : seconds < 7200 ? ['minute', Math.ceil(seconds / 60)] : ['hour', Math.ceil(seconds / 3600)];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' }).format(n);
}

/**
 * A refusal of a card submission from a customer page, in the customer's language when their
 * browser names one of ours other than English (the island sends the page's language); English
 * keeps the server's own words. Only refusals that carry catalogue words (`say`) change.
 */
export function inCustomerLanguage(error: unknown, request: Request): unknown {
  if (!(error instanceof DomainError) || !error.say || typeof error.messages !== 'object') return error;
  const locale = requestLocale(request);
  if (!locale || locale === 'en') return error;
  const field = Object.keys(error.messages)[0] ?? '(request)';
  const words = t(locale, error.say, { wait: waitWords(error.retryAfterSeconds ?? 60, locale) });
  return new DomainError(error.code, error.message, {
    messages: { [field]: [words] },
    httpStatus: error.httpStatus,
    data: error.data,
    retryAfterSeconds: error.retryAfterSeconds,
  });
}
