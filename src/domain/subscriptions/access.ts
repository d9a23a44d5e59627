import type { DomainContext } from '../context.ts';

/**
 * The customer's key to their subscriptions page: no account, no password. A link names the
 * merchant and the customer's e-mail and carries an HMAC under a key derived for this one purpose
 * (src/crypto.ts), so it cannot be made or changed without the master key, and it expires.
 * Every subscription e-mail carries a fresh one; a customer without one asks for a new link by
 * e-mail (./request.ts), so only the owner of the address can open the page.
 */
export const SUBSCRIBER_LINK_SECONDS = 7 * 24 * 3600;
export const SUBSCRIBER_PATH = '/subscriptions/manage';

export interface Subscriber {
  integratorId: string;
  /** Lower case: addresses are compared without case. */
  email: string;
  expiresAt: Date;
}

const payloadOf = (integratorId: string, email: string, exp: number) =>
  Buffer.from(JSON.stringify({ v: 1, i: integratorId, e: email.toLowerCase(), x: exp })).toString('base64url');

export function subscriberToken(app: Pick<DomainContext, 'subscriberMac' | 'now'>, integratorId: string, email: string): string {
  const exp = Math.floor(app.now().getTime() / 1000) + SUBSCRIBER_LINK_SECONDS;
  const payload = payloadOf(integratorId, email, exp);
  return `${payload}.${app.subscriberMac.sign(`subscriber/v1|${payload}`)}`;
}

export const subscriberUrl = (app: Pick<DomainContext, 'subscriberMac' | 'now' | 'origin'>, integratorId: string, email: string) =>
  `${app.origin()}${SUBSCRIBER_PATH}?token=${subscriberToken(app, integratorId, email)}`;

/** The subscriber a token names, or why not: `invalid` (made up, changed, cut) or `expired`. */
export function openSubscriberToken(
  app: Pick<DomainContext, 'subscriberMac' | 'now'>,
  token: unknown,
): { ok: true; subscriber: Subscriber } | { ok: false; reason: 'invalid' } | { ok: false; reason: 'expired'; integratorId: string } {
  if (typeof token !== 'string' || token.length > 1000) return { ok: false, reason: 'invalid' };
  const [payload, mac, extra] = token.split('.');
  if (!payload || !mac || extra !== undefined || !app.subscriberMac.verify(`subscriber/v1|${payload}`, mac)) return { ok: false, reason: 'invalid' };
  let body: { v?: unknown; i?: unknown; e?: unknown; x?: unknown };
  try {
    body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (body.v !== 1 || typeof body.i !== 'string' || typeof body.e !== 'string' || typeof body.x !== 'number') return { ok: false, reason: 'invalid' };
  // Expired, it still names the merchant, so the page can offer to e-mail a new link.
  if (body.x * 1000 <= app.now().getTime()) return { ok: false, reason: 'expired', integratorId: body.i };
  return { ok: true, subscriber: { integratorId: body.i, email: body.e, expiresAt: new Date(body.x * 1000) } };
}
