import type { MethodSupport } from '../acquirer/connector.ts';
import { onlineBankNames, type PaymentMethod } from '../schemas/payment-method.ts';
import { type Locale, type MessageKey, t } from './index.ts';

/**
 * How the payment page names each method, in the customer's language. Wallets, QR Ph and
 * BillEase are names, the same in every language; card and online banking are words.
 */
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
  if (support.banks) return support.banks.map((code) => onlineBankNames[code] ?? code).join(' · ');
  if (method === 'card') return t(locale, 'method.card.sub');
  if (method === 'qrph') return t(locale, 'method.qrph.sub');
  if (method === 'billease') return t(locale, 'method.billease.sub');
  return t(locale, 'method.wallet.sub');
}

/** What a refusal of a method's form says, by its catalogue code (the refusals the method endpoints answer). */
const refusalWords: Record<string, MessageKey> = {
  'ER.03.20': 'refusal.not_found',
  'ER.03.21': 'refusal.form_expired',
  'ER.03.22': 'refusal.paid',
  'ER.03.23': 'refusal.locked',
  'ER.03.24': 'refusal.method_waiting',
  'ER.03.31': 'refusal.method_declined',
  'ER.03.40': 'refusal.method_unavailable',
  'ER.06.01': 'sale.code.used_up',
  'ER.06.02': 'sale.code.already_used',
  'ER.06.08': 'refusal.code_below_minimum',
  'ER.06.09': 'refusal.below_minimum',
};

/**
 * A method's form refused without script: the endpoint sends the customer back to the page with
 * `method_error` (the catalogue code) and `field` (each field it had a message for). Fields wrong:
 * "check the details marked"; a known refusal: its words; anything else: the generic words.
 */
export function methodRefusal(query: URLSearchParams, locale: Locale): { message: string; fields: string[] } | undefined {
  const code = query.get('method_error');
  if (!code) return undefined;
  const fields = query.getAll('field').filter((f) => /^[\w.]{1,100}$/.test(f));
  const key = refusalWords[code] ?? (fields.length > 0 ? 'method.error.fields' : 'card.generic_error');
  return { message: t(locale, key), fields };
}
