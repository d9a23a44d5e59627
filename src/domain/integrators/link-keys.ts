import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, or } from 'drizzle-orm';
import { sha256Hex } from '../../crypto.ts';
import type { DbOrTx } from '../../db/client.ts';
import { type Integrator, integrators } from '../../db/schema.ts';
import { LINK_KEY_PREFIX } from '../../schemas/link-key.ts';
import type { DomainContext } from '../context.ts';

/**
 * The publishable link key (docs/security.md, "Link keys"): what an integrator puts in a dynamic
 * link's `key`. It creates checkouts on the integrator's own links and nothing else; every
 * /api/v1 route refuses it (ER.01.30), so a key that leaks from a web page or a mobile app
 * cannot refund, list or change anything. The full API token is still taken as `key` for
 * clients written before link keys.
 *
 * Looked up by its SHA-256 like the token; kept sealed as well, because it is publishable and the
 * console shows it again. Issued with every new integrator, and to an existing one the first time
 * paylink needs it (a seed applied at start, the Developers page, GET /api/v1/integrator):
 * migrations run without the master key, so they cannot seal one.
 */

export { LINK_KEY_PREFIX };

export const newLinkKey = () => `${LINK_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;

/** Link keys are long random strings: a fast hash is enough, in a namespace of their own. */
export const hashLinkKey = (key: string) => sha256Hex(`paylink-link-key:${key}`);

/** A value written like a link key (whether or not any integrator has it). */
export const isLinkKeyShaped = (value: string) => value.startsWith(LINK_KEY_PREFIX);

/** Fingerprint of a seed's link key last applied, so a console rotation survives a restart. */
const linkKeySeedSha256 = (key: string) => sha256Hex(`paylink-link-key-seed:${key}`);

/** The integrator a link key opens at `now`: its current key, or the one a rotation replaced while that one's overlap lasts. */
export async function findIntegratorByLinkKey(db: DbOrTx, key: string, now: Date): Promise<Integrator | undefined> {
  if (key.length < 16 || key.length > 512) return undefined;
  const hash = hashLinkKey(key);
  const [row] = await db
    .select()
    .from(integrators)
    .where(or(eq(integrators.linkKeyHash, hash), and(eq(integrators.previousLinkKeyHash, hash), gt(integrators.previousLinkKeyValidUntil, now))));
  return row;
}

/** Whether `integrator` (as kept in memory) is still opened by the link key whose hash is `hash`. */
export const linkKeyOpens = (integrator: Integrator, hash: string, now: Date) =>
  integrator.linkKeyHash === hash ||
  (integrator.previousLinkKeyHash === hash && integrator.previousLinkKeyValidUntil !== null && integrator.previousLinkKeyValidUntil > now);

/** The columns that make `key` an integrator's current link key. */
export const linkKeyColumns = (app: DomainContext, key: string) => ({ linkKeyHash: hashLinkKey(key), linkKeyEnc: app.secrets.seal(key) });

/**
 * The integrator's link key, issued now when it has none yet (an integrator made before link
 * keys). Under the row lock, so two first reads issue one key, not two.
 */
export async function ensureLinkKey(app: DomainContext, integratorId: string): Promise<string> {
  const issued = await app.db.transaction(async (tx) => {
    const [row] = await tx.select().from(integrators).where(eq(integrators.id, integratorId)).for('update');
    if (!row) throw new Error(`integrator ${integratorId} does not exist`);
    if (row.linkKeyEnc) return { key: app.secrets.open(row.linkKeyEnc), changed: false };
    const key = newLinkKey();
    await tx.update(integrators).set(linkKeyColumns(app, key)).where(eq(integrators.id, integratorId));
    return { key, changed: true };
  });
  if (issued.changed) app.tokenCache.changed();
  return issued.key;
}

/** The integrator's link key to show (it is publishable): from the row when it has one, else issued now. */
export const linkKeyFor = (app: DomainContext, integrator: Pick<Integrator, 'id' | 'linkKeyEnc'>): Promise<string> =>
  integrator.linkKeyEnc ? Promise.resolve(app.secrets.open(integrator.linkKeyEnc)) : ensureLinkKey(app, integrator.id);

/**
 * A seed applied at start: its `link_key`, when it names one and that value changed since it was
 * last applied (a key rotated in the console survives restarts with the same seed); otherwise a
 * new key for an integrator that has none. In the seed's own transaction.
 */
export async function applySeedLinkKey(app: DomainContext, tx: DbOrTx, integratorId: string, seedKey: string | undefined): Promise<void> {
  if (seedKey) {
    const fingerprint = linkKeySeedSha256(seedKey);
    const [row] = await tx.select().from(integrators).where(eq(integrators.id, integratorId));
    if (!row || row.linkKeySeedSha256 === fingerprint) return;
    const update: Partial<typeof integrators.$inferInsert> = { linkKeySeedSha256: fingerprint };
    if (row.linkKeyHash !== hashLinkKey(seedKey))
      Object.assign(update, linkKeyColumns(app, seedKey), { previousLinkKeyHash: null, previousLinkKeyValidUntil: null });
    await tx.update(integrators).set(update).where(eq(integrators.id, integratorId));
    return;
  }
  await tx
    .update(integrators)
    .set(linkKeyColumns(app, newLinkKey()))
    .where(and(eq(integrators.id, integratorId), isNull(integrators.linkKeyHash)));
}
