import { describe, expect, it } from 'vitest';
import { type MethodSupport, refundAllowed } from '../../../src/acquirer/connector.ts';
import { paymongoMethodRules, sandboxLocalMethods } from '../../../src/acquirer/local-methods.ts';
import { formInput, refusedFormTarget } from '../../../src/api/checkout-endpoints.ts';
import { assertSameOriginForm } from '../../../src/api/same-origin.ts';
import { checkMethodInput, offeredMethods } from '../../../src/domain/checkout/method-pay.ts';
import { DomainError, invalidFields } from '../../../src/domain/errors.ts';

const support = (over: Partial<MethodSupport> = {}): MethodSupport => ({
  method: 'gcash',
  refunds: { refundable: true, partial: true, windowDays: 180 },
  requires: [],
  ...over,
});
const input = (over: Partial<Parameters<typeof checkMethodInput>[1]> = {}) => ({ fields: {}, customerValues: {}, currency: 'PHP', ...over });

describe("checkout › a method's own rules on the customer's input", () => {
  it('takes an amount within the limits and no bank for a method without banks', () => {
    expect(checkMethodInput(support({ minimumMinor: 2000n, maximumMinor: 10_000n }), input({ amountMinor: 2000n }))).toEqual({ messages: {}, values: {} });
  });
  it("refuses an amount under the minimum or over the maximum, naming the method's limit", () => {
    const s = support({ minimumMinor: 2000n, maximumMinor: 10_000n });
    expect(checkMethodInput(s, input({ amountMinor: 1999n })).messages).toEqual({ amount: ['must be at least 20.00 PHP to pay by GCash'] });
    expect(checkMethodInput(s, input({ amountMinor: 10_001n })).messages).toEqual({ amount: ['must be at most 100.00 PHP to pay by GCash'] });
  });
  it('asks for a bank among the method’s, and refuses a bank for a method without banks', () => {
    const dob = support({ method: 'dob', banks: ['bpi', 'ubp'] });
    expect(checkMethodInput(dob, input()).messages).toEqual({ bank: ['Choose your bank'] });
    expect(checkMethodInput(dob, input({ bank: 'bdo' })).messages).toEqual({ bank: ['must be one of bpi, ubp'] });
    expect(checkMethodInput(dob, input({ bank: ['bpi'] })).messages).toEqual({ bank: ['Choose your bank'] });
    expect(checkMethodInput(dob, input({ bank: 'ubp' }))).toEqual({ messages: {}, values: {}, bank: 'ubp' });
    expect(checkMethodInput(support(), input({ bank: 'bpi' })).messages).toEqual({ bank: ['GCash takes no bank'] });
  });
  it('asks for the fields the method requires unless the form already has them, and cleans what it takes', () => {
    const billease = support({ method: 'billease', requires: ['email', 'phone'] });
    expect(Object.keys(checkMethodInput(billease, input()).messages).sort()).toEqual(['customer.contact.email', 'customer.contact.mobile']);
    expect(
      checkMethodInput(
        billease,
        input({ customerValues: { 'customer.contact.email': 'a@example.com' }, fields: { 'customer.contact.mobile': ' +639171234567 ' } }),
      ),
    ).toEqual({ messages: {}, values: { 'customer.contact.mobile': '+639171234567' } });
    expect(checkMethodInput(billease, input({ fields: { 'customer.contact.email': 42, 'customer.contact.mobile': '+639171234567' } })).messages).toEqual({
      'customer.contact.email': ['must be text'],
    });
  });
});

describe('checkout › the methods a page offers', () => {
  const connector = { name: 'sandbox', capabilities: { methods: sandboxLocalMethods() } } as never;
  const noDefaults = { defaultPaymentMethods: null };
  it("offers the acquirer's methods when neither the link nor the integrator names any", () => {
    expect(offeredMethods({ paymentMethods: null }, noDefaults, connector).map((m) => m.method)).toEqual([
      'qrph',
      'gcash',
      'paymaya',
      'grab_pay',
      'shopeepay',
      'dob',
      'brankas',
      'billease',
    ]);
  });
  it("keeps the link's order and drops what the acquirer does not take", () => {
    expect(offeredMethods({ paymentMethods: ['billease', 'card', 'qrph'] }, noDefaults, connector).map((m) => m.method)).toEqual(['billease', 'qrph']);
  });
  it("offers the integrator's defaults, in their order, when the link names none; the link's own list wins", () => {
    const defaults = { defaultPaymentMethods: ['gcash', 'qrph'] as const } as never;
    expect(offeredMethods({ paymentMethods: null }, defaults, connector).map((m) => m.method)).toEqual(['gcash', 'qrph']);
    expect(offeredMethods({ paymentMethods: ['billease'] }, defaults, connector).map((m) => m.method)).toEqual(['billease']);
  });
});

describe("sandbox › local methods follow PayMongo's rules", () => {
  const caps = { methods: sandboxLocalMethods() } as never;
  const now = new Date('2026-06-01T00:00:00Z');
  const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000);
  it('refuses refunds of QR Ph at all', () => {
    expect(refundAllowed(caps, { amountMinor: 100n, paymentAmountMinor: 100n, paidAt: now, method: 'qrph' }, now)).toMatchObject({
      ok: false,
      reason: 'method',
    });
  });
  it('refunds each other method within its own window, never the card’s 60 days', () => {
    const windows = { gcash: 180, grab_pay: 90, paymaya: 365, dob: 30, brankas: 30, billease: 60 } as const;
    for (const [method, days] of Object.entries(windows) as Array<[keyof typeof windows, number]>) {
      expect(paymongoMethodRules.find((m) => m.method === method)?.refunds.windowDays).toBe(days);
      expect(refundAllowed(caps, { amountMinor: 100n, paymentAmountMinor: 100n, paidAt: daysAgo(days - 1), method }, now)).toEqual({ ok: true });
      expect(refundAllowed(caps, { amountMinor: 100n, paymentAmountMinor: 100n, paidAt: daysAgo(days + 1), method }, now)).toMatchObject({
        ok: false,
        reason: 'window',
      });
    }
  });
  it("takes only PHP, from PayMongo's minimums (PHP 20.00, BillEase 100.00), with the banks of each online banking method", () => {
    const all = sandboxLocalMethods();
    expect(all.every((m) => m.currencies?.join() === 'PHP' && m.minimumMinor === (m.method === 'billease' ? 10_000n : 2000n))).toBe(true);
    expect(all.find((m) => m.method === 'dob')?.banks).toEqual(['bpi', 'ubp']);
    expect(all.find((m) => m.method === 'brankas')?.banks).toEqual(['bdo', 'landbank', 'metrobank']);
  });
});

describe('checkout › a method start sent as a no-script form', () => {
  it('reads the fields as the script sends them and ignores other names', () => {
    const form = new URLSearchParams({
      method: 'dob',
      bank: 'bpi',
      amount: '1,000.50',
      'fields[customer.first_name]': 'Ana',
      'customer.last_name': 'Cruz',
      card: '4242',
    });
    expect(formInput(form)).toEqual({ method: 'dob', bank: 'bpi', amount: '1,000.50', fields: { 'customer.first_name': 'Ana', 'customer.last_name': 'Cruz' } });
  });
  it("reads what the page sells from its own fields, or from the script's copy in `sale`", () => {
    const own = new URLSearchParams('method=qrph&quantity[pass]=2&answers[class]=yin&answers[ok]=false&answers[ok]=true&tip=0&promo_code=x10&quantity[Bad]=1');
    expect(formInput(own)).toEqual({ method: 'qrph', fields: {}, quantity: { pass: '2' }, answers: { class: 'yin', ok: 'true' }, tip: '0', promo_code: 'x10' });
    const copied = new URLSearchParams({ method: 'gcash', sale: 'quantity[mat]=1&tip=custom&tip_amount=5.00', tip: 'ignored' });
    expect(formInput(copied)).toEqual({ method: 'gcash', fields: {}, quantity: { mat: '1' }, tip: 'custom', tip_amount: '5.00' });
  });
  it('sends a refusal back to the page with its code, the method and each field', () => {
    expect(refusedFormTarget('/pay/x', invalidFields({ bank: ['x'], '(request)': ['y'] }), 'dob')).toBe('/pay/x?method_error=ER.02.30&method=dob&field=bank');
    expect(refusedFormTarget('/pay/x', new DomainError('ER.03.40', 'no'), '<script>')).toBe('/pay/x?method_error=ER.03.40');
    expect(refusedFormTarget('/pay/x', new Error('boom'), undefined)).toBe('/pay/x?method_error=ER.99.00');
  });
});

describe("checkout › a customer page's plain form post is same-origin checked", () => {
  const own = ['https://pay.example'];
  const req = (headers: Record<string, string>) => new Request('https://pay.example/x', { method: 'POST', headers });
  it('believes an opaque origin (a no-referrer page) only beside Sec-Fetch-Site: same-origin', () => {
    expect(() => assertSameOriginForm(req({ origin: 'null', 'sec-fetch-site': 'same-origin' }), own)).not.toThrow();
    expect(() => assertSameOriginForm(req({ origin: 'null', 'sec-fetch-site': 'cross-site' }), own)).toThrow('Cross-site request refused');
    expect(() => assertSameOriginForm(req({ origin: 'null' }), own)).toThrow('Cross-site request refused');
  });
  it('refuses another site and takes its own', () => {
    expect(() => assertSameOriginForm(req({ origin: 'https://evil.example' }), own)).toThrow('Cross-site request refused');
    expect(() => assertSameOriginForm(req({ origin: 'https://pay.example', 'sec-fetch-site': 'same-origin' }), own)).not.toThrow();
  });
});
