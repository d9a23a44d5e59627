import { and, eq, gt, or } from 'drizzle-orm';
import { sha256Hex } from '../../crypto.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Integrator } from '../../db/schema.ts';
import { integrators, type RefundCapability } from '../../db/schema.ts';

export type { Integrator };

/** API tokens are stored only as their SHA-256: they are long random strings, so a fast hash is enough. */
export const hashToken = (token: string) => sha256Hex(`paylink-token:${token}`);

/**
 * The integrator a token belongs to: its current token, or the one a rotation replaced while
 * that one's overlap lasts. One query over the two unique indexes.
 */
export async function findIntegratorByToken(db: DbOrTx, token: string, now: Date = new Date()): Promise<Integrator | undefined> {
  if (token.length < 16 || token.length > 512) return undefined;
  const hash = hashToken(token);
  const [row] = await db
    .select()
    .from(integrators)
    .where(or(eq(integrators.tokenHash, hash), and(eq(integrators.previousTokenHash, hash), gt(integrators.previousTokenValidUntil, now))));
  return row;
}

export async function findIntegratorById(db: DbOrTx, id: string): Promise<Integrator | undefined> {
  const [row] = await db.select().from(integrators).where(eq(integrators.id, id));
  return row;
}

/** The integrator's refund capability for a card brand (default FULL and PARTIAL). */
export function refundCapabilityFor(integrator: Pick<Integrator, 'refundCapabilities'>, brand: string | null | undefined): RefundCapability {
  const caps = integrator.refundCapabilities ?? {};
  return caps[brand ?? ''] ?? caps.default ?? 'full_partial';
}
