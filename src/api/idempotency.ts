import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema.ts';

/**
 * Stored first responses for `Idempotency-Key`. A key is claimed before the work runs, so a
 * concurrent duplicate sees `running` (409, with the seconds its holder's lease has left)
 * instead of doing the work twice. The claim is a lease of LEASE_SECONDS that the live request
 * renews while it runs (`holdKey`); a claim left by a crashed process lapses within one lease
 * and may then be taken over.
 */
export type Claim =
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'mismatch' }
  | { kind: 'running'; retryAfterSeconds: number };

/** How long a claim holds without renewal: how long a retry waits after its holder crashed. */
export const LEASE_SECONDS = 10;
/** How often a live request renews its lease: three renewals per lease, so one slow write does not lose it. */
export const LEASE_RENEW_MS = (LEASE_SECONDS * 1000) / 3;

export async function claimKey(
  db: Db,
  opts: { scope: string; key: string; method: string; path: string; requestHash: string; now: Date; ttlSeconds: number; leaseSeconds?: number },
): Promise<Claim> {
  const lockedUntil = new Date(opts.now.getTime() + (opts.leaseSeconds ?? LEASE_SECONDS) * 1000);
  const expiresAt = new Date(opts.now.getTime() + opts.ttlSeconds * 1000);
  // Expired records no longer count: delete the one in the way, if any.
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, opts.scope), eq(idempotencyKeys.key, opts.key), lt(idempotencyKeys.expiresAt, opts.now)));
  const inserted = await db
    .insert(idempotencyKeys)
    .values({ scope: opts.scope, key: opts.key, method: opts.method, path: opts.path, requestHash: opts.requestHash, state: 'running', lockedUntil, expiresAt })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (inserted.length > 0) return { kind: 'claimed' };

  const [existing] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, opts.scope), eq(idempotencyKeys.key, opts.key)));
  if (!existing) return claimKey(db, opts); // deleted in between: try again
  if (existing.requestHash !== opts.requestHash || existing.method !== opts.method || existing.path !== opts.path) return { kind: 'mismatch' };
  if (existing.state === 'done') return { kind: 'replay', status: existing.responseStatus!, body: existing.responseBody! };
  // Running: take it over only if its holder's lock has lapsed (the holder crashed).
  const taken = await db
    .update(idempotencyKeys)
    .set({ lockedUntil })
    .where(
      and(
        eq(idempotencyKeys.scope, opts.scope),
        eq(idempotencyKeys.key, opts.key),
        eq(idempotencyKeys.state, 'running'),
        lt(idempotencyKeys.lockedUntil, opts.now),
      ),
    )
    .returning({ key: idempotencyKeys.key });
  if (taken.length > 0) return { kind: 'claimed' };
  const left = existing.lockedUntil ? existing.lockedUntil.getTime() - opts.now.getTime() : 0;
  return { kind: 'running', retryAfterSeconds: Math.max(1, Math.ceil(left / 1000)) };
}

/**
 * Keeps a claim while its request runs: the lease is pushed LEASE_SECONDS past `now()` every
 * LEASE_RENEW_MS until `release()`. A renewal that fails (the database briefly away) is tried
 * again at the next tick; the lease then lapses only if the process stops renewing.
 */
export function holdKey(db: Db, opts: { scope: string; key: string; now: () => Date; leaseSeconds?: number; renewMs?: number }): { release(): void } {
  const lease = (opts.leaseSeconds ?? LEASE_SECONDS) * 1000;
  const timer = setInterval(() => {
    db.update(idempotencyKeys)
      .set({ lockedUntil: new Date(opts.now().getTime() + lease) })
      .where(and(eq(idempotencyKeys.scope, opts.scope), eq(idempotencyKeys.key, opts.key), eq(idempotencyKeys.state, 'running')))
      .then(
        () => {},
        () => {},
      );
  }, opts.renewMs ?? LEASE_RENEW_MS);
  timer.unref();
  return { release: () => clearInterval(timer) };
}

export async function completeKey(db: Db, opts: { scope: string; key: string; status: number; body: string }): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ state: 'done', responseStatus: opts.status, responseBody: opts.body })
    .where(and(eq(idempotencyKeys.scope, opts.scope), eq(idempotencyKeys.key, opts.key)));
}

/** Forget a claim whose request failed unexpectedly, so the client can retry. */
export async function releaseKey(db: Db, opts: { scope: string; key: string }): Promise<void> {
  await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.scope, opts.scope), eq(idempotencyKeys.key, opts.key), eq(idempotencyKeys.state, 'running')));
}

export async function purgeExpiredKeys(db: Db, now: Date): Promise<number> {
  const rows = await db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, now)).returning({ key: idempotencyKeys.key });
  return rows.length;
}
