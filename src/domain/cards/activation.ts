import { and, eq, type SQL } from 'drizzle-orm';
import type { CardSummary } from '../../acquirer/acquirer.ts';
import { type CardRegistration, cardRegistrations } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { recordEvent } from '../notifications/domain-events.ts';

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

/**
 * The one way a registration becomes active, whichever path completes it (the sandbox's card
 * form, a Stripe setup, a pay-by-link confirmation): the registration `which` names is set to
 * `columns` only while it is still pending, and `card_registration.completed` is written in the
 * same transaction, so it happens once. When it was not pending (completed meanwhile by another
 * path, deleted), nothing changes and the registration is returned as it stands (undefined when
 * none matches).
 */
export async function activateRegistration(
  app: Pick<DomainContext, 'db' | 'presentEvent'>,
  which: SQL | undefined,
  columns: Partial<typeof cardRegistrations.$inferInsert> & { status: 'active' },
  now: Date,
): Promise<CardRegistration | undefined> {
  return app.db.transaction(async (tx) => {
    const [activated] = await tx
      .update(cardRegistrations)
      .set(columns)
      .where(and(which, eq(cardRegistrations.status, 'pending')))
      .returning();
    if (!activated) {
      const [current] = await tx.select().from(cardRegistrations).where(which);
      return current;
    }
    await recordEvent(app.presentEvent, tx, {
      integratorId: activated.integratorId,
      event: { type: 'card_registration.completed', registration: activated },
      callbackUrl: activated.callbackUrl,
      now,
    });
    return activated;
  });
}
