import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { percentOf, type SaleInput, saleTotal } from '../../../src/domain/links/sale-totals.ts';
import { type Item, itemSchema, itemsSchema, tipSchema } from '../../../src/schemas/link-sale.ts';

const item = (id: string, unit: string, quantity = { min: 1, max: 1, default: 1 }): Item =>
  itemSchema.parse({ id, name: { en: id }, unit_amount_minor: unit, quantity });
const pass = { id: 'pass', unit: '50000' };
const mat = { id: 'mat', unit: '12550' };
const items = [item(pass.id, pass.unit, { min: 0, max: 10, default: 1 }), item(mat.id, mat.unit, { min: 0, max: 3, default: 0 })];
const total = (input: Partial<SaleInput>) => {
  const result = saleTotal({ currency: 'PHP', items, ...input });
  if (!result.ok) throw new Error(JSON.stringify(result.refusals));
  return result.total;
};
const refusals = (input: Partial<SaleInput>) => {
  const result = saleTotal({ currency: 'PHP', items, ...input });
  return result.ok ? [] : result.refusals;
};

describe('sale totals › items and quantities', () => {
  it('adds unit price × quantity over the items, leaving out those at zero', () => {
    const t = total({ quantities: { pass: 3, mat: '2' } });
    expect(t.lines.map((l) => [l.id, l.quantity, l.amountMinor])).toEqual([
      ['pass', 3, 150000n],
      ['mat', 2, 25100n],
    ]);
    expect(t).toMatchObject({ subtotalMinor: 175100n, discountMinor: 0n, tipMinor: 0n, totalMinor: 175100n });
    expect(total({}).lines.map((l) => l.id)).toEqual(['pass']);
  });

  it('refuses quantities outside an item’s bounds, fractional ones and unknown items, naming each', () => {
    expect(refusals({ quantities: { pass: 11, mat: -1, tea: 1 } })).toEqual([
      { field: 'quantity.tea', reason: 'unknown_item' },
      { field: 'quantity.pass', reason: 'quantity_above_max' },
      { field: 'quantity.mat', reason: 'quantity_below_min' },
    ]);
    expect(refusals({ quantities: { pass: 1.5 } })).toEqual([{ field: 'quantity.pass', reason: 'quantity_not_whole' }]);
    expect(refusals({ quantities: { pass: '1e1' } })).toEqual([{ field: 'quantity.pass', reason: 'quantity_not_whole' }]);
    expect(refusals({ quantities: { pass: 0 } })).toEqual([{ field: 'quantity', reason: 'nothing_chosen' }]);
  });

  it('checks an item list: unique ids, at most 20, a price above zero, min ≤ default ≤ max', () => {
    const raw = (id: string, over: object = {}) => ({ id, name: { en: id }, unit_amount_minor: '100', ...over });
    expect(itemsSchema.safeParse([raw('a'), raw('b')]).success).toBe(true);
    expect(itemsSchema.safeParse([raw('a'), raw('a')]).success).toBe(false);
    expect(itemsSchema.safeParse(Array.from({ length: 21 }, (_, i) => raw(`i${i}`))).success).toBe(false);
    expect(itemsSchema.safeParse([raw('a', { unit_amount_minor: '0' })]).success).toBe(false);
    expect(itemsSchema.safeParse([raw('a', { unit_amount_minor: '1.50' })]).success).toBe(false);
    expect(itemsSchema.safeParse([raw('a', { quantity: { min: 2, max: 5, default: 1 } })]).success).toBe(false);
  });

  it('takes the link’s one amount when it sells no items', () => {
    expect(saleTotal({ currency: 'PHP', items: [], amountMinor: 2500n })).toMatchObject({
      ok: true,
      total: { subtotalMinor: 2500n, totalMinor: 2500n, lines: [] },
    });
    expect(saleTotal({ currency: 'PHP', items: [], amountMinor: 0n })).toEqual({ ok: false, refusals: [{ field: 'amount', reason: 'zero_total' }] });
  });
});

describe('sale totals › discounts', () => {
  it('takes a percentage of the subtotal rounded half up to the minor unit', () => {
    // 10 % of ₱125.50 is ₱12.55; 15 % of ₱125.50 is ₱18.825 → ₱18.83.
    expect(total({ quantities: { pass: 0, mat: 1 }, discount: { kind: 'percent', percent: 10 } })).toMatchObject({ discountMinor: 1255n, totalMinor: 11295n });
    expect(total({ quantities: { pass: 0, mat: 1 }, discount: { kind: 'percent', percent: 15 } })).toMatchObject({ discountMinor: 1883n, totalMinor: 10667n });
  });

  it('rounds to the whole unit in a currency without minor units, and to the fils in KWD', () => {
    const yen = [item('ticket', '1999', { min: 1, max: 5, default: 1 })];
    expect(saleTotal({ currency: 'JPY', items: yen, discount: { kind: 'percent', percent: 15 } })).toMatchObject({
      ok: true,
      total: { discountMinor: 300n, totalMinor: 1699n },
    });
    const kwd = [item('box', '1005')];
    expect(saleTotal({ currency: 'KWD', items: kwd, discount: { kind: 'percent', percent: 10 } })).toMatchObject({ ok: true, total: { discountMinor: 101n } });
  });

  it('never takes more than the subtotal, refuses a code that would make the payment nothing and a fixed discount in another currency', () => {
    expect(refusals({ discount: { kind: 'fixed', minor: '999999', currency: 'PHP' } })).toEqual([{ field: 'promo_code', reason: 'zero_total' }]);
    expect(refusals({ discount: { kind: 'percent', percent: 100 } })).toEqual([{ field: 'promo_code', reason: 'zero_total' }]);
    expect(refusals({ discount: { kind: 'fixed', minor: '100', currency: 'USD' } })).toEqual([{ field: 'promo_code', reason: 'discount_currency' }]);
    expect(total({ discount: { kind: 'fixed', minor: '40000', currency: 'PHP' } })).toMatchObject({
      subtotalMinor: 50000n,
      discountMinor: 40000n,
      totalMinor: 10000n,
    });
  });
});

describe('sale totals › tips', () => {
  const percentTip = tipSchema.parse({ presets: { kind: 'percent', values: [5, 10, 15] }, custom: true });
  const fixedTip = tipSchema.parse({ presets: { kind: 'amount', values: ['2000', '5000'] }, custom: false });

  it('takes a preset percentage of the amount after the discount, as its own line', () => {
    // ₱500.00 − 10 % = ₱450.00; a 15 % tip on that is ₱67.50.
    expect(total({ discount: { kind: 'percent', percent: 10 }, tip: percentTip, tipChoice: { kind: 'preset', index: 2 } })).toMatchObject({
      subtotalMinor: 50000n,
      discountMinor: 5000n,
      tipMinor: 6750n,
      totalMinor: 51750n,
    });
  });

  it('takes a preset or typed amount, and refuses what the link does not offer', () => {
    expect(total({ tip: fixedTip, tipChoice: { kind: 'preset', index: 1 } }).tipMinor).toBe(5000n);
    expect(total({ tip: percentTip, tipChoice: { kind: 'custom', minor: '2500' } }).tipMinor).toBe(2500n);
    expect(refusals({ tip: fixedTip, tipChoice: { kind: 'custom', minor: '2500' } })).toEqual([{ field: 'tip', reason: 'custom_tip_off' }]);
    expect(refusals({ tip: fixedTip, tipChoice: { kind: 'preset', index: 3 } })).toEqual([{ field: 'tip', reason: 'unknown_tip_preset' }]);
    expect(refusals({ tipChoice: { kind: 'custom', minor: '100' } })).toEqual([{ field: 'tip', reason: 'no_tip_offered' }]);
  });

  it('refuses a tip larger than what is bought (a slipped decimal point)', () => {
    expect(refusals({ tip: percentTip, tipChoice: { kind: 'custom', minor: '50001' } })).toEqual([{ field: 'tip', reason: 'tip_above_amount' }]);
  });
});

describe('sale totals › properties', () => {
  const arbItems = fc.array(fc.record({ unit: fc.bigInt({ min: 1n, max: 10n ** 9n }), quantity: fc.integer({ min: 0, max: 999 }) }), {
    minLength: 1,
    maxLength: 20,
  });

  it('the total is always subtotal − discount + tip, in whole minor units, with 0 ≤ discount ≤ subtotal', () => {
    fc.assert(
      fc.property(arbItems, fc.integer({ min: 1, max: 99 }), fc.integer({ min: 1, max: 100 }), (rows, off, tipPercent) => {
        const list = rows.map((r, i) => item(`i${i}`, String(r.unit), { min: 0, max: 999, default: 0 }));
        const quantities = Object.fromEntries(rows.map((r, i) => [`i${i}`, r.quantity]));
        const result = saleTotal({
          currency: 'PHP',
          items: list,
          quantities,
          discount: { kind: 'percent', percent: off },
          tip: tipSchema.parse({ presets: { kind: 'percent', values: [tipPercent] } }),
          tipChoice: { kind: 'preset', index: 0 },
        });
        const subtotal = rows.reduce((s, r) => s + r.unit * BigInt(r.quantity), 0n);
        if (!result.ok)
          return (
            subtotal === 0n || subtotal * 1n > 10n ** 15n || result.refusals[0]!.reason === 'zero_total' || result.refusals[0]!.reason === 'total_too_large'
          );
        const t = result.total;
        return (
          t.subtotalMinor === subtotal &&
          t.discountMinor >= 0n &&
          t.discountMinor <= subtotal &&
          t.totalMinor === t.subtotalMinor - t.discountMinor + t.tipMinor &&
          t.discountMinor === percentOf(subtotal, off)
        );
      }),
    );
  });

  it('percentOf rounds half up and agrees with exact rational arithmetic', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.integer({ min: 0, max: 100 }), (n, p) => {
        const exact2 = n * BigInt(p) * 2n; // twice the exact value × 100
        const got = percentOf(n, p);
        // got − 0.5 ≤ exact < got + 0.5, i.e. |2·100·got − exact2| ≤ 100 with ties going up.
        return 200n * got - exact2 <= 100n && exact2 - 200n * got < 100n;
      }),
    );
  });
});
