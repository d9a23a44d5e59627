import type { Link } from '../../db/schema.ts';
import { formatMoney, MoneyError, parseAmount } from '../money.ts';

/**
 * The amount a customer types on an open-amount link: parsed exactly (never floats), then held
 * to the link's min/max when they are in the same currency.
 */
export function checkAmountBounds(link: Pick<Link, 'minAmountMinor' | 'maxAmountMinor' | 'currency'>, minor: bigint, currency: string): string | undefined {
  if (currency !== link.currency) return undefined;
  if (link.minAmountMinor !== null && minor < link.minAmountMinor) return `must be at least ${formatMoney(link.minAmountMinor, currency)}`;
  if (link.maxAmountMinor !== null && minor > link.maxAmountMinor) return `must be at most ${formatMoney(link.maxAmountMinor, currency)}`;
  return undefined;
}

export function parseCustomerAmount(
  link: Pick<Link, 'minAmountMinor' | 'maxAmountMinor' | 'currency'>,
  input: string | undefined,
  currency: string,
): { minor: bigint } | { message: string } {
  const text = (input ?? '').replace(/,/g, '').trim();
  if (text === '') return { message: 'Enter the amount to pay' };
  try {
    const { minor } = parseAmount(text, currency);
    const bounds = checkAmountBounds(link, minor, currency);
    return bounds ? { message: `The amount ${bounds}` } : { minor };
  } catch (error) {
    if (!(error instanceof MoneyError)) throw error;
    // MoneyError reads either as a predicate ("must be …") or as a sentence ("PHP allows …").
    return { message: /^(must|is)\b/.test(error.message) ? `The amount ${error.message}` : `${error.message} in the amount` };
  }
}
