import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { intlLocale, locales } from '../../../src/i18n/index.ts';
import { amountMessages } from '../../../src/i18n/island.ts';
import { numberSymbols, writtenIn } from '../../../src/schemas/amount-locale.ts';
import { englishAmountMessages } from '../../../src/schemas/amount-messages.ts';
import { type AmountRule, customerAmount, MAX_MINOR_UNITS, shownAmount } from '../../../src/schemas/amount-rules.ts';

type Currency = Pick<AmountRule, 'currency' | 'exponent'>;
const php: Currency = { currency: 'PHP', exponent: 2 };
/** The rule as a page in `locale` hands it to the island. */
const ruleIn = (locale: string, currency: Currency = php): AmountRule => ({ ...currency, ...writtenIn(locale, currency.exponent) });
const read = (text: string, locale: string, currency: Currency = php) => customerAmount(text, ruleIn(locale, currency), englishAmountMessages);
/** Every language a payment page speaks, as the Intl tag it formats with. */
const pageTags = locales.map(intlLocale);
const currencies: Currency[] = [
  { currency: 'JPY', exponent: 0 },
  { currency: 'PHP', exponent: 2 },
  { currency: 'KWD', exponent: 3 },
];

/** Minor units as the exact decimal string Intl takes ("2500" at exponent 2 → "25.00"). */
function decimalOf(minor: bigint, exponent: number): string {
  const digits = minor.toString().padStart(exponent + 1, '0');
  return exponent === 0 ? digits : `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

describe('typed amounts › read by the page locale', () => {
  it('takes the separators from Intl: a comma decimal in Spanish, a point in English and Filipino', () => {
    expect(numberSymbols('es')).toEqual({ decimal: ',', group: '.' });
    expect(numberSymbols('en-US')).toEqual({ decimal: '.', group: ',' });
    expect(numberSymbols('fil-PH')).toEqual({ decimal: '.', group: ',' });
  });

  it.each([
    ['es', '25,00', 2500n],
    ['es', '25,5', 2550n],
    ['es', '1.500', 150_000n],
    ['es', '1.234.567,89', 123_456_789n],
    ['es', '1500', 150_000n],
    ['en-US', '1,500', 150_000n],
    ['en-US', '25.00', 2500n],
    ['en-US', ' 1,234.50 ', 123_450n],
    ['fil-PH', '1,234.5', 123_450n],
  ])('in %s, "%s" is %s minor units', (locale, text, minor) => {
    expect(read(text, locale)).toEqual({ minor });
  });

  it('refuses a decimal comma on an English page, showing how to write either reading', () => {
    expect(read('25,00', 'en-US')).toEqual({ message: 'The amount can be read two ways: write 25.00 or 2,500' });
    expect(read('1,5', 'fil-PH')).toEqual({ message: 'The amount can be read two ways: write 1.5 or 15' });
  });

  it('refuses a decimal point on a Spanish page the same way, in Spanish', () => {
    expect(customerAmount('25.00', ruleIn('es'), amountMessages('es'))).toEqual({
      message: 'El importe se puede leer de dos maneras: escribe 25,00 o 2.500',
    });
  });

  it('refuses more decimals than the currency has, in either convention', () => {
    expect(read('25,123', 'es')).toEqual({ message: 'PHP allows at most 2 decimal places in the amount' });
    expect(read('25.123', 'en-US')).toEqual({ message: 'PHP allows at most 2 decimal places in the amount' });
    expect(read('25,5', 'es', { currency: 'JPY', exponent: 0 })).toEqual({ message: 'JPY has no minor unit: give a whole number in the amount' });
  });

  it('refuses grouping in the wrong places, and says how thousands are written here', () => {
    expect(read('1,50,0', 'en-US')).toEqual({ message: 'Separate thousands in groups of 3 digits, such as 1,234.50, or leave them out' });
    expect(read('12,3456', 'en-US')).toHaveProperty('message', expect.stringContaining('groups of 3'));
    expect(read('1.50.0', 'es')).toEqual({ message: 'Separate thousands in groups of 3 digits, such as 1234,50, or leave them out' });
    expect(read('1.500.', 'es')).toHaveProperty('message');
    expect(read('1.500,00,0', 'es')).toHaveProperty('message');
  });

  it("words a malformed amount with an example in the page's own format", () => {
    expect(read('abc', 'es')).toEqual({ message: 'The amount must be a number such as 1234,50' });
    expect(read('12.50', 'en-US', { currency: 'JPY', exponent: 0 })).toHaveProperty('message');
    expect(writtenIn('en-US', 0).example).toBe('1,234');
    expect(writtenIn('fil-PH', 3).example).toBe('1,234.500');
    expect(writtenIn('es', 2)).toEqual({ locale: 'es', decimal: ',', group: '.', example: '1234,50' });
  });
});

describe('typed amounts › the amount that will be charged', () => {
  it('is written with the currency the way the page writes it, exactly', () => {
    expect(shownAmount(2500n, ruleIn('en-US'))).toBe('₱25.00');
    expect(shownAmount(2500n, ruleIn('es'))).toBe(new Intl.NumberFormat('es', { style: 'currency', currency: 'PHP' }).format(25));
    expect(shownAmount(1234n, ruleIn('en-US', { currency: 'JPY', exponent: 0 }))).toBe('¥1,234');
    expect(shownAmount(MAX_MINOR_UNITS - 1n, ruleIn('fil-PH'))).toBe('₱9,999,999,999,999.99');
  });
});

describe('typed amounts › properties over every page language', () => {
  const amount = (rule: Currency) => fc.bigInt({ min: 1n, max: MAX_MINOR_UNITS }).map((minor) => ({ minor, rule }));
  const anyAmount = fc.oneof(...currencies.map(amount));

  it("reads back any amount the locale's own formatter writes, with and without grouping", () => {
    fc.assert(
      fc.property(
        anyAmount,
        fc.constantFrom(...pageTags),
        fc.constantFrom<boolean | 'auto'>(true, false, 'auto'),
        fc.boolean(),
        ({ minor, rule }, tag, grouping, pad) => {
          const options = { useGrouping: grouping, minimumFractionDigits: pad ? rule.exponent : 0, maximumFractionDigits: rule.exponent };
          const text = new Intl.NumberFormat(tag, options as Intl.NumberFormatOptions).format(decimalOf(minor, rule.exponent) as unknown as number);
          expect(read(text, tag, rule), `${tag} ${JSON.stringify(text)}`).toEqual({ minor });
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuses one separator between digits that cannot be grouping, never reading it as some number', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9_999_999 }),
        fc.integer({ min: 1, max: 2 }).chain((n) => fc.stringMatching(new RegExp(`^\\d{${n}}$`))),
        fc.constantFrom(...pageTags),
        (whole, tail, tag) => {
          const text = `${whole}${numberSymbols(tag).group}${tail}`;
          const result = read(text, tag);
          expect(result, `${tag} ${JSON.stringify(text)}`).toHaveProperty('message', expect.stringContaining('read two ways'));
        },
      ),
    );
  });

  it('never throws, and accepts only a positive amount within the limit', () => {
    const text = fc.string({ unit: fc.constantFrom('0', '1', '5', '9', ',', '.', ' ', '-', 'e', '\u00a0', '₱'), maxLength: 14 });
    fc.assert(
      fc.property(text, fc.constantFrom(...pageTags), fc.constantFrom(...currencies), (typed, tag, rule) => {
        const result = read(typed, tag, rule);
        if ('minor' in result) {
          expect(result.minor > 0n && result.minor <= MAX_MINOR_UNITS).toBe(true);
        } else expect(result.message).not.toBe('');
      }),
      { numRuns: 3000 },
    );
  });
});
