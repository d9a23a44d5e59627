import type { WrittenIn } from './amount-rules.ts';

/*
 * How a page's locale writes numbers, read from Intl on the server: the page hands the result to
 * the card island inside its amount rule, so the island's lazily loaded rule stays small.
 */

/** The decimal and grouping separators of a locale, as Intl formats numbers there. */
export function numberSymbols(locale: string): { decimal: string; group: string } {
  const parts = new Intl.NumberFormat(locale).formatToParts(1234567.5);
  return { decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.', group: parts.find((p) => p.type === 'group')?.value ?? ',' };
}

/** How `locale` writes an amount with `exponent` decimals (server side; the island gets the result in its rule). */
export function writtenIn(locale: string, exponent: number): WrittenIn {
  const example = new Intl.NumberFormat(locale, { minimumFractionDigits: exponent, maximumFractionDigits: exponent }).format(exponent > 0 ? 1234.5 : 1234);
  return { locale, ...numberSymbols(locale), example };
}
