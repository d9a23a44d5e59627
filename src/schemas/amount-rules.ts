/**
 * The amount a customer types on an open-amount link, as one plain function the card island and
 * the server both run (the island cannot load the currency table: it would not fit the page's JS
 * budget, so the server passes the currency's exponent and the link's bounds, already worded).
 * Parsed exactly into minor units, never through floats.
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
  | 'no_minor'
  | 'decimals_one'
  | 'decimals_other'
  | 'zero'
  | 'too_large'
  | 'min'
  | 'max';
export type AmountMessages = Record<AmountMessageKey, string>;

/** English, as the server words its refusals ({currency}, {digits}, {amount} are filled in). */
export const englishAmountMessages: AmountMessages = {
  missing: 'Enter the amount to pay',
  negative: 'The amount must not be negative',
  exponent: 'The amount must be written as a plain decimal number, without exponent notation',
  format: 'The amount must be a decimal number such as "12.50"',
  no_minor: '{currency} has no minor unit: give a whole number in the amount',
  decimals_one: '{currency} allows at most 1 decimal place in the amount',
  decimals_other: '{currency} allows at most {digits} decimal places in the amount',
  zero: 'The amount must be greater than zero',
  too_large: 'The amount is larger than paylink accepts',
  min: 'The amount must be at least {amount}',
  max: 'The amount must be at most {amount}',
};

export function customerAmount(raw: string, rule: AmountRule, m: AmountMessages): { minor: bigint } | { message: string } {
  const say = (key: AmountMessageKey, amount = '') => ({
    message: m[key].replace('{currency}', rule.currency).replace('{digits}', String(rule.exponent)).replace('{amount}', amount),
  });
  const text = raw.replace(/,/g, '').trim();
  if (text === '') return say('missing');
  if (text.startsWith('-')) return say('negative');
  if (/e/i.test(text)) return say('exponent');
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return say('format');
  const [, whole = '', fraction = ''] = match;
  if (fraction.length > rule.exponent) return say(rule.exponent === 0 ? 'no_minor' : rule.exponent === 1 ? 'decimals_one' : 'decimals_other');
  const minor = BigInt(whole + fraction.padEnd(rule.exponent, '0'));
  if (minor === 0n) return say('zero');
  if (minor > MAX_MINOR_UNITS) return say('too_large');
  if (rule.min && minor < BigInt(rule.min.minor)) return say('min', rule.min.shown);
  if (rule.max && minor > BigInt(rule.max.minor)) return say('max', rule.max.shown);
  return { minor };
}
