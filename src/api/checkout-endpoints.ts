import type { APIContext, APIRoute } from 'astro';
import type { PaylinkApp } from '../app.ts';
import { amountLocale } from '../domain/checkout/amount.ts';
import { authenticateLinkKey, createDynamicLink, requireLink } from '../domain/checkout/dynamic.ts';
import { startMethodAttempt } from '../domain/checkout/method-pay.ts';
import { checkoutStatus, returnFromProvider } from '../domain/checkout/method-status.ts';
import { submitCard } from '../domain/checkout/pay.ts';
import { startProviderAttempt } from '../domain/checkout/provider-pay.ts';
import { quoteSale } from '../domain/checkout/quote.ts';
import { saleFormInput } from '../domain/checkout/sale.ts';
import { DomainError, invalidFields } from '../domain/errors.ts';
import type { LinkWithMerchant } from '../domain/links/service.ts';
import { dynamicLinkBodySchema } from '../schemas/dynamic-link.ts';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '../schemas/text.ts';
import { MAX_JSON_BODY_BYTES, readTextBody } from './body.ts';
import { anyJsonObject, apiEndpoint, clientIpOf, ownOrigins } from './endpoint.ts';
import { jsonResponse } from './envelope.ts';
import { requestLocale } from './page-locale.ts';
import { methodStartTarget, presentCheckoutStatus, presentMethodStart, presentPayOutcome } from './presenters/checkout.ts';
import { assertSameOriginForm } from './same-origin.ts';

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
    presentPayOutcome(await submitCard(app, { token: params.token ?? '', input: body, clientIp, locale: requestLocale(request) })),
});

/** POST /pay/{slug}/pay: a static link's card submission. */
export const payStaticLink = apiEndpoint({
  auth: 'none',
  browser: true,
  idempotent: false,
  body: anyJsonObject,
  run: async ({ app, params, body, clientIp, request }) =>
    presentPayOutcome(await submitCard(app, { slug: params.slug ?? '', input: body, clientIp, locale: requestLocale(request) })),
});

/**
 * POST /pay/{slug}/quote and /checkout/{token}/quote: the page's running total for the customer's
 * quantities, tip and code (OK.00.00 `{sums, messages}`, worded in the page's language). JSON, or
 * the page's own form fields (same-origin checked) as its script sends them. Nothing is stored.
 */
const quoteRoute = (target: (params: APIContext['params']) => { slug?: string; token?: string }): APIRoute => {
  const quote = async (app: PaylinkApp, params: APIContext['params'], input: Record<string, unknown>, clientIp: string | undefined) => ({
    code: 'OK.00.00' as const,
    data: { ...(await quoteSale(app, { ...target(params), input, ...(clientIp ? { clientIp } : {}), locale: amountLocale(input.amount_locale) })) },
  });
  const json = apiEndpoint({
    auth: 'none',
    browser: true,
    idempotent: false,
    body: anyJsonObject,
    run: ({ app, params, body, clientIp }) => quote(app, params, body, clientIp),
  });
  const form = apiEndpoint({
    auth: 'none',
    idempotent: false,
    run: async ({ app, params, request, url, clientIp }) => {
      assertSameOriginForm(request, ownOrigins(app, url));
      const sent = new URLSearchParams(await readTextBody(request, MAX_JSON_BODY_BYTES));
      for (const [name, value] of sent) if (!isStorableText(name) || !isStorableText(value)) throw invalidFields({ '(request)': [UNSTORABLE_TEXT_MESSAGE] });
      return quote(app, params, formInput(sent), clientIp);
    },
  });
  return (context) => (/^application\/x-www-form-urlencoded\b/i.test(context.request.headers.get('content-type') ?? '') ? form(context) : json(context));
};

/** POST /pay/{slug}/quote. */
export const quoteStaticLink = quoteRoute((params) => ({ slug: params.slug ?? '' }));

/** POST /checkout/{token}/quote. */
export const quoteBySessionToken = quoteRoute((params) => ({ token: params.token ?? '' }));

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
            ...(started.mode ? { mode: started.mode } : {}),
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
 * GET /checkout/{token}/return: where the provider sends the customer back (after 3-D Secure, or
 * a wallet's, bank's or BillEase's authorisation page). The attempt is synced with the provider
 * and recorded when final (src/domain/checkout/method-pay.ts `returnFromProvider`); the customer
 * lands on the checkout page, which shows the receipt, the form again after a decline (with
 * `?payment=expired|cancelled|…` when a method's attempt ended without money), or "processing".
 */
export const providerReturn = apiEndpoint({
  auth: 'none',
  idempotent: false,
  run: async ({ app, params }) => seeOther(await returnFromProvider(app, params.token ?? '')),
});

const seeOther = (location: string) => new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });

/**
 * A no-script form's fields as the page's script sends them in JSON: `fields[<path>]` (or a bare
 * `customer.…` path) go into `fields`; `method`, `bank`, `amount`, `amount_locale` and `session`
 * as they are; what the page sells as saleFormInput reads it. Other names are ignored.
 */
export function formInput(form: URLSearchParams): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const fields: Record<string, string> = {};
  for (const [name, value] of form) {
    const field = /^fields\[([^\]]{1,100})\]$/.exec(name)?.[1] ?? (name.startsWith('customer.') ? name : undefined);
    if (field !== undefined) fields[field] = value;
    else if (['method', 'bank', 'amount', 'amount_locale', 'session'].includes(name)) input[name] = value;
  }
  // The sale's own fields, or the page's script's copy of them in `sale` (form-encoded text).
  const sale = form.get('sale');
  return { ...input, fields, ...saleFormInput(sale ? new URLSearchParams(sale) : form) };
}

/**
 * Where a refused form post sends the customer back: the payment page with what went wrong in
 * the query (`method_error` the catalogue code, `method` the method chosen, `field` each field
 * with a message), which the page shows in the customer's language.
 */
export function refusedFormTarget(page: string, error: unknown, method: unknown): string {
  const query = new URLSearchParams();
  query.set('method_error', error instanceof DomainError ? error.code : 'ER.99.00');
  if (typeof method === 'string' && /^[a-z_]{1,20}$/.test(method)) query.set('method', method);
  if (error instanceof DomainError && typeof error.messages === 'object') {
    for (const field of Object.keys(error.messages)) if (field !== '(request)' && field.length <= 100) query.append('field', field);
  }
  return `${page}?${query}`;
}

/**
 * POST /pay/{slug}/method and /checkout/{token}/method: starts a payment by QR Ph, an e-wallet,
 * online banking or BillEase. JSON from the page's script (same origin; the envelope:
 * OK.03.01 `{method, next_action_url | checkout_url}`, refusals with field messages), or a
 * no-script form post (same-origin checked; 303 to the authorisation page or the checkout page,
 * a refusal 303 back to the payment page, see refusedFormTarget).
 */
function methodStartRoute(
  target: (params: APIContext['params']) => { slug?: string; token?: string },
  page: (params: APIContext['params']) => string,
): APIRoute {
  const json = apiEndpoint({
    auth: 'none',
    browser: true,
    idempotent: false,
    body: anyJsonObject,
    run: async ({ app, params, body, clientIp, request }) =>
      presentMethodStart(await startMethodAttempt(app, { ...target(params), input: body, clientIp, locale: requestLocale(request) })),
  });
  return async (context) => {
    if (!/^application\/x-www-form-urlencoded\b/i.test(context.request.headers.get('content-type') ?? '')) return json(context);
    const app = context.locals.paylink;
    let input: Record<string, unknown> = {};
    try {
      assertSameOriginForm(context.request, ownOrigins(app, context.url));
      const sent = new URLSearchParams(await readTextBody(context.request, MAX_JSON_BODY_BYTES));
      // Text the database cannot store (a NUL) is refused like in a JSON body.
      for (const [name, value] of sent) if (!isStorableText(name) || !isStorableText(value)) throw invalidFields({ '(request)': [UNSTORABLE_TEXT_MESSAGE] });
      input = formInput(sent);
      const started = await startMethodAttempt(app, {
        ...target(context.params),
        input,
        clientIp: clientIpOf(context),
        locale: requestLocale(context.request),
      });
      return seeOther(methodStartTarget(started));
    } catch (error) {
      if (!(error instanceof DomainError))
        app.log.error('method start (form) failed', { requestId: context.locals.requestId, path: context.url.pathname, error });
      return seeOther(refusedFormTarget(page(context.params), error, input.method));
    }
  };
}

/** POST /checkout/{token}/method. */
export const startMethodBySessionToken = methodStartRoute(
  (params) => ({ token: params.token ?? '' }),
  (params) => `/checkout/${encodeURIComponent(params.token ?? '')}`,
);

/** POST /pay/{slug}/method. */
export const startMethodStaticLink = methodStartRoute(
  (params) => ({ slug: params.slug ?? '' }),
  (params) => `/pay/${encodeURIComponent(params.slug ?? '')}`,
);

const sessionNotFound = () =>
  new DomainError('ER.03.20', 'Checkout session not found', {
    messages: { '(request)': ['This payment page does not exist. Check the link you were sent.'] },
    say: 'refusal.not_found',
  });

/**
 * GET /checkout/{token}/status: where the checkout stands, for the page's poll (JSON, OK.00.00
 * `{status, method?, qr_content?, qr_expires_at?, receipt_url?, decline_code?}`). The acquirer is asked about
 * an attempt in flight at most every few seconds per session; a failed ask answers the stored state.
 */
export const checkoutStatusGet = apiEndpoint({
  auth: 'none',
  idempotent: false,
  run: async ({ app, params }) => {
    const status = await checkoutStatus(app, params.token ?? '');
    if (!status) throw sessionNotFound();
    return presentCheckoutStatus(status);
  },
});

/**
 * POST /checkout/{token}/status: the no-script "I have paid" button. Same-origin checked, syncs
 * like the poll, then 303 back to the checkout page (the receipt once paid). No body is read.
 */
export const checkoutStatusPost: APIRoute = async (context) => {
  const app = context.locals.paylink;
  const token = context.params.token ?? '';
  const page = `/checkout/${encodeURIComponent(token)}`;
  try {
    assertSameOriginForm(context.request, ownOrigins(app, context.url));
    await checkoutStatus(app, token);
    return seeOther(page);
  } catch (error) {
    if (!(error instanceof DomainError))
      app.log.error('checkout status (form) failed', { requestId: context.locals.requestId, path: context.url.pathname, error });
    return seeOther(refusedFormTarget(page, error, undefined));
  }
};
