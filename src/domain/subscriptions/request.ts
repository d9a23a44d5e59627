import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Locale } from '../../i18n/index.ts';
import type { DomainContext } from '../context.ts';
import { DomainError } from '../errors.ts';
import { EMPTY_EMAIL_VIEW } from '../notifications/email/view.ts';
import { enqueueEvent } from '../notifications/outbox.ts';
import { hasSubscriptions } from './portal.ts';

/**
 * A customer asks for a new link to their subscriptions page by typing their e-mail. Limited per
 * client address and per e-mail (in this process), checked before anything is looked up; then the
 * caller answers at once, the same for an address with subscriptions and one without, and the
 * look-up and the e-mail happen after the answer (`sendSubscriberLink`), so neither the words nor
 * the time of the answer say whether the address is known. The e-mail carries no token in the
 * database: the mailer signs a fresh link when it sends it.
 */
export const SUBSCRIBER_LINK_EVENT = 'subscription.page_link' as const;
const PER_IP = { points: 10, duration: 3600 };
const PER_EMAIL = { points: 3, duration: 3600 };

const limiters = new WeakMap<object, { ip: RateLimiterMemory; email: RateLimiterMemory }>();
const limitersOf = (app: object) => {
  let found = limiters.get(app);
  if (!found) limiters.set(app, (found = { ip: new RateLimiterMemory(PER_IP), email: new RateLimiterMemory(PER_EMAIL) }));
  return found;
};

const tooMany = () =>
  new DomainError('ER.07.02', 'Too many requests for a subscriptions page link', {
    httpStatus: 429,
    messages: { email: ['Too many requests. Try again in an hour.'] },
  });

/** Counts the request; refuses it (ER.07.02) when this client or this e-mail asked too often. */
export async function admitSubscriberLinkRequest(app: DomainContext, clientIp: string, email: string): Promise<void> {
  const { ip, email: byEmail } = limitersOf(app);
  try {
    await ip.consume(clientIp);
    await byEmail.consume(email.toLowerCase());
  } catch (error) {
    if (error instanceof RateLimiterRes) throw tooMany();
    throw error;
  }
}

/**
 * After the answer: the e-mail with a page link, only when the address has subscriptions with the
 * merchant, in the language of the page the customer asked from (else the mailer's default).
 */
export async function sendSubscriberLink(app: DomainContext, integratorId: string, email: string, locale?: Locale): Promise<void> {
  try {
    if (!(await hasSubscriptions(app, integratorId, email))) return;
    await enqueueEvent(app.db, {
      integratorId,
      type: SUBSCRIBER_LINK_EVENT,
      data: {},
      callbackUrl: null,
      emailTo: email,
      emailView: { ...EMPTY_EMAIL_VIEW, locale: locale ?? null },
      now: app.now(),
    });
  } catch (error) {
    app.log.error('subscriptions page link: not sent', { error });
  }
}
