import type { DeclineCode } from './acquirer.ts';

/**
 * The sandbox's test cards (also listed in README.md). Any other number that passes the Luhn
 * check and has a known brand behaves like 4242 4242 4242 4242.
 */
export interface TestCardBehaviour {
  /** Declined at verification and at every charge. */
  decline?: DeclineCode;
  /** Verifies (registers) fine, but every later charge of the stored token is declined. */
  declineStoredCharges?: DeclineCode;
  /** Charges succeed, refunds of them are refused by the acquirer. */
  refundFails?: true;
  /** Charges succeed; refunds answer pending, then fail at the next sync (src/acquirer/sandbox-connector.ts). */
  refundFailsLater?: true;
  /** The payment asks for 3-D Secure first (the connector's createPayment; src/acquirer/sandbox-connector.ts). */
  threeDSecure?: true;
}

export const testCards: Record<string, { description: string } & TestCardBehaviour> = {
  '4242424242424242': { description: 'Visa: succeeds' },
  '5555555555554444': { description: 'Mastercard: succeeds' },
  '4000000000000002': { description: 'Declined (card_declined)', decline: 'card_declined' },
  '4000000000009995': { description: 'Declined: insufficient funds', decline: 'insufficient_funds' },
  '4000000000000069': { description: 'Declined: expired card', decline: 'expired_card' },
  '4000000000000127': { description: 'Declined: incorrect security code', decline: 'incorrect_cvc' },
  '4000000000000119': { description: 'Declined: processing error', decline: 'processing_error' },
  '4000000000000341': { description: 'Registers fine; every later charge of the stored card is declined', declineStoredCharges: 'card_declined' },
  '4000000000005126': { description: 'Charges succeed; refunds of them are refused by the acquirer', refundFails: true },
  '4000000000007726': { description: 'Charges succeed; refunds are accepted as pending, then fail', refundFailsLater: true },
  '4000000000003220': { description: 'Asks for 3-D Secure; succeeds once the customer completes it', threeDSecure: true },
};
