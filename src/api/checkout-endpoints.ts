import { authenticateLinkKey, createDynamicLink, requireLink } from '../domain/checkout/dynamic.ts';
import { payCheckout } from '../domain/checkout/pay.ts';
import type { LinkWithMerchant } from '../domain/links/service.ts';
import { dynamicLinkBodySchema } from '../schemas/dynamic-link.ts';
import { anyJsonObject, apiEndpoint } from './endpoint.ts';
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
    return new Response(JSON.stringify({ link: created.url }), {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    });
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
