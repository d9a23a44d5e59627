import type { PaylinkApp } from '../app.ts';
import { DomainError } from '../domain/errors.ts';
import { findIntegratorById } from '../domain/integrators/service.ts';
import { findActiveLink } from '../domain/links/service.ts';
import { formatMoney } from '../domain/money.ts';
import { openSubscriberToken, SUBSCRIBER_PATH, type Subscriber } from '../domain/subscriptions/access.ts';
import { type SubscriberSubscription, type SubscriberView, subscriberView } from '../domain/subscriptions/portal.ts';
import { intlLocale, type Locale, type Translate } from '../i18n/index.ts';
import { ownOrigins } from './endpoint.ts';
import { assertSameOrigin } from './same-origin.ts';

/**
 * What the customer's subscriptions page (src/pages/subscriptions/manage.astro) shows, read from
 * its query: `token` (the signed link), `done` (what a cancel or a request did, after its redirect)
 * and, without a token, `link` (a subscription link's slug: whose merchant to ask a link from).
 */
export type SubscriberPage =
  | { state: 'open'; subscriber: Subscriber; token: string; merchant: string; view: SubscriberView }
  | { state: 'ask'; merchant: string | undefined; askFor: { token?: string; link?: string }; invalid: boolean };

export const pageDone = [
  'cancelled_now',
  'cancels_at_end',
  'requested',
  'too_many',
  'not_yours',
  'bad_email',
  'card_saved',
  'card_declined',
  'card_invalid',
] as const;
export type PageDone = (typeof pageDone)[number];
/** The status code each outcome stands for, shown as the page's reference line. */
export const doneCode: Record<PageDone, string> = {
  cancelled_now: 'OK.07.00',
  cancels_at_end: 'OK.07.01',
  requested: 'OK.07.02',
  too_many: 'ER.07.02',
  not_yours: 'ER.07.01',
  bad_email: 'ER.02.30',
  card_saved: 'OK.07.03',
  card_declined: 'ER.11.30',
  card_invalid: 'ER.02.30',
};

export async function loadSubscriberPage(app: PaylinkApp, url: URL): Promise<SubscriberPage> {
  const token = url.searchParams.get('token');
  const opened = token ? openSubscriberToken(app, token) : undefined;
  if (opened?.ok) {
    const merchant = await findIntegratorById(app.db, opened.subscriber.integratorId);
    return { state: 'open', subscriber: opened.subscriber, token: token!, merchant: merchant?.name ?? '', view: await subscriberView(app, opened.subscriber) };
  }
  if (opened && opened.reason === 'expired') {
    const merchant = await findIntegratorById(app.db, opened.integratorId);
    return { state: 'ask', merchant: merchant?.name, askFor: { token: token! }, invalid: true };
  }
  const slug = url.searchParams.get('link');
  const link = slug ? await findActiveLink(app.db, slug) : undefined;
  if (link?.link.subscription) return { state: 'ask', merchant: link.merchant.name, askFor: { link: slug! }, invalid: false };
  return { state: 'ask', merchant: undefined, askFor: {}, invalid: token !== null };
}

export const pagePath = (query: Record<string, string | undefined>) => {
  const q = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
  return `${SUBSCRIBER_PATH}?${q}`;
};

/** Back to the subscriptions page after one of its forms: the page says what happened. */
export const backToPage = (query: Record<string, string | undefined>) =>
  new Response(null, { status: 303, headers: { location: pagePath(query), 'cache-control': 'no-store' } });

/**
 * One of the subscriptions page's plain form posts (cancel, replace card, ask a link): refused with
 * a 403 unless it comes from paylink's own origin, else its text fields (absent or a file: '') and
 * the page's language.
 */
export async function readSubscriberForm(
  app: PaylinkApp,
  request: Request,
  url: URL,
): Promise<Response | { text(name: string): string; lang: string | undefined }> {
  try {
    assertSameOrigin(request, ownOrigins(app, url));
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return new Response(error.message, { status: 403, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  const form = await request.formData().catch(() => new FormData());
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === 'string' ? v : '';
  };
  return { text, lang: url.searchParams.get('lang') ?? undefined };
}

/** "₱1,500.00 every month". */
export function planWords(s: SubscriberSubscription, tr: Translate, locale: Locale): string {
  const plan = s.link.subscription;
  const amount = formatMoney(s.schedule.amountMinor, s.schedule.currency, intlLocale(locale));
  if (!plan) return amount;
  const every =
    plan.interval === 'month' && plan.every > 1 ? tr('subs.every.months', { n: String(plan.every) }) : tr(`subs.every.${plan.interval}` as 'subs.every.week');
  return tr('subs.plan', { amount, every });
}

/** The subscription's state in words: active, ending on a date, paused, cancelled or completed. */
export function statusWords(s: SubscriberSubscription, tr: Translate, date: (d: Date) => string): string {
  const { schedule } = s;
  if (schedule.status === 'cancelled') return tr('subs.status.cancelled');
  if (schedule.status === 'suspended') return tr('subs.status.suspended');
  if (schedule.cancelAt) return tr('subs.status.ending', { date: date(schedule.cancelAt) });
  if (schedule.cyclesLeft === 0 && schedule.nextRunAt === null) return tr('subs.status.completed');
  return tr('subs.status.active');
}
