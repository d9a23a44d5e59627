import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { links, type PromotionRow, promotions } from '../../db/schema.ts';
import type { Discount } from '../../schemas/link-sale.ts';
import type { PromotionsQuery } from '../../schemas/promotion.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, invalidFields, type Messages, notFound, theRow } from '../errors.ts';
import { keysetPage, type Page } from '../pagination.ts';

/**
 * A merchant's promotion codes after they are made: the list, one code, and changes to its window,
 * maximum, links and state. The code and its discount never change once made: customers may have
 * been told them, and redemptions recorded with them. The API and the console call these; the
 * console's changes are audited in the same transaction (src/domain/promotions/console.ts).
 */

/** What a change may set; absent: unchanged, null: cleared (every link, no limit, open-ended). */
export interface PromotionPatch {
  linkIds?: string[] | null;
  validFrom?: Date | null;
  validUntil?: Date | null;
  maxRedemptions?: number | null;
  active?: boolean;
}

/** Called in the change's transaction with the row before and after (the console audits here). */
export type PromotionHook = (tx: Tx, after: PromotionRow, before: PromotionRow | undefined) => Promise<void>;

/** Promotion ids are `promo_` and hex: anything else names nothing, without asking the database. */
const PROMOTION_ID = /^promo_[0-9a-f]{1,64}$/;

export function listPromotions(db: DbOrTx, integrator: { id: string }, query: PromotionsQuery): Promise<Page<PromotionRow>> {
  return keysetPage(
    db,
    { table: promotions, id: promotions.id, createdAt: promotions.createdAt, scope: eq(promotions.integratorId, integrator.id), idPattern: PROMOTION_ID },
    [query.active !== undefined ? eq(promotions.active, query.active === 'true') : undefined],
    query,
  );
}

/** One of the integrator's promotions; another integrator's does not exist. */
export async function getPromotion(db: DbOrTx, integrator: { id: string }, id: string): Promise<PromotionRow> {
  if (!PROMOTION_ID.test(id)) throw notFound('id', 'Promotion code');
  const [row] = await db
    .select()
    .from(promotions)
    .where(and(eq(promotions.id, id), eq(promotions.integratorId, integrator.id)));
  if (!row) throw notFound('id', 'Promotion code');
  return row;
}

/** A window must open before it closes. */
export function assertWindow(validFrom: Date | null, validUntil: Date | null): void {
  if (validFrom && validUntil && validFrom >= validUntil) throw invalidFields({ valid_until: ['must be after valid_from'] });
}

/**
 * The links a code names must be the merchant's own (paylink's own links are nobody's), and a
 * fixed discount, being in one currency, applies only to links in that currency.
 */
export async function assertLinksFit(db: DbOrTx, integratorId: string, linkIds: readonly string[] | null, discount: Discount): Promise<void> {
  if (!linkIds) return;
  const unique = [...new Set(linkIds)];
  const found = await db
    .select({ id: links.id, currency: links.currency })
    .from(links)
    .where(and(eq(links.integratorId, integratorId), eq(links.system, false), inArray(links.id, unique)));
  const byId = new Map(found.map((l) => [l.id, l.currency]));
  const problems: string[] = [];
  for (const id of unique) {
    const currency = byId.get(id);
    if (currency === undefined) problems.push(`${id} is not one of your links`);
    else if (discount.kind === 'fixed' && currency !== discount.currency)
      problems.push(`${id} is in ${currency}; a discount in ${discount.currency} applies only to links in ${discount.currency}`);
  }
  if (problems.length > 0) throw invalidFields({ link_ids: problems });
}

/**
 * Changes a promotion under its row's lock, so a redemption made at the same moment counts against
 * the new maximum; a maximum below the redemptions held is refused (ER.06.20), as it would take
 * back discounts already given.
 */
export async function updatePromotion(
  app: DomainContext,
  integratorId: string,
  id: string,
  patch: PromotionPatch,
  hook?: PromotionHook,
): Promise<PromotionRow> {
  if (!PROMOTION_ID.test(id)) throw notFound('id', 'Promotion code');
  return app.db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(promotions)
      .where(and(eq(promotions.id, id), eq(promotions.integratorId, integratorId)))
      .for('update');
    if (!before) throw notFound('id', 'Promotion code');
    const validFrom = patch.validFrom === undefined ? before.validFrom : patch.validFrom;
    const validUntil = patch.validUntil === undefined ? before.validUntil : patch.validUntil;
    assertWindow(validFrom, validUntil);
    if (patch.linkIds) await assertLinksFit(tx, integratorId, patch.linkIds, before.discount);
    const max = patch.maxRedemptions;
    if (max !== undefined && max !== null && max < before.redeemed) {
      const messages: Messages = { max_redemptions: [`cannot be below the ${before.redeemed} redemptions already made`] };
      throw new DomainError('ER.06.20', 'The maximum is below the redemptions made', { messages });
    }
    const updated = await tx
      .update(promotions)
      .set({
        ...(patch.linkIds !== undefined && { linkIds: patch.linkIds && [...new Set(patch.linkIds)] }),
        validFrom,
        validUntil,
        ...(max !== undefined && { maxRedemptions: max }),
        ...(patch.active !== undefined && { active: patch.active }),
        updatedAt: app.now(),
      })
      .where(eq(promotions.id, id))
      .returning();
    const after = theRow(updated, 'the promotion just locked');
    await hook?.(tx, after, before);
    return after;
  });
}
