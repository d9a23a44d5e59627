import { apiEndpoint, methodNotAllowed } from '../../../api/endpoint.ts';
import { receiveProviderWebhook } from '../../../domain/checkout/provider-pay.ts';
import { DomainError } from '../../../domain/errors.ts';

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
    const declared = Number(request.headers.get('content-length') ?? '0');
    if (declared > MAX_BODY) throw new DomainError('ER.02.33', 'Request body too large', { messages: { '(body)': [`must be at most ${MAX_BODY} bytes`] } });
    const rawBody = await request.text();
    if (rawBody.length > MAX_BODY)
      throw new DomainError('ER.02.33', 'Request body too large', { messages: { '(body)': [`must be at most ${MAX_BODY} bytes`] } });
    const outcome = await receiveProviderWebhook(app, { provider: params.provider ?? '', webhookId: params.id ?? '', rawBody, headers: request.headers });
    return { code: 'OK.00.00', data: { outcome } };
  },
});
export const ALL = methodNotAllowed(['POST']);
