import { and, eq } from 'drizzle-orm';
import { newId } from '../../crypto.ts';
import { type PromotionRow, promotions } from '../../db/schema.ts';
import type { PromotionCreate } from '../../schemas/promotion.ts';
import type { DomainContext } from '../context.ts';
import { DomainError } from '../errors.ts';
import { isCurrency } from '../money.ts';
import { assertLinksFit, assertWindow, type PromotionHook } from './manage.ts';
import { normalizeCode, type Promotion } from './rules.ts';

/** Creates a merchant's promotion code; a code the merchant has (without case) is refused with ER.06.00. */
export async function createPromotion(app: DomainContext, integratorId: string, input: PromotionCreate, hook?: PromotionHook): Promise<PromotionRow> {
  if (input.discount.kind === 'fixed' && !isCurrency(input.discount.currency)) {
    throw new DomainError('ER.02.30', 'Invalid client request due to invalid parameters', {
      messages: { 'discount.currency': ['is not a currency paylink takes (a three-letter code such as PHP)'] },
      httpStatus: 422,
    });
  }
  assertWindow(input.valid_from ?? null, input.valid_until ?? null);
  const linkIds = input.link_ids ? [...new Set(input.link_ids)] : null;
  await assertLinksFit(app.db, integratorId, linkIds, input.discount);
  const now = app.now();
  return app.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(promotions)
      .values({
        id: newId('promo'),
        integratorId,
        code: normalizeCode(input.code),
        discount: input.discount,
        linkIds,
        validFrom: input.valid_from ?? null,
        validUntil: input.valid_until ?? null,
        maxRedemptions: input.max_redemptions ?? null,
        oncePerEmail: input.once_per_email,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new DomainError('ER.06.00', 'A promotion code with this code exists', { messages: { code: ['exists already'] } });
    await hook?.(tx, row, undefined);
    return row;
  });
}

/** The merchant's promotion with this code as a customer typed it, or undefined. */
export async function findPromotion(app: DomainContext, integratorId: string, typed: string): Promise<Promotion | undefined> {
  const [row] = await app.db
    .select()
    .from(promotions)
    .where(and(eq(promotions.integratorId, integratorId), eq(promotions.code, normalizeCode(typed))));
  return row && { ...row, linkIds: row.linkIds ?? null };
}
