/**
 * Velocity rules on card attempts (card testing): what the checkout needs from whatever counts
 * attempts. Implemented by src/api/rate-limits.ts with rate-limiter-flexible; the checkout calls
 * it with what only it knows (the link, whether it is static, the card's fingerprint).
 */
export interface CardAttempt {
  /** The client's address as the HTTP layer saw it (see docs/security.md). */
  clientIp: string;
  /** The payment link (checkout) or the integrator (hosted card registration) the card is entered on. */
  scope: string;
  /** A static link's page anyone can open: its attempts are also limited per link overall. */
  open: boolean;
  /** The acquirer's fingerprint of the card number. */
  fingerprint: string;
}

export interface CardVelocity {
  /** Counts an attempt; throws ER.03.25 (429, with a retry time) when a limit is reached. */
  beforeAttempt(attempt: CardAttempt): Promise<void>;
  /** Counts a decline; `showReason` is false once declines repeat (the reason is then withheld). */
  afterDecline(attempt: CardAttempt): Promise<{ showReason: boolean }>;
  /**
   * Before a promotion code typed on a payment page (`scope`: the link) is looked up: throws
   * ER.06.04 (429) once the client's network typed too many codes that do not exist, so codes
   * cannot be guessed one after another. `codeMissed` counts one such code.
   */
  beforeCodeTry(attempt: Pick<CardAttempt, 'clientIp' | 'scope'>): Promise<void>;
  codeMissed(attempt: Pick<CardAttempt, 'clientIp' | 'scope'>): Promise<void>;
}
