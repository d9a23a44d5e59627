import type { Database, Db } from '../../db/client.ts';
import { KeptReads } from '../../db/kept-reads.ts';
import { type CheckoutSession, findSessionByToken } from './sessions.ts';

/**
 * Checkout sessions as the checkout page (`/checkout/{token}`) looks them up on every view, kept in
 * memory on embedded PGlite: a reload costs no database statement. Paying and the card endpoints
 * read the database.
 *
 * Only on PGlite, because there it is exact: one process owns the database, every write goes through
 * it, and PGlite hands the NOTIFY of a committed change (migration 0020: any UPDATE or DELETE of
 * checkout_sessions) to the listener while it returns the COMMIT, before the writer goes on. A customer
 * who pays and reloads therefore never sees the form again. On PostgreSQL the notice travels over
 * another connection and can arrive after the reload that follows a payment made in another process,
 * so there every view reads the session (one indexed statement, cheap on a server). An entry is used
 * for `ttlMs` at most, and a read that started before a change is not kept (src/db/kept-reads.ts).
 */
export const SESSION_CACHE_TTL_MS = 5_000;
/** Sessions viewed in the last few seconds; unknown tokens are never kept. */
const MAX_SESSIONS = 10_000;

export class SessionCache {
  private kept: KeptReads<CheckoutSession> | undefined;

  constructor(
    private readonly db: Db,
    opts: { keep: boolean; clock?: () => number; ttlMs?: number },
  ) {
    this.kept = opts.keep ? new KeptReads(opts.ttlMs ?? SESSION_CACHE_TTL_MS, MAX_SESSIONS, opts.clock) : undefined;
  }

  /** The session with `token` (as findSessionByToken), from memory when kept. */
  find(token: string): Promise<CheckoutSession | undefined> {
    if (!this.kept) return findSessionByToken(this.db, token);
    return this.kept.get(token, () => findSessionByToken(this.db, token));
  }

  /** A session changed: forget every kept one. */
  changed(): void {
    this.kept?.changed();
  }

  /**
   * Empties on every change (LISTEN paylink_sessions); nothing to watch when nothing is kept. If the
   * database refuses to listen, nothing is kept from then on: every view reads the session.
   */
  async watch(database: Pick<Database, 'listen'>): Promise<() => Promise<void>> {
    if (!this.kept) return async () => {};
    try {
      return await database.listen('paylink_sessions', () => this.changed());
    } catch {
      this.kept = undefined;
      return async () => {};
    }
  }
}
