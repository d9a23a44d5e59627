import { authenticateLinkKey, createDynamicLink, requireLink } from '../domain/checkout/dynamic.ts';
import { payCheckout } from '../domain/checkout/pay.ts';
import { startProviderAttempt, syncProviderSession } from '../domain/checkout/provider-pay.ts';
import { checkoutPath, findSessionByToken } from '../domain/checkout/sessions.ts';
import type { LinkWithMerchant } from '../domain/links/service.ts';
import { dynamicLinkBodySchema } from '../schemas/dynamic-link.ts';
import { anyJsonObject, apiEndpoint } from './endpoint.ts';
import { jsonResponse } from './envelope.ts';
import { requestLocale } from './page-locale.ts';
import { presentPayOutcome } from './presenters/checkout.ts';

/**
 * The payment pages' JSON endpoints, shared by the routes under src/pages/pay and
 * src/pages/checkout: the dynamic link API (spec §4.4) and the card form's submissions.
 */

const linkOfRequest = new WeakMap<Request, LinkWithMerchant>();

/**
 * POST /pay/{slug}: spec §4.4, server to server (Content-Type optional, no Origin check).
 * Success is `{link}` (not the envelope); failures are envelopes.
 */
export const dynamicLinkPost = apiEndpoint({
  before: async ({ app, request, params }) => {
    linkOfRequest.set(request, await requireLink(app, params.slug ?? ''));
  },
  auth: (app, request, body) => authenticateLinkKey(app, linkOfRequest.get(request)!, body?.key),
  body: dynamicLinkBodySchema,
  run: async ({ app, request, body }) => {
    const created = await createDynamicLink(app, linkOfRequest.get(request)!, body);
    return jsonResponse(JSON.stringify({ link: created.url }), 200);
  },
});

/** POST /checkout/{token}/pay: the checkout form's card submission. */
export const payBySessionToken = apiEndpoint({
  auth: 'none',
  browser: true,
  idempotent: false,
  body: anyJsonObject,
  run: async ({ app, params, body, clientIp, request }) =>
    presentPayOutcome(await payCheckout(app, { token: params.token ?? '', input: body, clientIp, locale: requestLocale(request) })),
});

/** POST /pay/{slug}/pay: a static link's card submission. */
export const payStaticLink = apiEndpoint({
  auth: 'none',
  browser: true,
  idempotent: false,
  body: anyJsonObject,
  run: async ({ app, params, body, clientIp, request }) =>
    presentPayOutcome(await payCheckout(app, { slug: params.slug ?? '', input: body, clientIp, locale: requestLocale(request) })),
});

/** The answer to a provider attempt's start: what the browser needs to give the card to the provider. */
const presentProviderStart = (started: Awaited<ReturnType<typeof startProviderAttempt>>) =>
  'settled' in started
    ? { code: 'OK.00.00' as const, data: { redirect_url: started.receiptPath } }
    : 'nextActionUrl' in started
      ? { code: 'OK.00.00' as const, data: { next_action_url: started.nextActionUrl } }
      : {
          code: 'OK.00.00' as const,
          data: {
            provider_payment_id: started.providerPaymentId,
            client_key: started.clientKey,
            public_key: started.publicKey,
            api_base_url: started.apiBaseUrl,
            return_url: started.returnUrl,
          },
        };

/** POST /checkout/{token}/provider: starts a payment whose card the browser gives to the acquirer (PayMongo). */
export const startProviderBySessionToken = apiEndpoint({
  auth: 'none',
  browser: true,
  idempotent: false,
  body: anyJsonObject,
  run: async ({ app, params, body, clientIp }) => presentProviderStart(await startProviderAttempt(app, { token: params.token ?? '', input: body, clientIp })),
});

/** POST /pay/{slug}/provider: the same for a static link. */
export const startProviderStaticLink = apiEndpoint({
  auth: 'none',
  browser: true,
  idempotent: false,
  body: anyJsonObject,
  run: async ({ app, params, body, clientIp }) => presentProviderStart(await startProviderAttempt(app, { slug: params.slug ?? '', input: body, clientIp })),
});

/**
 * GET /checkout/{token}/return: where the provider sends the customer back (after 3-D Secure).
 * The attempt is synced with the provider and recorded when final; the customer lands on the
 * checkout page, which shows the receipt, the form again after a decline, or "processing".
 */
export const providerReturn = apiEndpoint({
  auth: 'none',
  idempotent: false,
  run: async ({ app, params }) => {
    const token = params.token ?? '';
    const session = await findSessionByToken(app.db, token);
    if (session) {
      try {
        // Right after 3-D Secure the provider may still say "processing": ask again for a few seconds.
        for (let i = 0; i < 6 && (await syncProviderSession(app, session))?.status === 'processing'; i++) await new Promise((r) => setTimeout(r, 500));
      } catch (error) {
        // The webhook or the reconciliation pass records it; the page says it is processing.
        app.log.warn('provider return: sync failed', { sessionId: session.id, error });
      }
    }
    return new Response(null, { status: 303, headers: { location: checkoutPath(token), 'cache-control': 'no-store' } });
  },
});
