import type { locales as linkLocales } from '../schemas/locales.ts';
import { type Catalogue, en, type MessageKey } from './en.ts';
import { es } from './es.ts';
import { fil } from './fil.ts';

/**
 * The customer-facing languages: the payment page, receipt, card registration page and customer
 * e-mails. To add one, write src/i18n/<tag>.ts (a Catalogue) and list it here with its name in
 * its own language; docs/checkout.md walks through it. A key a catalogue lacks shows in English.
 */
// Every language a link may be set to (src/schemas/locales.ts) has its catalogue here.
export const catalogues = { en, fil, es } satisfies Record<(typeof linkLocales)[number], Catalogue>;
export type Locale = keyof typeof catalogues;
export const locales = Object.keys(catalogues) as Locale[];
export const DEFAULT_LOCALE: Locale = 'en';

/** Each language named in itself, for the switcher. */
export const localeNames: Record<Locale, string> = { en: 'English', fil: 'Filipino', es: 'Español' };

/** The BCP 47 tag Intl formats with: Filipino numbers and dates as in the Philippines. */
const intlTags: Record<Locale, string> = { en: 'en-US', fil: 'fil-PH', es: 'es' };
export const intlLocale = (locale: Locale) => intlTags[locale];

export const isLocale = (value: unknown): value is Locale => typeof value === 'string' && Object.hasOwn(catalogues, value);

export type Params = Record<string, string | number>;

/** The text for `key` in `locale` (English when missing), with `{name}` placeholders filled in. */
export function t(locale: Locale, key: MessageKey, params?: Params): string {
  const text = (catalogues[locale] as Catalogue)[key] ?? en[key];
  return params ? text.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole)) : text;
}

/** A translator bound to one locale: `tr('pay.button_amount', { amount })`. */
export type Translate = (key: MessageKey, params?: Params) => string;
export const translator =
  (locale: Locale): Translate =>
  (key, params) =>
    t(locale, key, params);

export type { MessageKey };
