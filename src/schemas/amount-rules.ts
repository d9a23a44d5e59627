/**
 * The amount a customer types on an open-amount link, as one plain function the card island and
 * the server both run (the island cannot load the currency table: it would not fit the page's JS
 * budget, so the server passes the currency's exponent and the link's bounds, already worded).
 * Parsed exactly into minor units, never through floats, and read the way the page's locale
 * writes numbers: "25,00" on a Spanish page is 25.00, "1,500" on an English page is 1500, and text
 * that reads two ways in the locale ("25,00" on an English page) is refused with both readings.
 */
export interface AmountRule {
  currency: string;
  /** Decimal places of the currency (ISO 4217 minor unit). */
  exponent: number;
  /** Bounds in minor units (decimal strings, so they survive JSON) with how to show them. */
  min?: { minor: string; shown: string };
  max?: { minor: string; shown: string };
}

/** Upper bound for any single amount: 10^15 minor units keeps well inside int8 and JS display. */
export const MAX_MINOR_UNITS = 10n ** 15n;

/** What the amount rule says when it fails; the card island passes the customer's language. */
export type AmountMessageKey =
  | 'missing'
  | 'negative'
  | 'exponent'
  | 'format'
  | 'ambiguous'
  | 'grouping'
  | 'no_minor'
  | 'decimals_one'
  | 'decimals_other'
  | 'zero'
  | 'too_large'
  | 'min'
  | 'max';
export type AmountMessages = Record<AmountMessageKey, string>;

/**
 * English, as the server words its refusals ({currency}, {digits}, {amount} are filled in;
 * {example} is an amount written the locale's way, {decimal} and {whole} the two readings of
 * ambiguous text).
 */
export const englishAmountMessages: AmountMessages = {
  missing: 'Enter the amount to pay',
  negative: 'The amount must not be negative',
  exponent: 'The amount must be written as a plain decimal number, without exponent notation',
  format: 'The amount must be a number such as {example}',
  ambiguous: 'The amount can be read two ways: write {decimal} or {whole}',
  grouping: 'Separate thousands in groups of 3 digits, such as {example}, or leave them out',
  no_minor: '{currency} has no minor unit: give a whole number in the amount',
  decimals_one: '{currency} allows at most 1 decimal place in the amount',
  decimals_other: '{currency} allows at most {digits} decimal places in the amount',
  zero: 'The amount must be greater than zero',
  too_large: 'The amount is larger than paylink accepts',
  min: 'The amount must be at least {amount}',
  max: 'The amount must be at most {amount}',
};

/** How a locale writes numbers: its decimal and grouping separators, as Intl formats them. */
export interface NumberSymbols {
  decimal: string;
  group: string;
}

export function numberSymbols(locale: string): NumberSymbols {
  const parts = new Intl.NumberFormat(locale).formatToParts(1234567.5);
  return { decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.', group: parts.find((p) => p.type === 'group')?.value ?? ',' };
}

/** A decimal string ("1234.50") written the locale's way ("1,234.50", "1234,50"), exactly. */
function written(decimal: string, locale: string, grouping = true): string {
  const fraction = decimal.split('.')[1]?.length ?? 0;
  // Intl reads a decimal string exactly (no float); the cast is for TypeScript's older signature.
  return new Intl.NumberFormat(locale, { minimumFractionDigits: fraction, useGrouping: grouping }).format(decimal as unknown as number);
}

/** An amount written the way the locale writes it, for hints and messages: "1,234.50", "1234,50", "1,234". */
export function amountExample(exponent: number, locale: string): string {
  return written(exponent > 0 ? `1234.${'5'.padEnd(exponent, '0')}` : '1234', locale);
}

/** Minor units written the locale's way with the currency: 2500n PHP → "₱25.00" (en-US). */
export function shownAmount(minor: bigint, rule: Pick<AmountRule, 'currency' | 'exponent'>, locale: string): string {
  const digits = minor.toString().padStart(rule.exponent + 1, '0');
  const decimal = rule.exponent > 0 ? `${digits.slice(0, -rule.exponent)}.${digits.slice(-rule.exponent)}` : digits;
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: rule.currency,
    minimumFractionDigits: rule.exponent,
    maximumFractionDigits: rule.exponent,
  }).format(decimal as unknown as number);
}

const SPACE = /[\s\u00a0\u202f]/g;

/**
 * The typed text as "digits[.digits]", read with the locale's separators; or why it cannot be.
 * Grouping must sit every 3 digits; text whose grouping is wrong but that would be a decimal in
 * the other convention ("25,00" where "," groups) is ambiguous, never read one way silently.
 */
function readDecimal(
  text: string,
  { decimal, group }: NumberSymbols,
  exponent: number,
  locale: string,
): string | { key: AmountMessageKey; decimal?: string; whole?: string } {
  // A locale that groups with a space takes any space there.
  const clean = /^\s$/u.test(group) ? text.replace(SPACE, group) : text;
  const allowed = new Set(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', decimal, group]);
  if ([...clean].some((c) => !allowed.has(c))) return { key: 'format' };
  const [whole = '', fraction, ...more] = clean.split(decimal);
  if (more.length > 0 || whole === '' || fraction === '' || fraction?.includes(group)) return { key: 'format' };
  const groups = whole.split(group);
  if (groups.some((g) => g === '')) return { key: 'format' };
  const [first = '', ...rest] = groups;
  if (rest.length > 0 && (first.length > 3 || rest.some((g) => g.length !== 3))) {
    // One separator, not grouping: the other convention's decimal ("25,00" on an English page).
    const [last = ''] = rest;
    if (fraction === undefined && rest.length === 1 && last.length <= exponent) {
      return { key: 'ambiguous', decimal: written(`${first}.${last}`, locale), whole: written(`${first}${last}`, locale) };
    }
    return { key: 'grouping' };
  }
  return fraction === undefined ? groups.join('') : `${groups.join('')}.${fraction}`;
}

/**
 * Reads what the customer typed as minor units of `rule.currency`, with `locale`'s separators
 * (a BCP 47 tag; the page's own). Every refusal is one of `m`, filled in.
 */
export function customerAmount(raw: string, rule: AmountRule, m: AmountMessages, locale = 'en-US'): { minor: bigint } | { message: string } {
  const fill: Record<string, string> = { currency: rule.currency, digits: String(rule.exponent), example: amountExample(rule.exponent, locale) };
  const say = (key: AmountMessageKey, more: Record<string, string> = {}) => ({
    message: m[key].replace(/\{(\w+)\}/g, (all, name: string) => more[name] ?? fill[name] ?? all),
  });
  const text = raw.trim();
  if (text === '') return say('missing');
  if (text.startsWith('-') || text.startsWith('\u2212')) return say('negative');
  if (/e/i.test(text)) return say('exponent');
  const read = readDecimal(text, numberSymbols(locale), rule.exponent, locale);
  if (typeof read !== 'string') return say(read.key, { decimal: read.decimal ?? '', whole: read.whole ?? '' });
  const [whole = '', fraction = ''] = read.split('.');
  if (fraction.length > rule.exponent) return say(rule.exponent === 0 ? 'no_minor' : rule.exponent === 1 ? 'decimals_one' : 'decimals_other');
  const minor = BigInt(whole + fraction.padEnd(rule.exponent, '0'));
  if (minor === 0n) return say('zero');
  if (minor > MAX_MINOR_UNITS) return say('too_large');
  if (rule.min && minor < BigInt(rule.min.minor)) return say('min', { amount: rule.min.shown });
  if (rule.max && minor > BigInt(rule.max.minor)) return say('max', { amount: rule.max.shown });
  return { minor };
}
