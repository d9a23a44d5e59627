import type { Db } from '../../db/client.ts';
import { KeptReads } from '../../db/kept-reads.ts';
import { findIntegratorByLinkKey, hashLinkKey, linkKeyOpens } from './link-keys.ts';
import { findIntegratorByToken, hashToken, type Integrator } from './service.ts';

/**
 * API tokens as every authenticated request looks them up, kept in memory: a request with a
 * known token costs no database round trip for its authentication (docs/refunds.md counts them).
 * Kept by the token's hash, never the token. A kept integrator is used only while the token still
 * opens it: its current token, or a replaced one before its overlap ends (checked on every use).
 *
 * Never stale for long (src/db/kept-reads.ts): a rotation or provisioning through this process
 * empties it at once (`changed`), any write to integrators in any process fires NOTIFY
 * paylink_links (migration 0012), which empties it wherever it is watched, and an entry is used
 * for 5 s at most. Unknown tokens are never kept.
 */
const TOKEN_TTL_MS = 5_000;
const MAX_TOKENS = 10_000;

export class TokenCache {
  private readonly kept: KeptReads<Integrator>;

  constructor(
    private readonly db: Db,
    clock?: () => number,
  ) {
    this.kept = new KeptReads(TOKEN_TTL_MS, MAX_TOKENS, clock);
  }

  /** The integrator `token` opens at `now` (as findIntegratorByToken), from memory when recently read. */
  find(token: string, now: Date): Promise<Integrator | undefined> {
    if (token.length < 16 || token.length > 512) return Promise.resolve(undefined);
    const hash = hashToken(token);
    return this.kept.get(
      hash,
      () => findIntegratorByToken(this.db, token, now),
      (integrator) =>
        integrator.tokenHash === hash ||
        (integrator.previousTokenHash === hash && integrator.previousTokenValidUntil !== null && integrator.previousTokenValidUntil > now),
    );
  }

  /**
   * The integrator a link key opens at `now` (src/domain/integrators/link-keys.ts), kept the same
   * way: link keys hash in a namespace of their own, so they share the memory without meeting a token.
   */
  findByLinkKey(key: string, now: Date): Promise<Integrator | undefined> {
    if (key.length < 16 || key.length > 512) return Promise.resolve(undefined);
    const hash = hashLinkKey(key);
    return this.kept.get(
      hash,
      () => findIntegratorByLinkKey(this.db, key, now),
      (integrator) => linkKeyOpens(integrator, hash, now),
    );
  }

  /** An integrator changed: forget every kept token. */
  changed(): void {
    this.kept.changed();
  }
}
