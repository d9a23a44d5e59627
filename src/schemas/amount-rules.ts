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

export function customerAmount(raw: string, rule: AmountRule): { minor: bigint } | { message: string } {
  const text = raw.replace(/,/g, '').trim();
  if (text === '') return { message: 'Enter the amount to pay' };
  if (text.startsWith('-')) return { message: 'The amount must not be negative' };
  if (/e/i.test(text)) return { message: 'The amount must be written as a plain decimal number, without exponent notation' };
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return { message: 'The amount must be a decimal number such as "12.50"' };
  const [, whole = '', fraction = ''] = match;
  if (fraction.length > rule.exponent) {
    return {
      message:
        rule.exponent === 0
          ? `${rule.currency} has no minor unit: give a whole number in the amount`
          : `${rule.currency} allows at most ${rule.exponent} decimal place${rule.exponent === 1 ? '' : 's'} in the amount`,
    };
  }
  const minor = BigInt(whole + fraction.padEnd(rule.exponent, '0'));
  if (minor === 0n) return { message: 'The amount must be greater than zero' };
  if (minor > MAX_MINOR_UNITS) return { message: 'The amount is larger than paylink accepts' };
  if (rule.min && minor < BigInt(rule.min.minor)) return { message: `The amount must be at least ${rule.min.shown}` };
  if (rule.max && minor > BigInt(rule.max.minor)) return { message: `The amount must be at most ${rule.max.shown}` };
  return { minor };
}
