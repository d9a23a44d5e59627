import { and, eq, isNull, sql } from 'drizzle-orm';
import { newId } from '../../crypto.ts';
import type { Tx } from '../../db/client.ts';
import { promotionRedemptions, promotions } from '../../db/schema.ts';
import { DomainError } from '../errors.ts';
import { normalizeEmail } from './rules.ts';

/**
 * Redeeming a promotion code, counted in the database so that payments made at the same moment
 * never redeem more than its maximum, nor a once-per-customer code twice for one e-mail. A
 * redemption is held by what redeemed it (a checkout session or a payment) from the payment's
 * attempt on, and released when that ends unpaid, so an abandoned checkout gives its place back.
 *
 * Both steps run in the caller's transaction (the one that creates the attempt): a refusal throws,
 * and the attempt is not made.
 */
export async function redeemPromotion(
  tx: Tx,
  redemption: { promotionId: string; reference: string; email?: string | null; oncePerEmail: boolean; discountMinor: bigint; currency: string; now: Date },
): Promise<void> {
  const email = redemption.oncePerEmail && redemption.email ? normalizeEmail(redemption.email) : null;
  // The e-mail first: its unique index makes a second redemption for one address wait for the
  // first transaction and then find it, without touching the count.
  const held = await tx
    .insert(promotionRedemptions)
    .values({
      id: newId('prd'),
      promotionId: redemption.promotionId,
      reference: redemption.reference,
      email,
      discountMinor: redemption.discountMinor,
      currency: redemption.currency,
      createdAt: redemption.now,
    })
    .onConflictDoNothing()
    .returning({ id: promotionRedemptions.id });
  if (held.length === 0) {
    const [same] = await tx
      .select({ id: promotionRedemptions.id })
      .from(promotionRedemptions)
      .where(
        and(
          eq(promotionRedemptions.promotionId, redemption.promotionId),
          eq(promotionRedemptions.reference, redemption.reference),
          isNull(promotionRedemptions.releasedAt),
        ),
      );
    if (same) return; // this attempt redeemed it already (a retried request)
    throw new DomainError('ER.06.02', 'This promotion code was already used with this e-mail address', {
      messages: { promo_code: ['was already used with this e-mail address'] },
    });
  }
  // Under the row's lock, re-read after any concurrent redemption commits: never past the maximum.
  const counted = await tx
    .update(promotions)
    .set({ redeemed: sql`${promotions.redeemed} + 1`, updatedAt: redemption.now })
    .where(and(eq(promotions.id, redemption.promotionId), sql`(${promotions.maxRedemptions} is null or ${promotions.redeemed} < ${promotions.maxRedemptions})`))
    .returning({ redeemed: promotions.redeemed });
  if (counted.length === 0) throw new DomainError('ER.06.01', 'This promotion code is used up', { messages: { promo_code: ['is used up'] } });
}

/** Gives back the redemptions `reference` holds (its payment ended unpaid); true when one was held. */
export async function releaseRedemption(tx: Tx, reference: string, now: Date): Promise<boolean> {
  const released = await tx
    .update(promotionRedemptions)
    .set({ releasedAt: now })
    .where(and(eq(promotionRedemptions.reference, reference), isNull(promotionRedemptions.releasedAt)))
    .returning({ promotionId: promotionRedemptions.promotionId });
  for (const { promotionId } of released) {
    await tx
      .update(promotions)
      .set({ redeemed: sql`greatest(${promotions.redeemed} - 1, 0)`, updatedAt: now })
      .where(eq(promotions.id, promotionId));
  }
  return released.length > 0;
}
