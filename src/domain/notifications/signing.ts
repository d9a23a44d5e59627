import { createHmac } from 'node:crypto';
import type { Integrator } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';

/**
 * Standard Webhooks 1.0 signatures: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed by
 * the bytes after `whsec_` (base64-decoded). Several signatures are space-separated, so during a
 * secret rotation a receiver holding either the old or the new secret verifies the message.
 */
export const SECRET_PREFIX = 'whsec_';
/** How long a rotated-out webhook secret keeps signing (alongside the new one). */
export const ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

export function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return Buffer.from(encoded, 'base64');
}

export function signatureFor(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The `webhook-signature` header value: one `v1,…` per secret, space-separated. */
export function signatureHeader(secrets: readonly string[], id: string, timestampSeconds: number, body: string): string {
  return secrets.map((secret) => signatureFor(secret, id, timestampSeconds, body)).join(' ');
}

/** The secrets an integrator's messages are signed with now: the current one, plus the previous one for 24 h after a rotation. */
export function signingSecrets(
  app: Pick<DomainContext, 'secrets'>,
  integrator: Pick<Integrator, 'webhookSecretEnc' | 'previousWebhookSecretEnc' | 'webhookSecretRotatedAt'>,
  now: Date,
): string[] {
  const secrets = [app.secrets.open(integrator.webhookSecretEnc)];
  if (
    integrator.previousWebhookSecretEnc &&
    integrator.webhookSecretRotatedAt &&
    now.getTime() - integrator.webhookSecretRotatedAt.getTime() < ROTATION_GRACE_MS
  ) {
    secrets.push(app.secrets.open(integrator.previousWebhookSecretEnc));
  }
  return secrets;
}
