import { describe, expect, it } from 'vitest';
import { NO_SALE, type SaleSettings, saleSettingsOf, saleValues } from '../../../src/domain/links/editor-sale.ts';

/** The links editor's reading of what a link sells: decimal prices per currency exponent, refusals by setting. */
const read = (s: Partial<SaleSettings>, currency: string | null = 'PHP') => {
  const problems: Record<string, string[]> = {};
  const values = saleValues({ ...NO_SALE, ...s }, currency, (field, message) => {
    problems[field] = [...(problems[field] ?? []), message];
  });
  return { values, problems };
};
const item = (unit_amount: string | number, id = 'a') => ({ id, name: { en: 'A' }, unit_amount });

describe('links editor › sale settings', () => {
  it.each([
    ['PHP', '12.50', '1250'],
    ['PHP', 12.5, '1250'],
    ['PHP', '7', '700'],
    ['JPY', '1500', '1500'],
    ['KWD', '1.234', '1234'],
    ['USD', '0.01', '1'],
  ] as const)('reads %s %s as %s minor units', (currency, price, minor) => {
    const { values, problems } = read({ items: [item(price)] }, currency);
    expect(problems).toEqual({});
    expect(values.items[0]).toEqual({ id: 'a', name: { en: 'A' }, unit_amount_minor: minor, quantity: { min: 1, max: 1, default: 1 } });
  });

  it.each([
    ['JPY', '1500.5', 'JPY has no minor unit: give a whole number'],
    ['PHP', '1.005', 'PHP allows at most 2 decimal places'],
    ['PHP', '0', 'must be greater than zero'],
    ['PHP', '-5', 'must not be negative'],
    ['PHP', '1e3', 'must be written as a plain decimal number, without exponent notation'],
    ['PHP', '1,5', 'must be a decimal number such as "12.50"'],
  ] as const)('refuses %s %s by the item’s unit amount', (currency, price, message) => {
    const { problems } = read({ items: [item('1', 'ok'), item(price, 'bad')] }, currency);
    expect(problems).toEqual({ 'items.1.unitAmount': [message] });
  });

  it('turns amount tip presets into minor units and keeps percent presets', () => {
    expect(read({ tip: { presets: { kind: 'amount', values: ['20', '50.5'] } } }).values.tip).toEqual({
      presets: { kind: 'amount', values: ['2000', '5050'] },
      custom: true,
    });
    expect(read({ tip: { presets: { kind: 'percent', values: [10] }, custom: false } }).values.tip).toEqual({
      presets: { kind: 'percent', values: [10] },
      custom: false,
    });
    expect(read({ tip: { presets: { kind: 'amount', values: ['0.001'] } } }).problems).toEqual({
      'tip.presets.values.0': ['PHP allows at most 2 decimal places'],
    });
    expect(read({ tip: { presets: { kind: 'percent', values: [0] } } }).problems).toHaveProperty(['tip.presets.values.0']);
  });

  it('refuses questions and items by their path: duplicate ids, more than five questions, a bad quantity', () => {
    const q = (id: string) => ({ id, type: 'date' as const, label: { en: 'When?' }, required: false });
    expect(Object.keys(read({ questions: [q('a'), q('a')] }).problems)).toEqual(['questions']);
    expect(read({ questions: ['a', 'b', 'c', 'd', 'e', 'f'].map(q) }).problems).toEqual({ questions: ['at most 5 questions'] });
    expect(read({ items: [{ ...item('1'), quantity: { min: 2, max: 1, default: 1 } }] }).problems).toEqual({
      'items.0.quantity': ['quantity needs min ≤ default ≤ max'],
    });
  });

  it('with the currency itself refused, checks the shape only', () => {
    expect(read({ items: [item('1.5')] }, null).problems).toEqual({});
  });

  it('gives stored settings back as decimals (a round trip)', () => {
    const { values } = read({ items: [item('150.00')], tip: { presets: { kind: 'amount', values: ['20'] } }, promotionCodes: true });
    const back = saleSettingsOf({ currency: 'PHP', ...values });
    expect(back.items).toEqual([{ id: 'a', name: { en: 'A' }, unit_amount: '150.00', quantity: { min: 1, max: 1, default: 1 } }]);
    expect(back.tip).toEqual({ presets: { kind: 'amount', values: ['20.00'] }, custom: true });
    expect(read(back).values).toEqual(values);
  });
});
