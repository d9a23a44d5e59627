import type { Discount, Item, LocalizedText, TipChoice, TipConfig } from '../../schemas/link-sale.ts';
import { MAX_MINOR_UNITS } from '../money.ts';

/**
 * What a customer pays for a link that sells items, takes a tip or a promotion code,
 * computed on the server in integer minor units, never through floats:
 *
 *   subtotal = Σ unit price × quantity  (or the link's one amount when it sells no items)
 *   discount = the code's percentage of the subtotal, rounded half up to the minor unit, or its
 *              fixed amount; never more than the subtotal
 *   tip      = a preset percentage of (subtotal − discount), rounded half up, or a preset or typed
 *              amount; never more than (subtotal − discount)
 *   total    = subtotal − discount + tip, more than zero and at most MAX_MINOR_UNITS
 *
 * Minor units follow the currency's exponent, so rounding to the minor unit is rounding to the
 * centavo for PHP, to the yen for JPY (no minor unit) and to the fils for KWD (three decimals).
 */

export interface SaleLine {
  id: string;
  name: LocalizedText;
  unitMinor: bigint;
  quantity: number;
  amountMinor: bigint;
}

export interface SaleTotal {
  lines: SaleLine[];
  subtotalMinor: bigint;
  discountMinor: bigint;
  tipMinor: bigint;
  totalMinor: bigint;
}

/** Why a total cannot be made; `field` names the input (an item's `quantity.<id>`, `tip`, `promo_code`). */
export type SaleRefusalReason =
  | 'unknown_item'
  | 'quantity_not_whole'
  | 'quantity_below_min'
  | 'quantity_above_max'
  | 'nothing_chosen'
  | 'no_tip_offered'
  | 'unknown_tip_preset'
  | 'custom_tip_off'
  | 'tip_above_amount'
  | 'discount_currency'
  | 'zero_total'
  | 'total_too_large';

export interface SaleRefusal {
  field: string;
  reason: SaleRefusalReason;
}

export interface SaleInput {
  currency: string;
  /** The link's items; empty when it sells one amount (`amountMinor`). */
  items: readonly Item[];
  /** Quantities the customer chose, by item id; an item left out takes its default. */
  quantities?: Readonly<Record<string, unknown>>;
  /** The one amount of a link without items (fixed, or typed on an open-amount link). */
  amountMinor?: bigint;
  tip?: TipConfig;
  tipChoice?: TipChoice;
  discount?: Discount;
}

/** n × percent / 100, rounded half up (n ≥ 0). */
export const percentOf = (n: bigint, percent: number): bigint => (n * BigInt(percent) * 2n + 100n) / 200n;

export function saleTotal(input: SaleInput): { ok: true; total: SaleTotal } | { ok: false; refusals: SaleRefusal[] } {
  const refusals: SaleRefusal[] = [];
  const lines: SaleLine[] = [];
  const quantities = input.quantities ?? {};
  for (const id of Object.keys(quantities)) {
    if (!input.items.some((i) => i.id === id)) refusals.push({ field: `quantity.${id}`, reason: 'unknown_item' });
  }
  for (const item of input.items) {
    const raw = quantities[item.id];
    const quantity = raw === undefined ? item.quantity.default : typeof raw === 'string' && /^\d{1,4}$/.test(raw.trim()) ? Number(raw.trim()) : raw;
    const field = `quantity.${item.id}`;
    if (typeof quantity !== 'number' || !Number.isInteger(quantity)) refusals.push({ field, reason: 'quantity_not_whole' });
    else if (quantity < item.quantity.min) refusals.push({ field, reason: 'quantity_below_min' });
    else if (quantity > item.quantity.max) refusals.push({ field, reason: 'quantity_above_max' });
    else if (quantity > 0) {
      const unitMinor = BigInt(item.unit_amount_minor);
      lines.push({ id: item.id, name: item.name, unitMinor, quantity, amountMinor: unitMinor * BigInt(quantity) });
    }
  }
  if (refusals.length > 0) return { ok: false, refusals };

  const subtotalMinor = input.items.length > 0 ? lines.reduce((sum, l) => sum + l.amountMinor, 0n) : (input.amountMinor ?? 0n);
  if (input.items.length > 0 && lines.length === 0) return { ok: false, refusals: [{ field: 'quantity', reason: 'nothing_chosen' }] };

  let discountMinor = 0n;
  const { discount } = input;
  if (discount?.kind === 'percent') discountMinor = percentOf(subtotalMinor, discount.percent);
  else if (discount?.kind === 'fixed') {
    if (discount.currency !== input.currency) return { ok: false, refusals: [{ field: 'promo_code', reason: 'discount_currency' }] };
    discountMinor = BigInt(discount.minor);
  }
  if (discountMinor > subtotalMinor) discountMinor = subtotalMinor;
  const afterDiscount = subtotalMinor - discountMinor;

  const tip = tipAmount(input.tip, input.tipChoice ?? { kind: 'none' }, afterDiscount);
  if ('reason' in tip) return { ok: false, refusals: [{ field: 'tip', reason: tip.reason }] };

  const totalMinor = afterDiscount + tip.minor;
  if (totalMinor <= 0n) return { ok: false, refusals: [{ field: discountMinor > 0n ? 'promo_code' : 'amount', reason: 'zero_total' }] };
  if (totalMinor > MAX_MINOR_UNITS) return { ok: false, refusals: [{ field: 'amount', reason: 'total_too_large' }] };
  return { ok: true, total: { lines, subtotalMinor, discountMinor, tipMinor: tip.minor, totalMinor } };
}

function tipAmount(config: TipConfig | undefined, choice: TipChoice, base: bigint): { minor: bigint } | { reason: SaleRefusalReason } {
  if (choice.kind === 'none') return { minor: 0n };
  if (!config) return { reason: 'no_tip_offered' };
  let minor: bigint;
  if (choice.kind === 'preset') {
    const value = config.presets.values[choice.index];
    if (value === undefined) return { reason: 'unknown_tip_preset' };
    minor = config.presets.kind === 'percent' ? percentOf(base, value as number) : BigInt(value as string);
  } else {
    if (!config.custom) return { reason: 'custom_tip_off' };
    minor = BigInt(choice.minor);
  }
  // A tip above what is bought is taken for a typing slip (a "1000" meant as "10.00").
  return minor > base ? { reason: 'tip_above_amount' } : { minor };
}
