import { type Connector, methodSupport } from '../../acquirer/connector.ts';
import type { PaymentMethod } from '../../schemas/payment-method.ts';
import { acquirerMinimum } from '../links/acquirer-fit.ts';

/**
 * The smallest total a sale may come to when paid by `method` with the merchant's acquirer: the
 * acquirer's minimum for the currency (Stripe's table, PayMongo's ₱20.00), or the method's own
 * when higher (BillEase's ₱100.00). A link's one amount is held to it when the link is saved; a
 * total the server computes from items, a tip and a code is held to it before any attempt, so the
 * customer is told in their language rather than meeting the provider's refusal. Undefined: none.
 */
export function saleMinimum(connector: Pick<Connector, 'name' | 'capabilities'>, currency: string, method: PaymentMethod = 'card'): bigint | undefined {
  const ofAcquirer = acquirerMinimum(connector, currency);
  const support = methodSupport(connector.capabilities, method);
  // A method's minimum is stated in the currencies it takes (PayMongo's: centavos).
  const ofMethod = support && (!support.currencies || support.currencies.includes(currency)) ? support.minimumMinor : undefined;
  if (ofMethod === undefined || ofMethod <= 0n) return ofAcquirer;
  return ofAcquirer === undefined || ofMethod > ofAcquirer ? ofMethod : ofAcquirer;
}
