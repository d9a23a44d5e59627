import { formatDecimal } from '../../domain/money.ts';
import type { PaymentSale } from '../../schemas/link-sale.ts';
import type { SaleView } from '../../schemas/transaction.ts';

/**
 * What a payment bought, on the wire (transactions, payment events and their callbacks): the stored
 * minor units as decimal strings in the payment's currency, as every other amount of the API.
 */
export function saleView(sale: PaymentSale | null, currency: string): SaleView | null {
  if (!sale) return null;
  const money = (minor: string) => formatDecimal(BigInt(minor), currency);
  return {
    lines: sale.lines.map((l) => ({ id: l.id, name: l.name, unit_amount: money(l.unit_amount_minor), quantity: l.quantity, amount: money(l.amount_minor) })),
    subtotal: money(sale.subtotal_minor),
    discount: sale.discount ? { code: sale.discount.code, amount: money(sale.discount.amount_minor) } : null,
    tip: money(sale.tip_minor),
    answers: sale.answers,
  };
}
