import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Link } from '../../db/schema.ts';
import { integrators, links, payments } from '../../db/schema.ts';
import type { LinksQuery } from '../../schemas/link.ts';
import type { PaymentMethod } from '../../schemas/payment-method.ts';
import { notFound } from '../errors.ts';
import { keysetPage, type Page } from '../pagination.ts';

export type { Link };

/** A link with the merchant it belongs to: what a payment page shows. */
export interface LinkWithMerchant {
  link: Link;
  /** `supportEmail`: where customers write with questions (shown on the payment page, Reply-To of its e-mails). */
  merchant: { id: string; name: string; supportEmail: string | null; defaultPaymentMethods: PaymentMethod[] | null; suspended: boolean };
}

const linkWithMerchant = (db: DbOrTx) =>
  db
    .select({
      link: links,
      merchantName: integrators.name,
      supportEmail: integrators.supportEmail,
      defaultPaymentMethods: integrators.defaultPaymentMethods,
      suspendedAt: integrators.suspendedAt,
    })
    .from(links)
    .innerJoin(integrators, eq(integrators.id, links.integratorId));

// Payment pages look links up on every view: prepared once per database, they cost a third as much.
const prepared = new WeakMap<object, { bySlug: ReturnType<typeof prepareBySlug>; byId: ReturnType<typeof prepareById> }>();
const prepareBySlug = (db: Db) =>
  linkWithMerchant(db)
    .where(and(eq(links.slug, sql.placeholder('slug')), eq(links.active, true)))
    .prepare('paylink_link_by_slug');
const prepareById = (db: Db) =>
  linkWithMerchant(db)
    .where(eq(links.id, sql.placeholder('id')))
    .prepare('paylink_link_by_id');
function statements(db: Db) {
  let found = prepared.get(db);
  if (!found) prepared.set(db, (found = { bySlug: prepareBySlug(db), byId: prepareById(db) }));
  return found;
}

const toLinkWithMerchant = (
  row: { link: Link; merchantName: string; supportEmail: string | null; defaultPaymentMethods: PaymentMethod[] | null; suspendedAt: Date | null } | undefined,
): LinkWithMerchant | undefined =>
  row
    ? {
        link: row.link,
        merchant: {
          id: row.link.integratorId,
          name: row.merchantName,
          supportEmail: row.supportEmail,
          defaultPaymentMethods: row.defaultPaymentMethods,
          // A suspended merchant's pages take no payment (src/domain/integrators/suspension.ts).
          suspended: row.suspendedAt !== null,
        },
      }
    : undefined;

/** The active link at /pay/{slug}, or undefined (unknown and inactive links look the same). */
export async function findActiveLink(db: Db, slug: string): Promise<LinkWithMerchant | undefined> {
  if (!/^[a-z0-9-]{1,64}$/.test(slug)) return undefined;
  const [row] = await statements(db).bySlug.execute({ slug });
  return toLinkWithMerchant(row);
}

export async function findLinkById(db: Db, id: string): Promise<LinkWithMerchant | undefined> {
  const [row] = await statements(db).byId.execute({ id });
  return toLinkWithMerchant(row);
}

/** Address a logo is served from (src/pages/assets/[id].ts). */
export const logoUrl = (assetId: string | null) => (assetId ? `/assets/${assetId}` : undefined);

/** GET /api/v1/links: the integrator's links newest first, by state or currency. */
export function listLinks(db: DbOrTx, integrator: { id: string }, query: LinksQuery): Promise<Page<Link>> {
  return keysetPage(
    db,
    // paylink's own links (links.system) are not the merchant's: never listed.
    { table: links, id: links.id, createdAt: links.createdAt, scope: and(eq(links.integratorId, integrator.id), eq(links.system, false))! },
    [query.active !== undefined ? eq(links.active, query.active === 'true') : undefined, query.currency ? eq(links.currency, query.currency) : undefined],
    query,
  );
}

/** One of the integrator's links by slug; another integrator's link, or paylink's own (links.system), does not exist. */
export async function getLink(db: DbOrTx, integrator: { id: string }, slug: string): Promise<Link> {
  const [row] = await db
    .select()
    .from(links)
    .where(and(eq(links.slug, slug), eq(links.integratorId, integrator.id), eq(links.system, false)));
  if (!row) throw notFound('slug', 'Link');
  return row;
}

/**
 * How many successful (paid) payments each of these links has, in one query for a whole list
 * page (the payments_link_created_idx index answers it). Links without any are absent: 0.
 */
export async function paidCounts(db: DbOrTx, linkIds: string[]): Promise<Map<string, number>> {
  if (linkIds.length === 0) return new Map();
  const rows = await db
    .select({ linkId: payments.linkId, paid: count() })
    .from(payments)
    .where(and(inArray(payments.linkId, linkIds), eq(payments.status, 'succeeded')))
    .groupBy(payments.linkId);
  return new Map(rows.map((r) => [r.linkId ?? '', Number(r.paid)]));
}
