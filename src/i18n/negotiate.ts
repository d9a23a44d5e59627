import { DEFAULT_LOCALE, isLocale, type Locale, locales } from './index.ts';

/**
 * Which language a customer page speaks, most specific first:
 *   1. `?lang=` — the switcher on the page (links, no script needed);
 *   2. the `paylink_lang` cookie the switcher set, so the choice survives the redirect to the receipt;
 *   3. the browser's Accept-Language, negotiated by q-value against the languages we have;
 *   4. the link's own `locale` setting (what its merchant expects most customers to read);
 *   5. English.
 * Pure functions of their inputs: a page rendered for (link, locale, query) can be cached.
 */
export const LANG_COOKIE = 'paylink_lang';
export const LANG_COOKIE_MAX_AGE = 60 * 60 * 24 * 365;

/** Browsers send `tl` (Tagalog) for Filipino as often as `fil`. */
const aliases: Record<string, Locale> = { tl: 'fil' };

interface Range {
  tag: string;
  q: number;
  order: number;
}

/** Accept-Language parsed into ranges, highest q first (ties keep the header's order); q=0 dropped. */
export function parseAcceptLanguage(header: string | null | undefined): Range[] {
  if (!header) return [];
  const ranges: Range[] = [];
  // A hostile header is cut short rather than parsed at length.
  for (const [order, part] of header.slice(0, 1000).split(',').slice(0, 50).entries()) {
    const [rawTag = '', ...params] = part.trim().split(';');
    const tag = rawTag.trim().toLowerCase();
    if (!/^(\*|[a-z]{1,8}(-[a-z0-9]{1,8})*)$/.test(tag)) continue;
    let q = 1;
    for (const param of params) {
      const m = /^\s*q\s*=\s*(0(\.\d{0,3})?|1(\.0{0,3})?)\s*$/i.exec(param);
      if (m) q = Number(m[1]);
      else if (/^\s*q\s*=/i.test(param)) q = Number.NaN;
    }
    if (Number.isNaN(q) || q <= 0) continue;
    ranges.push({ tag, q, order });
  }
  return ranges.sort((a, b) => b.q - a.q || a.order - b.order);
}

/** A language tag's match among ours: `es-MX` → es, `fil-PH` / `tl` → fil, else undefined. */
export function matchLocale(tag: string): Locale | undefined {
  const primary = tag.toLowerCase().split('-')[0] ?? '';
  if (isLocale(primary)) return primary;
  return aliases[primary];
}

/**
 * The best of our languages for an Accept-Language header, or undefined when it names none of
 * them (`*` alone does not choose: the link's setting does).
 */
export function negotiateLocale(header: string | null | undefined): Locale | undefined {
  for (const range of parseAcceptLanguage(header)) {
    if (range.tag === '*') continue;
    const found = matchLocale(range.tag);
    if (found && locales.includes(found)) return found;
  }
  return undefined;
}

export interface LocaleInputs {
  query?: string | null;
  cookie?: string | null;
  acceptLanguage?: string | null;
  linkLocale?: string | null;
}

/** The customer's own preference (cookie, then Accept-Language), or undefined when they name none of ours. */
export const preferredLocale = ({ cookie, acceptLanguage }: Pick<LocaleInputs, 'cookie' | 'acceptLanguage'>): Locale | undefined =>
  isLocale(cookie) ? cookie : negotiateLocale(acceptLanguage);

export function resolveLocale({ query, cookie, acceptLanguage, linkLocale }: LocaleInputs): Locale {
  if (isLocale(query)) return query;
  if (isLocale(cookie)) return cookie;
  return negotiateLocale(acceptLanguage) ?? (isLocale(linkLocale) ? linkLocale : DEFAULT_LOCALE);
}
