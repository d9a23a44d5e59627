import { describe, expect, it } from 'vitest';
import { amountAccepted, type ConnectorCapabilities, type MethodRefunds, nextPaymentState, refundAllowed } from '../../../src/acquirer/connector.ts';
import { paymongoMethodRules } from '../../../src/acquirer/local-methods.ts';
import { ConnectorRegistry, UnknownAcquirerError } from '../../../src/acquirer/registry.ts';

const caps = (over: Partial<ConnectorCapabilities> = {}, card: Partial<MethodRefunds> = {}): ConnectorCapabilities => ({
  offSession: 'none',
  cardCollection: 'paymongo_client',
  methods: [
    { method: 'card', refunds: { refundable: true, partial: true, windowDays: 60, ...card }, requires: [] },
    { method: 'gcash', refunds: { refundable: true, partial: true, windowDays: 180 }, requires: [] },
    { method: 'qrph', refunds: { refundable: false, partial: false, windowDays: null }, requires: [] },
  ],
  currencies: [{ currency: 'PHP', minimumMinor: 2000n }],
  asyncRefunds: true,
  webhooks: true,
  hostedCheckout: true,
  runSchedulesNow: false,
  cardBrands: ['visa', 'mastercard'],
  ...over,
});
const day = 86_400_000;
const now = new Date('2026-11-23T00:00:00Z');

describe('connector › refunds the capabilities rule out', () => {
  it('refuses a refund past the refund window', () => {
    const paidAt = new Date(now.getTime() - 61 * day);
    expect(refundAllowed(caps(), { amountMinor: 100n, paymentAmountMinor: 100n, paidAt }, now)).toMatchObject({ ok: false, code: 'not_refundable' });
  });
  it('allows a refund on the last day of the window', () => {
    const paidAt = new Date(now.getTime() - 60 * day);
    expect(refundAllowed(caps(), { amountMinor: 100n, paymentAmountMinor: 100n, paidAt }, now)).toEqual({ ok: true });
  });
  it('refuses a partial refund where only whole payments are refunded, and allows the whole one', () => {
    const c = caps({}, { partial: false });
    expect(refundAllowed(c, { amountMinor: 99n, paymentAmountMinor: 100n, paidAt: now }, now)).toMatchObject({ ok: false, code: 'not_refundable' });
    expect(refundAllowed(c, { amountMinor: 100n, paymentAmountMinor: 100n, paidAt: now }, now)).toEqual({ ok: true });
  });
  it('has no window when the connector has none', () => {
    expect(refundAllowed(caps({}, { windowDays: null }), { amountMinor: 1n, paymentAmountMinor: 100n, paidAt: new Date(0) }, now)).toEqual({ ok: true });
  });
  it("applies the payment's own method's window, not the card's", () => {
    const paidAt = new Date(now.getTime() - 90 * day);
    expect(refundAllowed(caps(), { amountMinor: 100n, paymentAmountMinor: 100n, paidAt, method: 'gcash' }, now)).toEqual({ ok: true });
    expect(refundAllowed(caps(), { amountMinor: 100n, paymentAmountMinor: 100n, paidAt }, now)).toMatchObject({ ok: false, reason: 'window' });
  });
  it('refuses a method the acquirer cannot refund, naming it', () => {
    expect(refundAllowed(caps(), { amountMinor: 100n, paymentAmountMinor: 100n, paidAt: now, method: 'qrph' }, now)).toMatchObject({
      ok: false,
      code: 'not_refundable',
      reason: 'method',
      message: expect.stringContaining('QR Ph'),
    });
  });
  it("refuses a bank the method's rules cannot refund, naming the method and the bank; the method's other banks keep its window", () => {
    const c = { ...caps(), methods: paymongoMethodRules };
    const refund = (bank: string | undefined, daysAgo = 0) =>
      refundAllowed(c, { amountMinor: 100n, paymentAmountMinor: 100n, paidAt: new Date(now.getTime() - daysAgo * day), method: 'dob', bank }, now);
    expect(refund('ubp')).toEqual({
      ok: false,
      code: 'not_refundable',
      reason: 'method',
      message: 'This acquirer cannot refund payments made by Online banking through UnionBank.',
    });
    expect(refund('bpi')).toEqual({ ok: true });
    expect(refund('bpi', 31)).toMatchObject({ ok: false, reason: 'window' });
    // No bank known (a payment recorded before banks were kept): the method's rule alone.
    expect(refund(undefined)).toEqual({ ok: true });
  });
  it('refuses a method the acquirer does not take at all', () => {
    expect(refundAllowed(caps(), { amountMinor: 100n, paymentAmountMinor: 100n, paidAt: now, method: 'billease' }, now)).toMatchObject({
      ok: false,
      reason: 'method',
    });
  });
});

describe('connector › amounts a connector accepts', () => {
  it('refuses a currency it does not take, and an amount under the minimum', () => {
    expect(amountAccepted(caps(), 5000n, 'USD')).toEqual({ ok: false, reason: 'currency' });
    expect(amountAccepted(caps(), 1999n, 'PHP')).toEqual({ ok: false, reason: 'minimum', minimumMinor: 2000n });
    expect(amountAccepted(caps(), 2000n, 'PHP')).toEqual({ ok: true });
    expect(amountAccepted(caps({ currencies: 'any' }), 1n, 'EUR')).toEqual({ ok: true });
  });
});

describe('connector › a payment never moves backwards', () => {
  const id = 'pi_1';
  it('moves forward from processing to succeeded', () => {
    expect(nextPaymentState('processing', { status: 'succeeded', providerPaymentId: id, chargeId: 'pay_1' })).toMatchObject({ status: 'succeeded' });
  });
  it('keeps a final state whatever arrives later', () => {
    expect(nextPaymentState('succeeded', { status: 'processing', providerPaymentId: id })).toBeUndefined();
    expect(nextPaymentState('succeeded', { status: 'declined', providerPaymentId: id, code: 'card_declined', message: 'no' })).toBeUndefined();
    expect(nextPaymentState('declined', { status: 'succeeded', providerPaymentId: id, chargeId: 'pay_1' })).toBeUndefined();
  });
  it('ignores an older step and a duplicate', () => {
    expect(nextPaymentState('processing', { status: 'requires_action', providerPaymentId: id, redirectUrl: '/x' })).toBeUndefined();
    expect(nextPaymentState('processing', { status: 'processing', providerPaymentId: id })).toBeUndefined();
  });
});

describe('connector registry', () => {
  const sandbox = { name: 'sandbox' } as never;
  it('gives the sandbox by default and a provider connector per integrator, rebuilt when its settings change', async () => {
    const settings = new Map<string, { provider: 'paymongo'; secretKey: string; publicKey: string; webhookSecret: string; apiBaseUrl: string }>();
    let built = 0;
    const registry = new ConnectorRegistry({
      sandbox,
      settingsFor: async (id) => settings.get(id) ?? { provider: 'sandbox' },
      factories: { paymongo: (s) => ({ name: `paymongo:${s.secretKey}:${++built}` }) as never },
    });
    expect(await registry.forIntegrator('a')).toBe(sandbox);
    registry.forget('a');
    settings.set('a', { provider: 'paymongo', secretKey: 'sk_1', publicKey: 'pk', webhookSecret: 'wh', apiBaseUrl: 'http://127.0.0.1:1' });
    const first = await registry.forIntegrator('a');
    expect(first.name).toBe('paymongo:sk_1:1');
    expect(await registry.forIntegrator('a')).toBe(first);
    settings.set('a', { ...settings.get('a')!, secretKey: 'sk_2' });
    // Settings are kept for a few seconds; a change in this process is applied at once with forget.
    expect((await registry.forIntegrator('a')).name).toBe('paymongo:sk_1:1');
    registry.forget('a');
    expect((await registry.forIntegrator('a')).name).toBe('paymongo:sk_2:2');
  });
  it('refuses a provider without a registered connector', () => {
    const registry = new ConnectorRegistry({ sandbox, settingsFor: async () => ({ provider: 'sandbox' }) });
    expect(() => registry.forSettings('a', { provider: 'stripe', secretKey: 's', publicKey: 'p', webhookSecret: 'w', apiBaseUrl: 'http://x' })).toThrow(
      UnknownAcquirerError,
    );
  });
});
