/**
 * Test cards expire four years after today's clock. They used to expire `12/30` while the
 * tests run on the real clock: the whole suite would have started failing in 2031.
 */
const year = new Date().getUTCFullYear() + 4;
const yy = String(year % 100).padStart(2, '0');

/** The expiry as a card form takes it (`MM/YY`). */
export const CARD_EXPIRY = `12/${yy}`;
/** The same expiry as the acquirer takes it. */
export const CARD_EXP = { expMonth: 12, expYear: year } as const;
