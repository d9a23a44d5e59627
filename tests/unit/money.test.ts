import { describe, expect, it } from 'vitest';
import { currencyExponent, formatDecimal, formatMoney, MAX_MINOR_UNITS, parseAmount } from '../../src/domain/money.ts';

describe('money › parseAmount', () => {
  it('parses decimal strings exactly into minor units', () => {
    expect(parseAmount('12.50', 'PHP')).toEqual({ minor: 1250n, currency: 'PHP' });
    expect(parseAmount('12.5', 'PHP').minor).toBe(1250n);
    expect(parseAmount('0.01', 'PHP').minor).toBe(1n);
    expect(parseAmount(' 7 ', 'USD').minor).toBe(700n);
  });

  it('parses JSON numbers through their shortest decimal form, never through float arithmetic', () => {
    expect(parseAmount(12.5, 'PHP').minor).toBe(1250n);
    expect(parseAmount(0.1, 'USD').minor).toBe(10n);
    expect(parseAmount(19.99, 'USD').minor).toBe(1999n);
    expect(parseAmount(1.005, 'KWD').minor).toBe(1005n);
  });

  it('rejects more decimals than the currency has instead of rounding', () => {
    expect(() => parseAmount('12.345', 'PHP')).toThrow('PHP allows at most 2 decimal places');
    expect(() => parseAmount(12.345, 'PHP')).toThrow('at most 2 decimal places');
    expect(() => parseAmount('100.5', 'JPY')).toThrow('JPY has no minor unit');
    expect(parseAmount('100', 'JPY').minor).toBe(100n);
    expect(parseAmount('1.234', 'KWD').minor).toBe(1234n);
    expect(() => parseAmount('1.2345', 'KWD')).toThrow('at most 3 decimal places');
  });

  it('rejects negative, zero, exponent notation and malformed amounts', () => {
    expect(() => parseAmount('-1.00', 'PHP')).toThrow('must not be negative');
    expect(() => parseAmount(-1, 'PHP')).toThrow('must not be negative');
    expect(() => parseAmount('0', 'PHP')).toThrow('greater than zero');
    expect(() => parseAmount(0, 'PHP')).toThrow('greater than zero');
    expect(parseAmount('0.00', 'PHP', { allowZero: true }).minor).toBe(0n);
    expect(() => parseAmount('1e3', 'PHP')).toThrow('exponent');
    expect(() => parseAmount(1e21, 'PHP')).toThrow('exponent');
    expect(() => parseAmount(1e-7, 'PHP')).toThrow('exponent');
    for (const bad of ['', '.5', '5.', '1,000.00', '12.5.0', 'abc', '0x10', '+5', ' ', 'NaN']) {
      expect(() => parseAmount(bad, 'PHP'), bad).toThrow();
    }
    expect(() => parseAmount(Number.NaN, 'PHP')).toThrow('finite');
    expect(() => parseAmount(Number.POSITIVE_INFINITY, 'PHP')).toThrow('finite');
    expect(() => parseAmount(null, 'PHP')).toThrow();
    expect(() => parseAmount(true, 'PHP')).toThrow();
  });

  it('rejects huge amounts', () => {
    expect(() => parseAmount('99999999999999999999', 'PHP')).toThrow('larger than paylink accepts');
    expect(parseAmount(formatDecimal(MAX_MINOR_UNITS, 'PHP'), 'PHP').minor).toBe(MAX_MINOR_UNITS);
  });

  it('rejects unknown currencies and non-payable ISO codes', () => {
    expect(() => parseAmount('1.00', 'ZZZ')).toThrow('not a supported ISO 4217 currency code');
    expect(() => parseAmount('1.00', 'php')).toThrow('not a supported');
    expect(currencyExponent('XAU')).toBeUndefined();
    expect(currencyExponent('XOF')).toBe(0);
    expect(currencyExponent('BHD')).toBe(3);
  });
});

describe('money › formatting', () => {
  it('formats minor units back to the exact decimal', () => {
    expect(formatDecimal(1250n, 'PHP')).toBe('12.50');
    expect(formatDecimal(5n, 'PHP')).toBe('0.05');
    expect(formatDecimal(100n, 'JPY')).toBe('100');
    expect(formatDecimal(1005n, 'KWD')).toBe('1.005');
    expect(formatDecimal(-5n, 'USD')).toBe('-0.05');
  });

  it('displays amounts with Intl and the currency symbol, exactly even beyond float precision', () => {
    expect(formatMoney(25000n, 'PHP')).toBe('₱250.00');
    expect(formatMoney(100n, 'JPY')).toBe('¥100');
    expect(formatMoney(999999999999999n, 'USD')).toBe('$9,999,999,999,999.99');
  });
});
