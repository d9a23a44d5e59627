import type { Database, Db } from '../../db/client.ts';
import { KeptReads } from '../../db/kept-reads.ts';
import { findActiveLink, findLinkById, type LinkWithMerchant } from './service.ts';

/**
 * Links as the payment pages look them up on every view (active ones by slug for /pay/{slug}, any
 * by id for /checkout/{token}), kept in memory: a view of a link costs no database round trip. Only pages read through it; paying, the dynamic-link POST
 * and the console read the database, and paying checks the link again under its row lock.
 *
 * Never stale for long (src/db/kept-reads.ts): a write through this process (link editor,
 * provisioning) empties it at once (`changed`), a write anywhere fires NOTIFY paylink_links (a
 * trigger on links and integrators, migration 0012), which empties it in every process that
 * `watch`es, and an entry is used for `ttlMs` at most.
 */
export const LINK_CACHE_TTL_MS = 5_000;
/** Unknown slugs are not kept, so a scan of random addresses cannot grow it; links are few. */
const MAX_LINKS = 10_000;

export class LinkCache {
  private readonly kept: KeptReads<LinkWithMerchant>;

  constructor(
    private readonly db: Db,
    clock: () => number = () => performance.now(),
    ttlMs = LINK_CACHE_TTL_MS,
  ) {
    this.kept = new KeptReads(ttlMs, MAX_LINKS, clock);
  }

  /** The active link at `slug` (as findActiveLink), from memory when recently read. */
  find(slug: string): Promise<LinkWithMerchant | undefined> {
    return this.kept.get(`slug:${slug}`, () => findActiveLink(this.db, slug));
  }

  /** The link with `id`, active or not (as findLinkById), from memory when recently read. */
  findById(id: string): Promise<LinkWithMerchant | undefined> {
    return this.kept.get(`id:${id}`, () => findLinkById(this.db, id));
  }

  /** A link or merchant changed: forget every kept view. */
  changed(): void {
    this.kept.changed();
  }

  /** Empties on every change in any process (LISTEN paylink_links). Resolves to a stop function. */
  watch(database: Pick<Database, 'listen'>): Promise<() => Promise<void>> {
    return database.listen('paylink_links', () => this.changed());
  }
}
