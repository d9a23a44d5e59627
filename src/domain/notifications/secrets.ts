import { eq } from 'drizzle-orm';
import { type Integrator, integrators } from '../../db/schema.ts';
import { type Actor, recordAudit } from '../accounts/audit.ts';
import type { DomainContext } from '../context.ts';
import { newWebhookSecret } from '../integrators/provisioning.ts';
import { ROTATION_GRACE_MS } from './signing.ts';

/**
 * Rotates an integrator's webhook secret: a new `whsec_` secret signs from now on, and the one
 * it replaces keeps signing alongside it for 24 hours (two signatures in webhook-signature), so
 * the integrator can switch receivers over without dropping a message. A second rotation inside
 * the window retires the older secret at once: only one previous secret is kept.
 */
export async function rotateWebhookSecret(
  app: DomainContext,
  integrator: Pick<Integrator, 'id'>,
  /** Who rotated it from the console, for the audit log (the API's rotation is the integrator's own). */
  actor?: Actor,
): Promise<{ secret: string; previousValidUntil: Date }> {
  const integratorId = integrator.id;
  const secret = newWebhookSecret();
  const now = app.now();
  await app.db.transaction(async (tx) => {
    const [row] = await tx.select({ current: integrators.webhookSecretEnc }).from(integrators).where(eq(integrators.id, integratorId)).for('update');
    if (!row) throw new Error(`integrator ${integratorId} vanished`);
    await tx
      .update(integrators)
      .set({ previousWebhookSecretEnc: row.current, webhookSecretRotatedAt: now, webhookSecretEnc: app.secrets.seal(secret), updatedAt: now })
      .where(eq(integrators.id, integratorId));
    if (actor) await recordAudit(tx, actor, 'webhook_secret.rotated', null, now);
  });
  return { secret, previousValidUntil: new Date(now.getTime() + ROTATION_GRACE_MS) };
}
