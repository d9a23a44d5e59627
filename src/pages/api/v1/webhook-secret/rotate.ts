import { apiEndpoint, methodNotAllowed } from '../../../../api/endpoint.ts';
import { rotateWebhookSecret } from '../../../../domain/notifications/secrets.ts';

/**
 * POST /api/v1/webhook-secret/rotate: a new webhook secret, returned once. The old one keeps
 * signing for 24 h. Not idempotent-replayable: the secret is never stored outside the sealed column.
 */
export const POST = apiEndpoint({
  idempotent: false,
  whileSuspended: true,
  run: async ({ app, integrator }) => {
    const { secret, previousValidUntil } = await rotateWebhookSecret(app, integrator);
    app.log.info('webhook secret rotated', { integrator_id: integrator.id });
    return { code: 'OK.00.00', data: { webhook_secret: secret, previous_secret_valid_until: previousValidUntil.toISOString() } };
  },
});
export const ALL = methodNotAllowed(['POST']);
