import { describe, expect, it } from 'vitest';
import { amountLocale, amountRule, checkAmountBounds, parseCustomerAmount } from '../../../src/domain/checkout/amount.ts';

const link = { currency: 'PHP', minAmountMinor: 10_000n, maxAmountMinor: 500_000n };
const open = { currency: 'PHP', minAmountMinor: null, maxAmountMinor: null };

describe('checkout › the amount a customer types', () => {
  it("holds it to the link's bounds in the link's currency, shown with the symbol", () => {
    expect(amountRule(link, 'PHP')).toEqual({
      currency: 'PHP',
      exponent: 2,
      min: { minor: '10000', shown: '₱100.00' },
      max: { minor: '500000', shown: '₱5,000.00' },
      locale: 'en-US',
      decimal: '.',
      group: ',',
      example: '1,234.50',
    });
  });

  it('has no bounds in another currency, or on a link without them, and takes that currency’s decimals (0, 2 or 3)', () => {
    expect(amountRule(link, 'JPY')).toMatchObject({ currency: 'JPY', exponent: 0, min: undefined, max: undefined, example: '1,234' });
    expect(amountRule(open, 'PHP')).toMatchObject({ currency: 'PHP', exponent: 2, min: undefined, max: undefined });
    expect(amountRule({ ...open, currency: 'KWD' }, 'KWD')).toMatchObject({
      currency: 'KWD',
      exponent: 3,
      min: undefined,
      max: undefined,
      example: '1,234.500',
    });
  });

  it('accepts the bounds themselves and words the amounts beyond them', () => {
    expect(checkAmountBounds(link, 10_000n, 'PHP')).toBeUndefined();
    expect(checkAmountBounds(link, 500_000n, 'PHP')).toBeUndefined();
    expect(checkAmountBounds(link, 9_999n, 'PHP')).toBe('must be at least ₱100.00');
    expect(checkAmountBounds(link, 500_001n, 'PHP')).toBe('must be at most ₱5,000.00');
    expect(checkAmountBounds(link, 1n, 'USD')).toBeUndefined();
    expect(checkAmountBounds(open, 1n, 'PHP')).toBeUndefined();
  });

  it('parses what was typed with the same rule', () => {
    expect(parseCustomerAmount(link, '1,234.50', 'PHP')).toEqual({ minor: 123_450n });
    expect(parseCustomerAmount(link, '99.99', 'PHP')).toEqual({ message: expect.stringMatching(/at least ₱100.00/) });
    expect(parseCustomerAmount(link, undefined, 'PHP')).toEqual({ message: 'Enter the amount to pay' });
  });

  it("reads it with the separators of the page's language, and answers in that language", () => {
    expect(amountRule(open, 'PHP', 'es')).toMatchObject({ locale: 'es', decimal: ',', group: '.', example: '1234,50' });
    expect(parseCustomerAmount(link, '1.500', 'PHP', 'es')).toEqual({ minor: 150_000n });
    expect(parseCustomerAmount(link, '250,00', 'PHP', 'es')).toEqual({ minor: 25_000n });
    expect(parseCustomerAmount(link, '250,00', 'PHP', 'en')).toEqual({ message: 'The amount can be read two ways: write 250.00 or 25,000' });
    expect(parseCustomerAmount(link, '250.00', 'PHP', 'es')).toEqual({ message: 'El importe se puede leer de dos maneras: escribe 250,00 o 25.000' });
    expect(amountLocale('es')).toBe('es');
    expect(amountLocale('fil-PH')).toBe('fil');
    expect(amountLocale('de-DE')).toBe('en');
    expect(amountLocale(undefined)).toBe('en');
  });
});
