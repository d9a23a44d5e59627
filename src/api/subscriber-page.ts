import type { PaylinkApp } from '../app.ts';
import { DomainError } from '../domain/errors.ts';
import { findIntegratorById } from '../domain/integrators/service.ts';
import { findActiveLink } from '../domain/links/service.ts';
import { formatMoney } from '../domain/money.ts';
import { openSubscriberToken, SUBSCRIBER_PATH, type Subscriber } from '../domain/subscriptions/access.ts';
import { type CardReplacement, cardReplacement, type SubscriberCardForm, subscriberCardForm } from '../domain/subscriptions/card-setup.ts';
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
  | {
      state: 'open';
      subscriber: Subscriber;
      token: string;
      merchant: string;
      view: SubscriberView;
      /** How a new card is given here (paylink's form, the acquirer's own, none). */
      cardForm: SubscriberCardForm;
      /** The acquirer's card form open for one subscription (`replace` and `setup` in the query). */
      replacing?: Extract<CardReplacement, { state: 'open' }> & { scheduleId: string; returnUrl: string };
      /** What opening that form found, said as a cancel's or a card's outcome is. */
      done?: PageDone;
    }
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
  'card_unavailable',
  'card_too_many',
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
  card_unavailable: 'ER.07.06',
  card_too_many: 'ER.03.25',
};

/** The page's outcome for a card form's refusal. */
export function cardRefusal(error: DomainError): PageDone {
  if (error.code === 'ER.11.30') return 'card_declined';
  if (error.code === 'ER.07.01') return 'not_yours';
  if (error.code === 'ER.07.06') return 'card_unavailable';
  if (error.code === 'ER.03.25') return 'card_too_many';
  return 'card_invalid';
}

/** Where the acquirer sends the customer back after its card form (it adds `setup_intent`). */
export const cardSetupReturnUrl = (app: PaylinkApp, query: { token: string; subscription: string; lang?: string | undefined }) =>
  `${app.origin()}${SUBSCRIBER_PATH}/card-setup/return?${new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined))}`;

/** The acquirer's card form the query asks for, or what stands in its way. */
async function replacementOf(app: PaylinkApp, who: Subscriber, token: string, url: URL) {
  const scheduleId = url.searchParams.get('replace')?.slice(0, 64);
  const setupId = url.searchParams.get('setup');
  if (!scheduleId || !setupId) return {};
  try {
    const found = await cardReplacement(app, who, scheduleId, setupId);
    if (found.state === 'saved') return { done: 'card_saved' as const };
    if (found.state === 'closed') return { done: 'card_declined' as const };
    const returnUrl = cardSetupReturnUrl(app, { token, subscription: scheduleId, lang: url.searchParams.get('lang') ?? undefined });
    return { replacing: { ...found, scheduleId, returnUrl } };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { done: cardRefusal(error) };
  }
}

export async function loadSubscriberPage(app: PaylinkApp, url: URL): Promise<SubscriberPage> {
  const token = url.searchParams.get('token');
  const opened = token ? openSubscriberToken(app, token) : undefined;
  if (opened?.ok) {
    const who = opened.subscriber;
    const merchant = await findIntegratorById(app.db, who.integratorId);
    // Before the view: a setup found succeeded puts its card on the subscription first.
    const replacement = await replacementOf(app, who, token!, url);
    const cardForm = await subscriberCardForm(app, who.integratorId);
    return { state: 'open', subscriber: who, token: token!, merchant: merchant?.name ?? '', view: await subscriberView(app, who), cardForm, ...replacement };
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
  const every = plan.every > 1 ? tr(`subs.every.${plan.interval}s`, { n: String(plan.every) }) : tr(`subs.every.${plan.interval}`);
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
