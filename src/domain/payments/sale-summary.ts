import { intlLocale, type Locale } from '../../i18n/index.ts';
import type { LocalizedText, PaymentSale } from '../../schemas/link-sale.ts';
import { formatMoney } from '../money.ts';

/** A merchant's text in the customer's language, English where the merchant wrote none in it. */
export const inLocale = (text: LocalizedText, locale: Locale): string => text[locale]?.trim() || text.en;

export interface SaleSummary {
  /** Each item bought: its name in the customer's language, how many, the price of one and the line's amount, formatted. */
  lines: { name: string; quantity: number; unit: string; amount: string }[];
  /** Shown only when something is taken off or added to what was bought. */
  subtotal: string | null;
  discount: { code: string; amount: string } | null;
  tip: string | null;
}

/**
 * What a payment bought, as the customer's receipt and receipt e-mail list it: amounts formatted
 * in the customer's language (the currency the payment's own), a zero tip or discount left out.
 */
export function saleSummary(sale: PaymentSale, currency: string, locale: Locale): SaleSummary {
  const money = (minor: string) => formatMoney(BigInt(minor), currency, intlLocale(locale));
  const discount =
    sale.discount && BigInt(sale.discount.amount_minor) > 0n ? { code: sale.discount.code, amount: `−${money(sale.discount.amount_minor)}` } : null;
  const tip = BigInt(sale.tip_minor) > 0n ? money(sale.tip_minor) : null;
  return {
    lines: sale.lines.map((l) => ({ name: inLocale(l.name, locale), quantity: l.quantity, unit: money(l.unit_amount_minor), amount: money(l.amount_minor) })),
    subtotal: discount || tip ? money(sale.subtotal_minor) : null,
    discount,
    tip,
  };
}
