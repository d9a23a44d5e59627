import type { MethodSupport } from '../acquirer/connector.ts';
import type { PaymentMethod } from '../schemas/payment-method.ts';
import { type Locale, t } from './index.ts';

/**
 * How the payment page names each method and bank, in the customer's language. Wallets, QR Ph and
 * BillEase are names, the same in every language; card and online banking are words.
 */
export const bankNames: Record<string, string> = { bpi: 'BPI', ubp: 'UnionBank', bdo: 'BDO', landbank: 'Landbank', metrobank: 'Metrobank' };

const ownNames: Partial<Record<PaymentMethod, string>> = {
  qrph: 'QR Ph',
  gcash: 'GCash',
  paymaya: 'Maya',
  grab_pay: 'GrabPay',
  shopeepay: 'ShopeePay',
  billease: 'BillEase',
};

export function methodName(locale: Locale, method: PaymentMethod): string {
  if (method === 'card' || method === 'dob' || method === 'brankas') return t(locale, `method.${method}`);
  return ownNames[method] ?? method;
}

/** The line under a method's name in the chooser: what it is, or (online banking) the banks it reaches. */
export function methodSubline(locale: Locale, support: Pick<MethodSupport, 'method' | 'banks'>): string {
  const { method } = support;
  if (support.banks) return support.banks.map((code) => bankNames[code] ?? code).join(' · ');
  if (method === 'card') return t(locale, 'method.card.sub');
  if (method === 'qrph') return t(locale, 'method.qrph.sub');
  if (method === 'billease') return t(locale, 'method.billease.sub');
  return t(locale, 'method.wallet.sub');
}
