import { describe, expect, it } from 'vitest';
import type { ConnectorCapabilities } from '../../../src/acquirer/connector.ts';
import { paymongoMethodRules } from '../../../src/acquirer/local-methods.ts';
import { stripeCurrencies } from '../../../src/acquirer/stripe/minimums.ts';
import { sameOrder } from '../../../src/domain/checkout/changed-order.ts';
import { saleMinimum } from '../../../src/domain/checkout/sale-minimum.ts';
import type { PaymentSale } from '../../../src/schemas/link-sale.ts';

const acquirer = (name: string, capabilities: Partial<ConnectorCapabilities>) => ({ name, capabilities: capabilities as ConnectorCapabilities });

describe('saleMinimum', () => {
  const paymongo = acquirer('paymongo', { currencies: [{ currency: 'PHP', minimumMinor: 2000n }], methods: paymongoMethodRules });
  const stripe = acquirer('stripe', {
    currencies: stripeCurrencies,
    methods: [{ method: 'card', refunds: { refundable: true, partial: true, windowDays: null }, requires: [] }],
  });
  const sandbox = acquirer('sandbox', {
    currencies: 'any',
    methods: [
      { method: 'card', refunds: { refundable: true, partial: true, windowDays: null }, requires: [] },
      ...paymongoMethodRules.filter((m) => m.method !== 'card'),
    ],
  });

  it('is the acquirer’s minimum for the currency, or the method’s when higher', () => {
    expect(saleMinimum(paymongo, 'PHP')).toBe(2000n);
    expect(saleMinimum(paymongo, 'PHP', 'qrph')).toBe(2000n);
    expect(saleMinimum(paymongo, 'PHP', 'billease')).toBe(10_000n);
    expect(saleMinimum(stripe, 'JPY')).toBe(50n);
    expect(saleMinimum(stripe, 'GBP')).toBe(30n);
  });

  it('is none for the sandbox’s card, and its local methods keep PayMongo’s', () => {
    expect(saleMinimum(sandbox, 'PHP')).toBeUndefined();
    expect(saleMinimum(sandbox, 'USD')).toBeUndefined();
    expect(saleMinimum(sandbox, 'PHP', 'gcash')).toBe(2000n);
  });
});

describe('sameOrder', () => {
  const sale: PaymentSale = {
    lines: [{ id: 'pass', name: { en: 'Pass' }, unit_amount_minor: '50000', quantity: 2, amount_minor: '100000' }],
    subtotal_minor: '100000',
    discount: { code: 'TEN', promotion_id: 'prm_1', amount_minor: '10000' },
    tip_minor: '0',
    answers: { class: 'yin' },
  };
  // As jsonb gives it back: keys in another order.
  const stored = JSON.parse(
    JSON.stringify({ tip_minor: '0', answers: { class: 'yin' }, discount: sale.discount, lines: sale.lines, subtotal_minor: '100000' }),
  );

  it('is the same order whatever the order of the stored keys', () => {
    expect(sameOrder({ amountMinor: '90000', sale: stored }, { amountMinor: 90000n, sale })).toBe(true);
  });

  it('is another order when the total, the code, a quantity or an answer differs', () => {
    expect(sameOrder({ amountMinor: '90000', sale: stored }, { amountMinor: 80000n, sale })).toBe(false);
    expect(sameOrder({ amountMinor: '90000', sale: stored }, { amountMinor: 90000n, sale: { ...sale, discount: { ...sale.discount!, code: 'TWENTY' } } })).toBe(
      false,
    );
    expect(sameOrder({ amountMinor: '90000', sale: stored }, { amountMinor: 90000n, sale: { ...sale, answers: { class: 'vinyasa' } } })).toBe(false);
    expect(sameOrder({ amountMinor: '90000', sale: null }, { amountMinor: 90000n, sale })).toBe(false);
    expect(sameOrder({ amountMinor: '25000' }, { amountMinor: 25000n, sale: null })).toBe(true);
  });
});
