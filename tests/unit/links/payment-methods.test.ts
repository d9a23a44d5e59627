import { describe, expect, it } from 'vitest';
import { allowedMethods, type MethodsAcquirer, methodsMisfit } from '../../../src/domain/links/payment-methods.ts';
import { type PaymentMethod, paymentMethods } from '../../../src/schemas/payment-method.ts';

/** An acquirer that takes `methods`, declared in that order (only what allowedMethods reads). */
const acquirer = (name: string, methods: readonly PaymentMethod[]) =>
  ({
    name,
    capabilities: { methods: methods.map((method) => ({ method, refunds: { refundable: true, partial: true, windowDays: null }, requires: [] })) },
  }) as unknown as MethodsAcquirer;

const everything = acquirer('sandbox', paymentMethods);
const cardsOnly = acquirer('paymongo', ['card']);
const link = (paymentMethods: PaymentMethod[] | null) => ({ paymentMethods });
const integrator = (defaultPaymentMethods: PaymentMethod[] | null) => ({ defaultPaymentMethods });

describe('payment methods › allowedMethods', () => {
  it('offers the link’s own methods in the merchant’s order, card where the merchant put it', () => {
    expect(allowedMethods(link(['gcash', 'card', 'qrph']), integrator(null), everything)).toEqual(['gcash', 'card', 'qrph']);
    expect(allowedMethods(link(['card', 'gcash']), integrator(['qrph']), everything)).toEqual(['card', 'gcash']);
  });

  it('uses the integrator’s defaults, in their order, when the link names none', () => {
    expect(allowedMethods(link(null), integrator(['paymaya', 'qrph']), everything)).toEqual(['paymaya', 'qrph']);
  });

  it('with no defaults either, offers every method the acquirer takes in paylink’s order, cards first (as before methods)', () => {
    const declared = acquirer('sandbox', ['billease', 'qrph', 'card', 'gcash']);
    expect(allowedMethods(link(null), integrator(null), declared)).toEqual(['card', 'qrph', 'gcash', 'billease']);
    expect(allowedMethods(link(null), integrator(null), cardsOnly)).toEqual(['card']);
  });

  it('leaves out a method the acquirer does not take (the merchant changed acquirer since), keeping the order of the rest', () => {
    expect(allowedMethods(link(['gcash', 'card']), integrator(null), cardsOnly)).toEqual(['card']);
    expect(allowedMethods(link(null), integrator(['qrph', 'gcash']), cardsOnly)).toEqual([]);
  });

  it('offers a method once even if a list names it twice', () => {
    expect(allowedMethods(link(['qrph', 'card', 'qrph']), integrator(null), everything)).toEqual(['qrph', 'card']);
  });
});

describe('payment methods › methodsMisfit', () => {
  it('names each method the acquirer does not take, and what it takes', () => {
    expect(methodsMisfit(cardsOnly, ['gcash', 'card', 'dob'])).toBe('PayMongo does not take GCash, Online banking; it takes Card');
    expect(methodsMisfit(cardsOnly, ['card'])).toBeUndefined();
    expect(methodsMisfit(everything, [...paymentMethods])).toBeUndefined();
  });
});
