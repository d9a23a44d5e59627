import type { MethodStarted } from '../../domain/checkout/method-pay.ts';
import type { CheckoutStatus } from '../../domain/checkout/method-status.ts';
import type { PayOutcome } from '../../domain/checkout/pay.ts';
import type { TrialOutcome } from '../../domain/subscriptions/trial.ts';
import type { EndpointResult } from '../endpoint.ts';

const lockedNote = ' This payment link is now locked after too many attempts; ask the merchant for a new one.';

/**
 * A card attempt's answer: OK.03.00 with the receipt's address, or ER.03.30 (HTTP 200) saying why in
 * plain words; on a free trial's link, OK.07.04 with the confirmation's address or ER.07.03.
 */
export function presentPayOutcome(outcome: PayOutcome | TrialOutcome): EndpointResult {
  if (outcome.status === 'trial_started') {
    return {
      code: 'OK.07.04',
      data: { schedule_reference: outcome.schedule.id, first_charge_at: outcome.schedule.nextRunAt?.toISOString() ?? null, redirect_url: outcome.receiptPath },
    };
  }
  if (outcome.status === 'trial_declined') {
    const locked = outcome.attemptsLeft <= 0 ? lockedNote : '';
    return { code: 'ER.07.03', data: { decline_code: outcome.code, attempts_left: outcome.attemptsLeft }, messages: { card: [outcome.message + locked] } };
  }
  if (outcome.status === 'succeeded') {
    return { code: 'OK.03.00', data: { transaction_id: outcome.payment.id, redirect_url: outcome.receiptPath } };
  }
  const locked = outcome.attemptsLeft <= 0 ? lockedNote : '';
  return {
    code: 'ER.03.30',
    data: { transaction_id: outcome.payment.id, decline_code: outcome.code, attempts_left: outcome.attemptsLeft },
    messages: { card: [outcome.message + locked] },
  };
}

/**
 * A method's start (POST /pay/{slug}/method, /checkout/{token}/method): OK.03.01 with
 * `next_action_url` (the provider's authorisation page: go there) or `checkout_url` (the checkout
 * page, which shows the QR code, "processing", or the receipt).
 */
export function presentMethodStart(started: MethodStarted): EndpointResult {
  return {
    code: 'OK.03.01',
    data: { method: started.method, ...(started.kind === 'redirect' ? { next_action_url: started.url } : { checkout_url: methodStartTarget(started) }) },
  };
}

/** Where a no-script form post of a method's start is sent (303). */
export const methodStartTarget = (started: MethodStarted) =>
  started.kind === 'redirect' ? started.url : started.kind === 'settled' ? started.receiptPath : started.checkoutPath;

/** GET /checkout/{token}/status: OK.00.00 with the session's status, snake_case (the QR's content is what the checkout page shows). */
export function presentCheckoutStatus(status: CheckoutStatus): EndpointResult {
  return {
    code: 'OK.00.00',
    data: {
      status: status.status,
      ...(status.method ? { method: status.method } : {}),
      ...(status.qr ? { qr_content: status.qr.content, qr_expires_at: status.qr.expiresAt.toISOString() } : {}),
      ...(status.receiptPath ? { receipt_url: status.receiptPath } : {}),
      ...(status.declineCode ? { decline_code: status.declineCode } : {}),
    },
  };
}
