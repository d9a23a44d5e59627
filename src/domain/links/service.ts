import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { integrators, links } from '../../db/schema.ts';

export type Link = typeof links.$inferSelect;

/** A link with the merchant it belongs to: what a payment page shows. */
export interface LinkWithMerchant {
  link: Link;
  merchant: { id: string; name: string };
}

/** The active link at /pay/{slug}, or undefined (unknown and inactive links look the same). */
export async function findActiveLink(db: DbOrTx, slug: string): Promise<LinkWithMerchant | undefined> {
  if (!/^[a-z0-9-]{1,64}$/.test(slug)) return undefined;
  const [row] = await db
    .select({ link: links, merchantName: integrators.name })
    .from(links)
    .innerJoin(integrators, eq(integrators.id, links.integratorId))
    .where(and(eq(links.slug, slug), eq(links.active, true)));
  return row ? { link: row.link, merchant: { id: row.link.integratorId, name: row.merchantName } } : undefined;
}

export async function findLinkById(db: DbOrTx, id: string): Promise<LinkWithMerchant | undefined> {
  const [row] = await db
    .select({ link: links, merchantName: integrators.name })
    .from(links)
    .innerJoin(integrators, eq(integrators.id, links.integratorId))
    .where(eq(links.id, id));
  return row ? { link: row.link, merchant: { id: row.link.integratorId, name: row.merchantName } } : undefined;
}

/** Address a logo is served from (src/pages/assets/[id].ts). */
export const logoUrl = (assetId: string | null) => (assetId ? `/assets/${assetId}` : undefined);
