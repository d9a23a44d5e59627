import type { APIContext } from 'astro';
import { z } from 'zod';
import { apiEndpoint, type EndpointResult } from '../../api/endpoint.ts';
import { authenticateLinkKey, createDynamicLink, requireLink } from '../../domain/checkout/dynamic.ts';
import { type PayOutcome, payCheckout } from '../../domain/checkout/pay.ts';
import type { LinkWithMerchant } from '../../domain/links/service.ts';
import { dynamicLinkBodySchema } from '../../schemas/dynamic-link.ts';

/** Route helpers shared by the payment pages (the `_` keeps this file out of routing). */

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

export function payResult(outcome: PayOutcome): EndpointResult {
  if (outcome.status === 'succeeded') {
    return { code: 'OK.03.00', data: { transaction_id: outcome.payment.id, redirect_url: outcome.receiptPath } };
  }
  const locked = outcome.attemptsLeft <= 0 ? ' This payment link is now locked after too many attempts; ask the merchant for a new one.' : '';
  return {
    code: 'ER.03.30',
    data: { transaction_id: outcome.payment.id, decline_code: outcome.code, attempts_left: outcome.attemptsLeft },
    messages: { card: [outcome.message + locked] },
  };
}

/** The browser's JSON card submission: any JSON object; the domain parses it with the form's schemas. */
const anyObject = z.looseObject({});

export const payBySessionToken = apiEndpoint({
  auth: 'none',
  browser: true,
  idempotent: false,
  body: anyObject,
  run: async ({ app, params, body, clientIp }) => payResult(await payCheckout(app, { token: params.token ?? '', input: body, clientIp })),
});

export const payStaticLink = apiEndpoint({
  auth: 'none',
  browser: true,
  idempotent: false,
  body: anyObject,
  run: async ({ app, params, body, clientIp }) => payResult(await payCheckout(app, { slug: params.slug ?? '', input: body, clientIp })),
});

export type RouteContext = APIContext;
