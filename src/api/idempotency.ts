import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema.ts';

/**
 * Stored first responses for `Idempotency-Key`. A key is claimed before the work runs, so a
 * concurrent duplicate sees `running` (409) instead of doing the work twice. A claim left by a
 * crashed process expires after `lockSeconds` and may then be taken over.
 */
export type Claim = { kind: 'claimed' } | { kind: 'replay'; status: number; body: string } | { kind: 'mismatch' } | { kind: 'running' };

export async function claimKey(
  db: Db,
  opts: { scope: string; key: string; method: string; path: string; requestHash: string; now: Date; ttlSeconds: number; lockSeconds?: number },
): Promise<Claim> {
  const lockedUntil = new Date(opts.now.getTime() + (opts.lockSeconds ?? 60) * 1000);
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
  return taken.length > 0 ? { kind: 'claimed' } : { kind: 'running' };
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
