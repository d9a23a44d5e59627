import type { APIRoute } from 'astro';
import { methodNotAllowed } from '../../api/endpoint.ts';

/**
 * Apple Pay's domain check: Apple reads this file on the payment pages' domain before Stripe's
 * Payment Element may offer Apple Pay there. The operator saves the file Stripe gives (its Dashboard,
 * payment method domains) and names it in PAYLINK_APPLE_PAY_DOMAIN_ASSOCIATION; without it the
 * address does not exist (docs/stripe.md, "Wallets"). The text only changes when the operator
 * replaces the file and restarts, so it may be cached for a day.
 */
export const GET: APIRoute = ({ locals }) => {
  const association = locals.paylink.config.applePayDomainAssociation;
  if (association === undefined)
    return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
  return new Response(association, {
    status: 200,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=86400', 'x-content-type-options': 'nosniff' },
  });
};

/** HEAD answers as GET without the body (Apple's check may ask it first); any other method: 405 in the envelope. */
export const HEAD = GET;
export const ALL = methodNotAllowed(['GET', 'HEAD']);
