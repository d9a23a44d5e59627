import { and, asc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import { type CardRegistration, cardRegistrations } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';

/**
 * A deleted registration's card is removed at the acquirer too (Stripe: the payment method is
 * detached from its customer; the sandbox: its vault entry goes), so it can never be charged again
 * even outside paylink. The deletion the integrator asked for never waits on it and never fails
 * because of it:
 *   1. the deletion's own transaction marks the card "to forget" (`forget_next_at`, one attempt counted);
 *   2. once it has committed, paylink asks the acquirer at once;
 *   3. an acquirer that did not answer or refused is asked again by the provider-reconcile loop, with
 *      a growing wait, up to MAX_ATTEMPTS; then paylink gives up and logs it (the card stays at the
 *      acquirer, where the merchant can remove it in the provider's dashboard).
 * Nothing about the card (token, number) is logged: only the registration's reference.
 */

export const MAX_FORGET_ATTEMPTS = 10;

/** The wait before the attempt after `attempts` ones: 1, 2, 4, … minutes, at most 6 hours. */
export const forgetBackoffMs = (attempts: number) => Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 6 * 3_600_000);

/** Columns the deletion sets: the card is to be forgotten, its first attempt counted (the one made just after commit). */
export function forgetOnDelete(row: Pick<CardRegistration, 'cardToken'>, now: Date) {
  return row.cardToken ? { forgetNextAt: new Date(now.getTime() + forgetBackoffMs(1)), forgetAttempts: 1 } : {};
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : 'unknown error');

/** One attempt for a registration already claimed (attempt counted); clears the mark when done. */
async function attemptForget(app: DomainContext, row: Pick<CardRegistration, 'reference' | 'integratorId' | 'cardToken' | 'cardCustomer' | 'forgetAttempts'>) {
  const done = () => app.db.update(cardRegistrations).set({ forgetNextAt: null }).where(eq(cardRegistrations.reference, row.reference));
  if (!row.cardToken) return done();
  const connector = await app.connectors.forIntegrator(row.integratorId);
  if (!connector.forgetSavedCard) return done();
  try {
    await connector.forgetSavedCard(
      { token: row.cardToken, ...(row.cardCustomer ? { customer: row.cardCustomer } : {}) },
      { idempotencyKey: `card-forget:${row.reference}:${row.forgetAttempts}` },
    );
    await done();
    app.log.info('deleted card removed at the acquirer', { registration: row.reference, acquirer: connector.name });
  } catch (error) {
    if (row.forgetAttempts >= MAX_FORGET_ATTEMPTS) {
      await done();
      app.log.error('deleted card not removed at the acquirer; giving up', {
        registration: row.reference,
        acquirer: connector.name,
        attempts: row.forgetAttempts,
        error: errorText(error),
      });
      return;
    }
    app.log.warn('deleted card not removed at the acquirer yet; will retry', {
      registration: row.reference,
      acquirer: connector.name,
      attempts: row.forgetAttempts,
      error: errorText(error),
    });
  }
}

/** Step 2: just after the deletion committed. Never throws: a failure is left for the loop. */
export async function forgetDeletedCard(app: DomainContext, row: CardRegistration): Promise<void> {
  if (!row.forgetNextAt) return;
  try {
    await attemptForget(app, row);
  } catch (error) {
    app.log.warn('deleted card removal not recorded; will retry', { registration: row.reference, error: errorText(error) });
  }
}

/** Step 3, from the provider-reconcile loop: due removals claimed (attempt counted, next wait set) and tried. Returns how many. */
export async function retryCardForgets(app: DomainContext, { limit }: { limit: number }): Promise<number> {
  const now = app.now();
  const claimed = await app.db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(cardRegistrations)
      .where(and(isNotNull(cardRegistrations.forgetNextAt), lte(cardRegistrations.forgetNextAt, now)))
      .orderBy(asc(cardRegistrations.forgetNextAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    const rows: CardRegistration[] = [];
    for (const row of due) {
      const attempts = row.forgetAttempts + 1;
      const [updated] = await tx
        .update(cardRegistrations)
        .set({ forgetAttempts: sql`${cardRegistrations.forgetAttempts} + 1`, forgetNextAt: new Date(now.getTime() + forgetBackoffMs(attempts)) })
        .where(eq(cardRegistrations.reference, row.reference))
        .returning();
      rows.push(updated!);
    }
    return rows;
  });
  for (const row of claimed) await forgetDeletedCard(app, row);
  return claimed.length;
}
