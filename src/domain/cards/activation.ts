import type { CardSummary } from '../../acquirer/acquirer.ts';
import type { cardRegistrations } from '../../db/schema.ts';

/** What an active card registration keeps of a card the acquirer verified: never the number. */
export function activeCardColumns(verified: CardSummary & { token: string }, holderName: string | null | undefined, now: Date) {
  return {
    status: 'active',
    cardToken: verified.token,
    brand: verified.brand,
    last4: verified.last4,
    expMonth: verified.expMonth,
    expYear: verified.expYear,
    fingerprint: verified.fingerprint,
    holderName: holderName ?? null,
    activatedAt: now,
  } satisfies Partial<typeof cardRegistrations.$inferInsert>;
}
