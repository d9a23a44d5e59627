import { describe, expect, it } from 'vitest';
import { currencyExponent, formatDecimal, formatMoney, isCurrency, MAX_MINOR_UNITS, MoneyError, parseAmount } from '../../src/domain/money.ts';

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

describe('money › exact rules', () => {
  it('refuses every fund, precious metal and testing code, however active in ISO 4217', () => {
    const notPayable = ['XAU', 'XAG', 'XPD', 'XPT', 'XDR', 'XBA', 'XBB', 'XBC', 'XBD', 'XSU', 'XUA', 'XTS', 'XXX'];
    const funds = ['BOV', 'CHE', 'CHW', 'CLF', 'COU', 'MXV', 'USN', 'UYI', 'UYW'];
    for (const code of [...notPayable, ...funds]) {
      expect(currencyExponent(code), code).toBeUndefined();
      expect(isCurrency(code), code).toBe(false);
    }
    expect(isCurrency('PHP')).toBe(true);
    expect(isCurrency('JPY')).toBe(true);
  });

  it('takes only a whole three-letter upper-case code', () => {
    for (const code of ['PHPX', 'XPHP', 'php', 'PH', ' PHP']) expect(currencyExponent(code), code).toBeUndefined();
    expect(currencyExponent('KWD')).toBe(3);
  });

  it('names each rule an amount breaks', () => {
    const message = (input: unknown, currency = 'PHP') => {
      try {
        parseAmount(input, currency);
      } catch (error) {
        expect(error).toBeInstanceOf(MoneyError);
        expect((error as MoneyError).name).toBe('MoneyError');
        return (error as MoneyError).message;
      }
      throw new Error('accepted');
    };
    expect(message(1e21)).toBe('must be written as a plain decimal number, without exponent notation');
    expect(message('1e3')).toBe('must be written as a plain decimal number, without exponent notation');
    expect(message(true)).toBe('must be a decimal number such as "12.50"');
    expect(message(null)).toBe('must be a decimal number such as "12.50"');
    expect(message('12.5.0')).toBe('must be a decimal number such as "12.50"');
    expect(message('1.234')).toBe('PHP allows at most 2 decimal places');
    expect(message('1.2345', 'KWD')).toBe('KWD allows at most 3 decimal places');
    expect(message('1.5', 'JPY')).toBe('JPY has no minor unit: give a whole number');
    expect(message('1', 'ZZZ')).toBe('"ZZZ" is not a supported ISO 4217 currency code');
  });

  it('formats zero without a sign', () => {
    expect(formatDecimal(0n, 'PHP')).toBe('0.00');
    expect(formatDecimal(-1n, 'PHP')).toBe('-0.01');
  });
});
