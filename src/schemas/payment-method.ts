import { z } from 'zod';

/**
 * The ways a customer can pay, as paylink names them on the wire (`payment_method` on transactions,
 * refunds, events and callbacks; `payment_methods` on links and integrators). The ids follow
 * PayMongo's payment method types, the market paylink's interface was written for:
 * - `card`: a debit or credit card (brand and last four are recorded beside it);
 * - `qrph`: a QR Ph code the customer scans with any bank or e-wallet app;
 * - `gcash`, `paymaya` (Maya), `grab_pay`, `shopeepay`: e-wallets, authorised on the wallet's page or app;
 * - `dob`: online banking through the bank's own page (BPI, UnionBank);
 * - `brankas`: online banking through Brankas (BDO, Landbank, Metrobank);
 * - `billease`: buy now, pay later with BillEase.
 * Which of them a merchant can take is the acquirer's to declare (ConnectorCapabilities.methods),
 * which a link offers is the merchant's choice (links.payment_methods).
 */
export const paymentMethods = ['card', 'qrph', 'gcash', 'paymaya', 'grab_pay', 'shopeepay', 'dob', 'brankas', 'billease'] as const;

export const paymentMethodSchema = z.enum(paymentMethods);
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

/** Each method's name in English, for the API's messages, the docs and the console (customers read src/i18n). */
export const paymentMethodNames: Record<PaymentMethod, string> = {
  card: 'Card',
  qrph: 'QR Ph',
  gcash: 'GCash',
  paymaya: 'Maya',
  grab_pay: 'GrabPay',
  shopeepay: 'ShopeePay',
  dob: 'Online banking',
  brankas: 'Online banking (Brankas)',
  billease: 'BillEase',
};

/**
 * How the customer completes a method on paylink's page:
 * - `card`: types the card (paylink's form, PayMongo's or Stripe's fields);
 * - `qr`: scans a code paylink shows, and the page moves on when the acquirer says it was paid;
 * - `redirect`: is sent to the provider's authorisation page (or app) and comes back.
 */
export type MethodFlow = 'card' | 'qr' | 'redirect';

export const methodFlow: Record<PaymentMethod, MethodFlow> = {
  card: 'card',
  qrph: 'qr',
  gcash: 'redirect',
  paymaya: 'redirect',
  grab_pay: 'redirect',
  shopeepay: 'redirect',
  dob: 'redirect',
  brankas: 'redirect',
  billease: 'redirect',
};

/** The banks each online-banking method reaches, by the bank codes PayMongo uses (`details.bank_code`). */
export const onlineBanks = {
  dob: ['bpi', 'ubp'],
  brankas: ['bdo', 'landbank', 'metrobank'],
} as const satisfies Partial<Record<PaymentMethod, readonly string[]>>;

/** Each online bank's name as customers know it, by bank code. */
export const onlineBankNames: Record<string, string> = { bpi: 'BPI', ubp: 'UnionBank', bdo: 'BDO', landbank: 'Landbank', metrobank: 'Metrobank' };

export type OnlineBankMethod = keyof typeof onlineBanks;
export type BankCode = (typeof onlineBanks)[OnlineBankMethod][number];

/**
 * A list of methods as links and integrators send it: at least one, each known, none twice; the
 * order is the merchant's order of preference (the payment page shows them in it).
 */
export const paymentMethodListSchema = z
  .array(paymentMethodSchema, { error: `must be a list of payment methods (${paymentMethods.join(', ')})` })
  .min(1, { error: 'must name at least one payment method' })
  .refine((list) => new Set(list).size === list.length, { error: 'must not name a payment method twice' });
