import type { PayOutcome } from '../../domain/checkout/pay.ts';
import type { EndpointResult } from '../endpoint.ts';

/** A card attempt's answer: OK.03.00 with the receipt's address, or ER.03.30 (HTTP 200) saying why in plain words. */
export function presentPayOutcome(outcome: PayOutcome): EndpointResult {
  if (outcome.status === 'succeeded') {
    return { code: 'OK.03.00', data: { transaction_id: outcome.payment.id, redirect_url: outcome.receiptPath } };
  }
  const locked = outcome.attemptsLeft <= 0 ? ' This payment link is now locked after too many attempts; ask the merchant for a new one.' : '';
  return {
    code: 'ER.03.30',
    data: { transaction_id: outcome.payment.id, decline_code: outcome.code, attempts_left: outcome.attemptsLeft },
    messages: { card: [outcome.message + locked] },
  };
}
