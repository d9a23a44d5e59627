import { readTextBody } from '../../../api/body.ts';
import { apiEndpoint, methodNotAllowed } from '../../../api/endpoint.ts';
import { receiveProviderWebhook } from '../../../domain/checkout/provider-webhook.ts';

/** Largest provider event read (PayMongo's events are a few KiB). */
const MAX_BODY = 256 * 1024;

/**
 * POST /webhooks/{provider}/{webhook id}: the acquirer's events for one integrator (the address
 * the console's Developers page shows). Verified with that integrator's webhook secret.
 */
export const POST = apiEndpoint({
  auth: 'none',
  idempotent: false,
  run: async ({ app, params, request }) => {
    const rawBody = await readTextBody(request, MAX_BODY);
    const outcome = await receiveProviderWebhook(app, { provider: params.provider ?? '', webhookId: params.id ?? '', rawBody, headers: request.headers });
    return { code: 'OK.00.00', data: { outcome } };
  },
});
export const ALL = methodNotAllowed(['POST']);
