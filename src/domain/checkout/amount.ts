import type { Link } from '../../db/schema.ts';
import { intlLocale, type Locale, locales } from '../../i18n/index.ts';
import { amountMessages } from '../../i18n/island.ts';
import { writtenIn } from '../../schemas/amount-locale.ts';
import { type AmountRule, customerAmount } from '../../schemas/amount-rules.ts';
import { currencyExponent, formatMoney } from '../money.ts';

/**
 * The rule for an amount the customer types on an open-amount link: the currency's exponent and
 * the link's min/max when they are in the same currency. `acquirerMinimum`, the smallest charge of the
 * merchant's acquirer in that currency, raises the minimum when it is higher. `locale` (an Intl tag,
 * the page's) words the bounds and says how numbers are written there. The card island runs the same rule.
 */
export function amountRule(
  link: Pick<Link, 'minAmountMinor' | 'maxAmountMinor' | 'currency'>,
  currency: string,
  locale?: string,
  acquirerMinimum?: bigint | null,
): AmountRule {
  const sameCurrency = currency === link.currency;
  const bound = (minor: bigint | null) => (minor !== null ? { minor: minor.toString(), shown: formatMoney(minor, currency, locale) } : undefined);
  const linkMin = sameCurrency ? link.minAmountMinor : null;
  const min = acquirerMinimum != null && (linkMin === null || acquirerMinimum > linkMin) ? acquirerMinimum : linkMin;
  const exponent = currencyExponent(currency) ?? 2;
  return { currency, exponent, min: bound(min), max: bound(sameCurrency ? link.maxAmountMinor : null), ...writtenIn(locale ?? 'en-US', exponent) };
}

/** Words a bound the way the dynamic link API reports it ("must be at least ₱100.00"). */
export function checkAmountBounds(link: Pick<Link, 'minAmountMinor' | 'maxAmountMinor' | 'currency'>, minor: bigint, currency: string): string | undefined {
  const rule = amountRule(link, currency);
  if (rule.min && minor < BigInt(rule.min.minor)) return `must be at least ${rule.min.shown}`;
  if (rule.max && minor > BigInt(rule.max.minor)) return `must be at most ${rule.max.shown}`;
  return undefined;
}

/**
 * The page language an amount was typed in: the form posts it beside the text (`amount_locale`,
 * one of ours by code or Intl tag); anything else reads as English, the API's language.
 */
export function amountLocale(value: unknown): Locale {
  return locales.find((l) => l === value || intlLocale(l) === value) ?? 'en';
}

/**
 * What the customer typed, read with the separators of the page it was typed on (`locale`) and
 * refused in that page's words; the island runs the same rule before it posts.
 */
export function parseCustomerAmount(
  link: Pick<Link, 'minAmountMinor' | 'maxAmountMinor' | 'currency'>,
  input: string | undefined,
  currency: string,
  locale: Locale = 'en',
): { minor: bigint } | { message: string } {
  return customerAmount(input ?? '', amountRule(link, currency, intlLocale(locale)), amountMessages(locale));
}
