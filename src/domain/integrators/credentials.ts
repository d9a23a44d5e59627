import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { type Integrator, integrators } from '../../db/schema.ts';
import { type Actor, recordAudit } from '../accounts/audit.ts';
import type { DomainContext } from '../context.ts';
import { invalidFields, theRow } from '../errors.ts';
import { linkKeyColumns, newLinkKey } from './link-keys.ts';
import { hashToken } from './service.ts';

/**
 * Rotating an integrator's API token and JWT secret (the console's Developers page). The new
 * value is returned once and stored only hashed (token) or sealed (secret). The value it
 * replaces keeps working for the chosen overlap, so an integrator can deploy the new one
 * without a failed request; only one previous value is kept, so a second rotation inside an
 * overlap retires the older one at once.
 */
export const ROTATION_OVERLAPS = {
  none: { seconds: 0, label: 'None: the old one stops now' },
  '1h': { seconds: 3600, label: '1 hour' },
  '24h': { seconds: 86_400, label: '24 hours' },
  '7d': { seconds: 7 * 86_400, label: '7 days' },
} as const;
export type RotationOverlap = keyof typeof ROTATION_OVERLAPS;

export function parseOverlap(value: string): RotationOverlap {
  if (Object.hasOwn(ROTATION_OVERLAPS, value)) return value as RotationOverlap;
  throw invalidFields({ overlap: [`must be one of ${Object.keys(ROTATION_OVERLAPS).join(', ')}`] });
}

export interface Rotated {
  value: string;
  /** Until when the replaced value still works; null when it stopped at once. */
  previousValidUntil: Date | null;
}

export const newApiToken = () => `pl_${randomBytes(32).toString('base64url')}`;
export const newJwtSecret = () => randomBytes(32).toString('base64url');

async function lockIntegrator(tx: DbOrTx, integratorId: string): Promise<Integrator> {
  return theRow(await tx.select().from(integrators).where(eq(integrators.id, integratorId)).for('update'), 'the integrator');
}

const until = (now: Date, overlap: RotationOverlap) => {
  const seconds = ROTATION_OVERLAPS[overlap].seconds;
  return seconds === 0 ? null : new Date(now.getTime() + seconds * 1000);
};

/**
 * One rotation: under the integrator's row lock, the new value's columns and (during an overlap)
 * the replaced value kept as "previous" with its end, audited in the same transaction.
 */
async function rotate(
  app: DomainContext,
  integratorId: string,
  overlap: RotationOverlap,
  actor: Actor,
  action: 'api_token.rotated' | 'jwt_secret.rotated' | 'link_key.rotated',
  columns: (current: Integrator, validUntil: Date | null) => Partial<typeof integrators.$inferInsert>,
): Promise<Date | null> {
  const now = app.now();
  const validUntil = until(now, overlap);
  await app.db.transaction(async (tx) => {
    const current = await lockIntegrator(tx, integratorId);
    await tx
      .update(integrators)
      .set({ ...columns(current, validUntil), updatedAt: now })
      .where(eq(integrators.id, integratorId));
    await recordAudit(tx, actor, action, `overlap ${overlap}`, now);
  });
  // This process stops taking a replaced token at once; the others on NOTIFY (src/domain/integrators/token-cache.ts).
  app.tokenCache.changed();
  return validUntil;
}

/** A new API token; the old one answers until the overlap ends (or never again with `none`). */
export async function rotateApiToken(app: DomainContext, integratorId: string, overlap: RotationOverlap, actor: Actor): Promise<Rotated> {
  const token = newApiToken();
  const previousValidUntil = await rotate(app, integratorId, overlap, actor, 'api_token.rotated', (current, validUntil) => ({
    tokenHash: hashToken(token),
    previousTokenHash: validUntil ? current.tokenHash : null,
    previousTokenValidUntil: validUntil,
  }));
  return { value: token, previousValidUntil };
}

/**
 * A new publishable link key; the old one still creates checkouts until the overlap ends. The
 * integrator's pages and apps that carry the old key keep working while they are redeployed.
 */
export async function rotateLinkKey(app: DomainContext, integratorId: string, overlap: RotationOverlap, actor: Actor): Promise<Rotated> {
  const key = newLinkKey();
  const previousValidUntil = await rotate(app, integratorId, overlap, actor, 'link_key.rotated', (current, validUntil) => ({
    ...linkKeyColumns(app, key),
    previousLinkKeyHash: validUntil && current.linkKeyHash ? current.linkKeyHash : null,
    previousLinkKeyValidUntil: validUntil && current.linkKeyHash ? validUntil : null,
  }));
  return { value: key, previousValidUntil };
}

/** A new HS256 secret for POST /schedule payloads; the old one verifies until the overlap ends. */
export async function rotateJwtSecret(app: DomainContext, integratorId: string, overlap: RotationOverlap, actor: Actor): Promise<Rotated> {
  const secret = newJwtSecret();
  const previousValidUntil = await rotate(app, integratorId, overlap, actor, 'jwt_secret.rotated', (current, validUntil) => ({
    secretEnc: app.secrets.seal(secret),
    previousSecretEnc: validUntil ? current.secretEnc : null,
    previousSecretValidUntil: validUntil,
  }));
  return { value: secret, previousValidUntil };
}

/** The secrets a schedule payload may be signed with now: the current one first, then the previous one during its overlap. */
export function schedulingSecrets(app: DomainContext, integrator: Integrator, now: Date): string[] {
  const secrets = [app.secrets.open(integrator.secretEnc)];
  if (integrator.previousSecretEnc && integrator.previousSecretValidUntil && integrator.previousSecretValidUntil > now) {
    secrets.push(app.secrets.open(integrator.previousSecretEnc));
  }
  return secrets;
}

/** What the Developers page shows about the credentials (never a value). */
export function credentialState(integrator: Integrator, now: Date) {
  const live = (d: Date | null) => (d && d > now ? d : null);
  return {
    previousTokenValidUntil: live(integrator.previousTokenValidUntil),
    previousLinkKeyValidUntil: live(integrator.previousLinkKeyValidUntil),
    previousSecretValidUntil: live(integrator.previousSecretValidUntil),
    webhookSecretRotatedAt: integrator.webhookSecretRotatedAt,
    defaultCallbackUrl: integrator.defaultCallbackUrl,
  };
}
