import type { PaymentMethod } from '../schemas/payment-method.ts';

/**
 * How money moves. paylink talks to an acquirer only through this interface; every call carries
 * an idempotency key, and the same key always returns the first result, so a retried or
 * recovered call never moves money twice.
 */
export interface CardInput {
  number: string;
  expMonth: number;
  /** Four-digit year. */
  expYear: number;
  cvc?: string;
  holderName?: string;
}

export interface CardSummary {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  fingerprint: string;
  /** The wallet the card was paid from (Stripe: Apple Pay, Google Pay, Link); absent for a card typed in. */
  wallet?: CardWallet;
}

/** A wallet a card payment came from; the payment is a card payment all the same. */
export type CardWallet = 'apple_pay' | 'google_pay' | 'link' | 'samsung_pay';

/** Plain-words decline reasons, shared by checkout and scheduled charges. */
export type DeclineCode =
  | 'card_declined'
  | 'insufficient_funds'
  | 'expired_card'
  | 'incorrect_cvc'
  | 'processing_error'
  | 'invalid_card'
  | 'unknown_token'
  /** A QR code or an authorisation window passed before the customer paid (not a card's expiry). */
  | 'expired'
  /** The customer cancelled at the wallet's, bank's or lender's page, or came back without paying. */
  | 'cancelled';

/** A charge's final answer. `method` absent: a card (the card summary beside it); `bank`: online banking's bank code. */
export type ChargeResult =
  | ({ status: 'succeeded'; chargeId: string; method?: PaymentMethod; bank?: string } & Partial<CardSummary>)
  | ({ status: 'declined'; code: DeclineCode; message: string; method?: PaymentMethod; bank?: string } & Partial<CardSummary>);

export type RefundResult = { status: 'succeeded'; refundId: string } | { status: 'failed'; code: string; message: string };

export type VerifyResult =
  | ({ status: 'verified'; token: string } & CardSummary)
  | ({ status: 'declined'; code: DeclineCode; message: string } & Partial<CardSummary>);

export interface Acquirer {
  readonly name: string;
  /**
   * The acquirer's fingerprint of a card number: the same card always gives the same value, and
   * the number cannot be recovered from it. The velocity limits count declines per card with it,
   * before the card is sent to be charged.
   */
  fingerprint(cardNumber: string): string;
  /** Verify a card and keep it in the acquirer's vault; returns a token for later charges. */
  verifyCard(card: CardInput, opts: { idempotencyKey: string }): Promise<VerifyResult>;
  /** Charge a card entered now, a token from verifyCard, or (the sandbox's simulation) a local method the customer authorised. */
  charge(req: { source: ChargeSource; amountMinor: bigint; currency: string; description?: string }, opts: { idempotencyKey: string }): Promise<ChargeResult>;
  /** Charges of vaulted tokens (scheduled charges), each under its own key, in one call: each as `charge` with that token and key. */
  chargeSavedCards(reqs: Array<{ token: string; amountMinor: bigint; currency: string; idempotencyKey: string }>): Promise<ChargeResult[]>;
  refund(req: { chargeId: string; amountMinor: bigint; currency: string }, opts: { idempotencyKey: string }): Promise<RefundResult>;
}

/** What a charge takes money from: a card typed now, a vaulted card, or a local method (QR Ph, e-wallet, bank) already authorised. */
export type ChargeSource = { card: CardInput } | { token: string } | { method: Exclude<PaymentMethod, 'card'> };

export const declineMessages: Record<DeclineCode, string> = {
  card_declined: 'Your card was declined. Try another card or contact your bank.',
  insufficient_funds: 'Your card has insufficient funds. Try another card.',
  expired_card: 'Your card has expired. Check the expiry date or use another card.',
  incorrect_cvc: 'The security code is incorrect. Check the code on the back of your card.',
  processing_error: 'We could not process your card right now. Please try again in a moment.',
  invalid_card: 'The card details are not valid. Check the card number and expiry date.',
  unknown_token: 'The stored card is no longer available.',
  expired: 'The time to pay ran out before the payment was made. Start again to pay.',
  cancelled: 'The payment was cancelled before it was made. Choose a way to pay to try again.',
};
