import { type PaymentMethod, paymentMethods } from '../schemas/payment-method.ts';
import type { MethodRefunds, MethodSupport } from './connector.ts';

/**
 * PayMongo's rules for the local methods, in one place: the PayMongo connector
 * declares them, and the sandbox mirrors them so a merchant testing in the sandbox meets the
 * rules production applies (a QR Ph payment cannot be refunded there either).
 *
 * Refunds: QR Ph and UnionBank online banking cannot be refunded at all; every other method
 * within its own window (GCash 180 days, GrabPay 90, Maya 365, BPI and the Brankas banks 30,
 * BillEase 60). Whole or part: PayMongo's refund API takes part of any refundable payment, so
 * partial refunds are allowed wherever refunds are.
 */
export const localMethodRefunds: Record<Exclude<PaymentMethod, 'card'>, MethodRefunds> = {
  qrph: { refundable: false, partial: false, windowDays: null },
  gcash: { refundable: true, partial: true, windowDays: 180 },
  grab_pay: { refundable: true, partial: true, windowDays: 90 },
  paymaya: { refundable: true, partial: true, windowDays: 365 },
  shopeepay: { refundable: true, partial: true, windowDays: 180 },
  // Online banking: BPI refunds within 30 days, UnionBank not at all; the method's rule is the
  // strictest of its banks (a payment records its method, not its bank).
  dob: { refundable: false, partial: false, windowDays: null },
  brankas: { refundable: true, partial: true, windowDays: 30 },
  billease: { refundable: true, partial: true, windowDays: 60 },
};

/** PayMongo's smallest payment, PHP 20.00, for every method (its payment intents' minimum). */
export const LOCAL_METHOD_MINIMUM_MINOR = 2000n;

/** The customer fields each method needs before the provider will take it (BillEase: to reach the borrower). */
export const localMethodRequires: Record<Exclude<PaymentMethod, 'card'>, MethodSupport['requires']> = {
  qrph: [],
  gcash: [],
  grab_pay: [],
  paymaya: [],
  shopeepay: [],
  dob: [],
  brankas: [],
  billease: ['email', 'phone'],
};

/** A QR Ph code's life and a redirect method's authorisation window when none is set: PayMongo's 30 minutes. */
export const DEFAULT_ACTION_WINDOW_SECONDS = 1800;

/** The local methods (every method but cards) with PayMongo's rules, in paylink's order. */
export const localMethodSupport = (banks: Partial<Record<PaymentMethod, readonly string[]>>): MethodSupport[] =>
  paymentMethods
    .filter((m): m is Exclude<PaymentMethod, 'card'> => m !== 'card')
    .map((method) => ({
      method,
      refunds: localMethodRefunds[method],
      minimumMinor: LOCAL_METHOD_MINIMUM_MINOR,
      requires: localMethodRequires[method],
      ...(banks[method] ? { banks: banks[method] } : {}),
      actionWindowSeconds: DEFAULT_ACTION_WINDOW_SECONDS,
      currencies: ['PHP'],
    }));
