import { onlineBanks } from '../schemas/payment-method.ts';
import type { MethodSupport } from './connector.ts';

/**
 * PayMongo's rules for every method, in one place: the PayMongo connector declares them, and the
 * sandbox mirrors its local methods so a merchant testing in the sandbox meets the rules
 * production applies (a QR Ph payment cannot be refunded there either). docs/acquirers.md has
 * the sources and the decisions.
 */

/** A QR Ph code's life and a redirect method's authorisation window when none is set: PayMongo's 30 minutes. */
export const DEFAULT_ACTION_WINDOW_SECONDS = 1800;

/**
 * The methods PayMongo takes through Payment Intents, with what its documentation says of each
 * (docs/acquirers.md has the sources' words and the decisions): amounts in centavos; every method
 * at least PHP 20.00 (the API's own floor) but BillEase PHP 100.00; refunds per PayMongo's refund
 * table; the time the customer has once the method is started.
 */
export const paymongoMethodRules: readonly MethodSupport[] = [
  { method: 'card', refunds: { refundable: true, partial: true, windowDays: 60 }, minimumMinor: 2000n, maximumMinor: 999_999_999n, requires: [] },
  // QR Ph: never refundable; settled over InstaPay, whose transfer limit (PHP 50,000) is the ceiling.
  {
    method: 'qrph',
    refunds: { refundable: false, partial: false, windowDays: null },
    minimumMinor: 2000n,
    maximumMinor: 5_000_000n,
    requires: [],
    actionWindowSeconds: DEFAULT_ACTION_WINDOW_SECONDS,
  },
  {
    method: 'gcash',
    refunds: { refundable: true, partial: true, windowDays: 180 },
    minimumMinor: 2000n,
    maximumMinor: 10_000_000n,
    requires: [],
    actionWindowSeconds: 4 * 3600,
  },
  // Maya and GrabPay: PayMongo's current refund table allows partial refunds (an older page did not); a partial
  // refund PayMongo still refuses fails with its reason and gives the amount back, so "yes" costs less than a wrong "no".
  {
    method: 'paymaya',
    refunds: { refundable: true, partial: true, windowDays: 365 },
    minimumMinor: 2000n,
    maximumMinor: 10_000_000n,
    requires: [],
    actionWindowSeconds: 1800,
  },
  {
    method: 'grab_pay',
    refunds: { refundable: true, partial: true, windowDays: 90 },
    minimumMinor: 2000n,
    maximumMinor: 10_000_000n,
    requires: [],
    actionWindowSeconds: 900,
  },
  // ShopeePay: not in PayMongo's refund table; PayMongo decides (its refusal is a failed refund with its reason).
  {
    method: 'shopeepay',
    refunds: { refundable: true, partial: true, windowDays: null },
    minimumMinor: 2000n,
    maximumMinor: 10_000_000n,
    requires: [],
    actionWindowSeconds: 1200,
  },
  // Online banking: BPI refunds within 30 days, UnionBank not at all; BPI's default limit PHP 50,000.
  {
    method: 'dob',
    refunds: { refundable: true, partial: true, windowDays: 30, unrefundableBanks: ['ubp'] },
    minimumMinor: 2000n,
    maximumMinor: 5_000_000n,
    requires: ['name', 'email', 'phone'],
    banks: onlineBanks.dob,
  },
  {
    method: 'brankas',
    refunds: { refundable: true, partial: true, windowDays: 30 },
    minimumMinor: 2000n,
    requires: ['name', 'email', 'phone'],
    banks: onlineBanks.brankas,
  },
  {
    method: 'billease',
    refunds: { refundable: true, partial: true, windowDays: 60 },
    minimumMinor: 10_000n,
    maximumMinor: 4_000_000n,
    requires: ['name', 'email', 'phone'],
  },
];

/** The sandbox's local methods: PayMongo's rules, in PHP only (as PayMongo takes them). */
export const sandboxLocalMethods = (): MethodSupport[] => paymongoMethodRules.filter((m) => m.method !== 'card').map((m) => ({ ...m, currencies: ['PHP'] }));
