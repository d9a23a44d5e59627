import { describe, expect, it } from 'vitest';
import { parseCustomerAmount } from '../../../src/domain/checkout/amount.ts';
import { cardFormText } from '../../../src/i18n/island.ts';
import { cardSchema } from '../../../src/schemas/card.ts';
import { cardErrors, cardRules, detectBrand, formatCardNumber, formatExpiry, makeCardRules, parseExpiry } from '../../../src/schemas/card-rules.ts';
import { checkCustomerFields, customerFieldError } from '../../../src/schemas/checkout.ts';

const good = { number: '4242 4242 4242 4242', expiry: '12 / 30', cvc: '123', name: 'Juan Dela Cruz' };

describe('card rules', () => {
  it('detects the brand from the first digits', () => {
    expect(detectBrand('4')).toBe('visa');
    expect(detectBrand('5555')).toBe('mastercard');
    expect(detectBrand('2221 00')).toBe('mastercard');
    expect(detectBrand('3782')).toBe('amex');
    expect(detectBrand('9999')).toBeUndefined();
  });

  it('formats the number and expiry as typed', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005');
    expect(formatExpiry('1230')).toBe('12 / 30');
    expect(formatExpiry('4')).toBe('04 / ');
    expect(parseExpiry('12 / 30')).toEqual({ month: 12, year: 2030 });
    expect(parseExpiry('13/30')).toBeUndefined();
  });

  it('finds every mistake with a plain message, and none in a good card', () => {
    expect(cardErrors(good, cardRules)).toEqual({});
    expect(cardErrors({ number: '4242 4242 4242 4241', expiry: '1/3', cvc: '12', name: ' ' }, cardRules)).toEqual({
      number: 'This card number is not valid: check it for typing mistakes',
      expiry: 'Enter the expiry date as MM/YY',
      cvc: 'Enter the 3 digit security code',
      name: 'Enter the name on the card',
    });
    expect(cardErrors({ ...good, number: '3782 822463 10005', cvc: '123' }, cardRules).cvc).toBe('Enter the 4 digit security code');
  });

  it('in the browser (with its clock), a past expiry date is caught; the server leaves that to its own clock', () => {
    const now = new Date('2026-11-23T00:00:00Z');
    const inBrowser = makeCardRules(cardFormText('en').errors, now);
    expect(cardErrors({ ...good, expiry: '10/26' }, inBrowser).expiry).toBe('This card has expired: check the expiry date');
    expect(cardErrors({ ...good, expiry: '11/26' }, inBrowser).expiry).toBeUndefined();
    expect(cardErrors({ ...good, expiry: '10/26' }, cardRules).expiry).toBeUndefined();
  });

  it('speaks the customer’s language when given its words', () => {
    const es = makeCardRules(cardFormText('es').errors);
    expect(cardErrors({ ...good, number: '', cvc: '1', expiry: '13/30' }, es)).toEqual({
      number: 'Introduce el número de tarjeta',
      expiry: 'Introduce la fecha de vencimiento como MM/AA',
      cvc: 'Introduce el código de seguridad de 3 dígitos',
    });
  });

  it('the server schema runs the same rules and cleans the number', () => {
    expect(cardSchema.parse(good).number).toBe('4242424242424242');
    const bad = cardSchema.safeParse({ ...good, cvc: '1' });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]).toMatchObject({ path: ['cvc'], message: 'Enter the 3 digit security code' });
  });
});

describe('customer field rules', () => {
  it('checks e-mail, mobile (E.164, or a real Philippine number without its + code) and assigned country codes', () => {
    expect(customerFieldError('customer.contact.email', 'Juan@Example.com ')).toBeUndefined();
    expect(customerFieldError('customer.contact.email', 'juan@')).toMatch(/email address/);
    expect(customerFieldError('customer.contact.mobile', '+63 (917) 123-4567')).toBeUndefined();
    expect(customerFieldError('customer.contact.mobile', '0917 123 4567')).toBeUndefined();
    expect(customerFieldError('customer.contact.mobile', '0000 000 0000')).toMatch(/such as 0917 123 4567, or with its country code/);
    expect(customerFieldError('customer.contact.mobile', 'call me')).toMatch(/country code/);
    expect(checkCustomerFields(['customer.contact.mobile'], { 'customer.contact.mobile': '0917-555-0123' }).values).toEqual({
      'customer.contact.mobile': '+639175550123',
    });
    expect(customerFieldError('customer.billing_address.country_code', 'ph')).toBeUndefined();
    expect(customerFieldError('customer.billing_address.country_code', 'XX')).toMatch(/Choose a country/);
    expect(customerFieldError('customer.billing_address.line2', '')).toBeUndefined();
    expect(customerFieldError('customer.first_name', '')).toBe('Enter a first name');
  });

  it('returns cleaned values for the asked fields only', () => {
    const result = checkCustomerFields(['customer.contact.email', 'customer.contact.mobile'], {
      'customer.contact.email': ' A@B.co ',
      'customer.contact.mobile': '+63 917 123 4567',
      'customer.first_name': 'not asked',
    });
    expect(result).toEqual({ values: { 'customer.contact.email': 'a@b.co', 'customer.contact.mobile': '+639171234567' }, messages: {} });
  });
});

describe('customer amount', () => {
  const link = { currency: 'PHP', minAmountMinor: 10000n, maxAmountMinor: 500000n };
  it("parses exactly and holds the link's bounds", () => {
    expect(parseCustomerAmount(link, '1,234.50', 'PHP')).toEqual({ minor: 123450n });
    expect(parseCustomerAmount(link, '99.99', 'PHP')).toEqual({ message: 'The amount must be at least ₱100.00' });
    expect(parseCustomerAmount(link, '5000.01', 'PHP')).toEqual({ message: 'The amount must be at most ₱5,000.00' });
    expect(parseCustomerAmount(link, '1.001', 'PHP')).toEqual({ message: 'PHP allows at most 2 decimal places in the amount' });
    expect(parseCustomerAmount(link, '', 'PHP')).toEqual({ message: 'Enter the amount to pay' });
    expect(parseCustomerAmount(link, '-5', 'PHP')).toEqual({ message: 'The amount must not be negative' });
  });
});
