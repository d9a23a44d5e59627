import { describe, expect, it } from 'vitest';
import type { ConnectorCapabilities } from '../../../src/acquirer/connector.ts';
import { stripeCurrencies } from '../../../src/acquirer/stripe/minimums.ts';
import { amountRule } from '../../../src/domain/checkout/amount.ts';
import { acquirerMinimum, acquirerMisfits } from '../../../src/domain/links/acquirer-fit.ts';

const acquirer = (name: string, currencies: ConnectorCapabilities['currencies']) => ({ name, capabilities: { currencies } as ConnectorCapabilities });
const sandbox = acquirer('sandbox', 'any');
const paymongo = acquirer('paymongo', [{ currency: 'PHP', minimumMinor: 2000n }]);
const stripe = acquirer('stripe', stripeCurrencies);
const money = (currency: string, amountMinor: bigint | null, minAmountMinor: bigint | null = null, maxAmountMinor: bigint | null = null) => ({
  currency,
  amountMinor,
  minAmountMinor,
  maxAmountMinor,
});

describe("a link's money and the merchant's acquirer", () => {
  it('the sandbox takes every currency and amount', () => {
    expect(acquirerMisfits(sandbox, money('KWD', 1n))).toEqual({});
    expect(acquirerMinimum(sandbox, 'PHP')).toBeUndefined();
  });

  it('a currency the acquirer does not take is the one misfit said, whatever the amounts', () => {
    expect(acquirerMisfits(paymongo, money('USD', 1n, null, null))).toEqual({ currency: 'PayMongo does not take payments in USD; it takes only PHP' });
    expect(acquirerMisfits(stripe, money('PHP', 95_000n))).toEqual({ currency: 'Stripe does not take payments in PHP' });
  });

  it('each amount under the minimum is said on its own field, in the currency’s own exponent; the minimum itself fits', () => {
    expect(acquirerMisfits(paymongo, money('PHP', 1999n))).toEqual({ amount: "must be at least 20.00 PHP, PayMongo's smallest charge" });
    expect(acquirerMisfits(paymongo, money('PHP', 2000n))).toEqual({});
    expect(acquirerMisfits(paymongo, money('PHP', null, 500n, 1500n))).toEqual({
      minAmount: "must be at least 20.00 PHP, PayMongo's smallest charge",
      maxAmount: "must be at least 20.00 PHP, PayMongo's smallest charge",
    });
    expect(acquirerMisfits(paymongo, money('PHP', null, 500n, 100_000n))).toEqual({ minAmount: "must be at least 20.00 PHP, PayMongo's smallest charge" });
    expect(acquirerMisfits(stripe, money('JPY', 49n))).toEqual({ amount: "must be at least 50 JPY, Stripe's smallest charge" });
    expect(acquirerMisfits(stripe, money('USD', null))).toEqual({});
  });

  it("the customer's amount rule takes the acquirer's minimum when it is above the link's", () => {
    const link = { currency: 'PHP', minAmountMinor: 500n, maxAmountMinor: 10_000n };
    expect(acquirerMinimum(paymongo, 'PHP')).toBe(2000n);
    expect(amountRule(link, 'PHP', 'en-US', 2000n).min).toEqual({ minor: '2000', shown: '₱20.00' });
    expect(amountRule({ ...link, minAmountMinor: 5000n }, 'PHP', 'en-US', 2000n).min).toEqual({ minor: '5000', shown: '₱50.00' });
    expect(amountRule({ ...link, minAmountMinor: null }, 'PHP', 'en-US', 2000n).min?.minor).toBe('2000');
    // Another currency than the link's: the link's bounds do not apply, the acquirer's minimum does.
    expect(amountRule(link, 'USD', 'en-US', 50n)).toMatchObject({ min: { minor: '50' }, max: undefined });
    expect(amountRule(link, 'PHP', 'en-US').min?.minor).toBe('500');
  });
});
