import { and, count, eq, isNotNull, ne, or } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Link } from '../../db/schema.ts';
import { checkoutSessions, integrators, links } from '../../db/schema.ts';
import { DomainError } from '../errors.ts';
import { merchantSuspendedError } from '../integrators/suspension.ts';
import { isDynamicOnly } from './form.ts';
import type { LinkCache } from './link-cache.ts';
import type { LinkWithMerchant } from './service.ts';

/**
 * Whether a link can still be paid — the one rule the payment pages, the pay submissions and the
 * dynamic-link POST all use:
 *   inactive   switched off by its owner (404, like an unknown address);
 *   expired    `expires_at` has passed (410);
 *   used_up    `max_payments` successful payments reached (410, "already paid"; 1 = single use).
 * A payment counts from the moment its card attempt is claimed (a session at the acquirer holds a
 * place) until it is declined, so two customers paying a single-use link at once cannot both pay:
 * the claim counts under a lock on the link's row (see `reservePlace`).
 */
export type LinkAvailability = 'open' | 'inactive' | 'expired' | 'used_up';

/** The places taken on a link: paid sessions and sessions with a card attempt at the acquirer. */
export async function takenPlaces(db: DbOrTx, linkId: string, exceptSessionId?: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(checkoutSessions)
    .where(
      and(
        eq(checkoutSessions.linkId, linkId),
        or(eq(checkoutSessions.status, 'paid'), isNotNull(checkoutSessions.processingAt)),
        exceptSessionId ? ne(checkoutSessions.id, exceptSessionId) : undefined,
      ),
    );
  return row?.n ?? 0;
}

/** The link's state from its own columns (no count): inactive or expired, else open. */
export function linkDateState(link: Pick<Link, 'active' | 'expiresAt'>, now: Date): LinkAvailability {
  if (!link.active) return 'inactive';
  if (link.expiresAt && link.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'open';
}

/** Whether the link can be paid now (counts its places only when it has a maximum). */
export async function linkAvailability(db: DbOrTx, link: Link, now: Date, exceptSessionId?: string): Promise<LinkAvailability> {
  const state = linkDateState(link, now);
  if (state !== 'open' || link.maxPayments === null) return state;
  return (await takenPlaces(db, link.id, exceptSessionId)) >= link.maxPayments ? 'used_up' : 'open';
}

export const linkUnavailableError = (state: Exclude<LinkAvailability, 'open'>, slug?: string) => {
  if (state === 'expired')
    return new DomainError('ER.03.11', 'Payment link expired', {
      messages: { '(request)': ['This payment link has expired and no longer accepts payments. Ask the merchant for a new one. You have not been charged.'] },
    });
  if (state === 'used_up')
    return new DomainError('ER.03.12', 'Payment link already paid', {
      messages: { '(request)': ['This payment link has already been paid and accepts no more payments. You have not been charged.'] },
    });
  return new DomainError('ER.03.10', 'Payment link not found', {
    messages: { '(request)': [slug ? `No active payment link at /pay/${slug}.` : 'This payment link does not exist or is no longer active.'] },
  });
};

/** Throws the right error unless the link can be paid now. */
export async function requirePayable(db: DbOrTx, link: Link, now: Date, exceptSessionId?: string): Promise<void> {
  const state = await linkAvailability(db, link, now, exceptSessionId);
  if (state !== 'open') throw linkUnavailableError(state);
}

/**
 * Inside the transaction that claims a card attempt for `sessionId`: locks the link's row, so
 * claims on one link are counted one at a time, then refuses unless a place is free. The claim
 * (the session's `processing_at`) is the reservation; a decline clears it, a success turns it
 * into a paid session.
 */
export async function reservePlace(tx: DbOrTx, linkId: string, sessionId: string, now: Date): Promise<void> {
  const [row] = await tx
    .select({ link: links, suspendedAt: integrators.suspendedAt })
    .from(links)
    .innerJoin(integrators, eq(integrators.id, links.integratorId))
    .where(eq(links.id, linkId))
    .for('update', { of: links });
  if (!row) throw linkUnavailableError('inactive');
  // The page was read from memory kept for a few seconds: a suspension since then is caught here.
  if (row.suspendedAt !== null) throw merchantSuspendedError();
  await requirePayable(tx, row.link, now, sessionId);
}

/**
 * `not_accepted`: the merchant's acquirer cannot take the link's currency or amount (src/domain/links/acquirer-fit.ts);
 * `suspended`: the merchant is suspended by the operator (src/domain/integrators/suspension.ts).
 */
export type LinkPageView =
  | { state: 'not_found' }
  | { state: 'dynamic_only' | 'expired' | 'used_up' | 'not_accepted' | 'suspended' | 'open'; found: LinkWithMerchant };

/** What GET /pay/{slug} shows: the form, or why the link cannot be paid (the link from `views`). */
export async function loadLinkPage(app: { db: Db; linkCache: LinkCache }, slug: string, now: Date): Promise<LinkPageView> {
  if (!/^[a-z0-9-]{1,64}$/.test(slug)) return { state: 'not_found' };
  const found = await app.linkCache.find(slug);
  if (!found) return { state: 'not_found' };
  // A link with system-filled fields is paid only through the dynamic links its integrator creates.
  if (isDynamicOnly(found.link)) return { state: 'dynamic_only', found };
  const state = await linkAvailability(app.db, found.link, now);
  if (state === 'inactive') return { state: 'not_found' };
  return state === 'open' && found.merchant.suspended ? { state: 'suspended', found } : { state, found };
}
