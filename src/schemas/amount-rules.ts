/**
 * The amount a customer types on an open-amount link, as one plain function the card island and
 * the server both run (the island cannot load the currency table: it would not fit the page's JS
 * budget, so the server passes the currency's exponent, the link's bounds already worded, and how
 * the page's locale writes numbers). Parsed exactly into minor units, never through floats, and
 * read with the page locale's separators: "25,00" on a Spanish page is 25.00, "1,500" on an English
 * page is 1500, and text that reads two ways there ("25,00" on an English page) is refused with
 * both readings.
 */
export interface AmountRule extends WrittenIn {
  currency: string;
  /** Decimal places of the currency (ISO 4217 minor unit). */
  exponent: number;
  /** Bounds in minor units (decimal strings, so they survive JSON) with how to show them. */
  min?: { minor: string; shown: string };
  max?: { minor: string; shown: string };
}

/** How the page's locale writes an amount: its Intl tag, its separators, and an example ("1,234.50"). */
export interface WrittenIn {
  locale: string;
  decimal: string;
  group: string;
  example: string;
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

/** Minor units written the rule's way with its currency: 2500n PHP in en-US → "₱25.00". */
export function shownAmount(minor: bigint, { currency, exponent, locale }: AmountRule): string {
  const digits = minor.toString().padStart(exponent + 1, '0');
  const cut = digits.length - exponent;
  // Intl reads a decimal string exactly (no float); the cast is for TypeScript's older signature.
  return new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: exponent }).format(
    `${digits.slice(0, cut)}.${digits.slice(cut)}` as unknown as number,
  );
}

/**
 * Reads what the customer typed as minor units of `rule.currency`, with the rule's separators.
 * Grouping must sit every 3 digits; one grouping separator that cannot be grouping but would be
 * the other convention's decimal ("25,00" where "," groups) is ambiguous: refused with both
 * readings, never read one way silently. Every refusal is one of `m`, filled in.
 */
export function customerAmount(raw: string, rule: AmountRule, m: AmountMessages): { minor: bigint } | { message: string } {
  const { decimal, group, exponent } = rule;
  const say = (key: AmountMessageKey, more: Record<string, string> = {}) => ({
    message: m[key].replace(/\{(\w+)\}/g, (all, name: string) => more[name] ?? { ...rule, digits: exponent }[name as 'currency'] ?? all),
  });
  // The separators as regular-expression atoms (outside /u an escaped character is itself).
  const d = `\\${decimal}`;
  const g = `\\${group}`;
  const text = raw.trim();
  if (text === '') return say('missing');
  if (/^[-\u2212]/.test(text)) return say('negative');
  if (/e/i.test(text)) return say('exponent');
  const match = new RegExp(`^(\\d{1,3}(?:${g}\\d{3})+|\\d+)(?:${d}(\\d+))?$`).exec(text);
  if (!match) {
    const two = exponent > 0 && new RegExp(`^(\\d+)${g}(\\d{1,${exponent}})$`).exec(text);
    if (two) {
      const [, left = '', right = ''] = two;
      return say('ambiguous', { decimal: left + decimal + right, whole: (left + right).replace(/\B(?=(\d{3})+$)/g, group) });
    }
    return say(new RegExp(`^\\d[\\d${g}]*(${d}\\d+)?$`).test(text) ? 'grouping' : 'format');
  }
  const [, whole = '', fraction = ''] = match;
  if (fraction.length > exponent) return say(exponent === 0 ? 'no_minor' : exponent === 1 ? 'decimals_one' : 'decimals_other');
  const minor = BigInt(whole.split(group).join('') + fraction.padEnd(exponent, '0'));
  if (minor === 0n) return say('zero');
  if (minor > MAX_MINOR_UNITS) return say('too_large');
  if (rule.min && minor < BigInt(rule.min.minor)) return say('min', { amount: rule.min.shown });
  if (rule.max && minor > BigInt(rule.max.minor)) return say('max', { amount: rule.max.shown });
  return { minor };
}
