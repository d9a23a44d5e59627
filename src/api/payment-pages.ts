import type { APIContext } from 'astro';
import type { PaylinkApp } from '../app.ts';
import type { CheckoutSession, Link } from '../db/schema.ts';
import { chosenMethod, pageMethods } from '../domain/checkout/page-methods.ts';
import { providerCardForm } from '../domain/checkout/provider-pay.ts';
import { type CheckoutView, issueStaticTicket, loadCheckout } from '../domain/checkout/sessions.ts';
import { acquirerMisfits, type LinkAcquirer, type LinkMoney } from '../domain/links/acquirer-fit.ts';
import { type LinkPageView, loadLinkPage } from '../domain/links/lifecycle.ts';
import { isTrialLink, takesTrials } from '../domain/links/subscription.ts';
import type { Locale } from '../i18n/index.ts';
import { pageKey, type RenderOnce } from './page-cache.ts';
import { type PageContext, pageLocale } from './page-locale.ts';

/**
 * What the two payment pages are drawn from, worked out in one place for two callers: the page
 * route, which renders from it (src/pages/pay/[slug].astro, src/pages/checkout/[token].astro), and
 * the middleware, which answers a view from the kept rendering (src/api/page-cache.ts) before
 * the page runs at all (keptPaymentPage). Astro's page machinery (its render context, the Astro
 * global, the component call) is a good part of a view's cost (docs/architecture.md, "Measurements
 * behind the code"): for a view whose rendering is kept, none of it is needed.
 */

/**
 * What the middleware read for a page it could not answer (its rendering not kept, or not a form),
 * handed to the page so that the page does not read it again: an unknown slug or an expired link
 * would otherwise cost two reads of the database per view.
 */
export type LoadedPaymentPage = { route: '/pay/[slug]'; param: string; view: LinkPageView } | { route: '/checkout/[token]'; param: string; view: CheckoutView };

const loadedFor = <R extends LoadedPaymentPage['route']>(locals: App.Locals, route: R, param: string) => {
  const loaded = locals.paymentPageLoaded;
  return loaded?.route === route && loaded.param === param ? (loaded.view as Extract<LoadedPaymentPage, { route: R }>['view']) : undefined;
};

/** A page that shows no form (not open, or not payable with the merchant's acquirer): its state and language only. */
const withoutForm = <V>(view: V, locale: Locale) => ({
  view,
  locale,
  provider: undefined,
  brands: undefined,
  methods: undefined,
  chosen: undefined,
  form: undefined,
});

/** /pay/{slug}: the link's state, the page's language, the card form and the kept rendering's key and ticket when the form shows. */
export async function payPageInputs(app: PaylinkApp, ctx: PageContext & { locals: App.Locals }, slug: string) {
  const view = loadedFor(ctx.locals, '/pay/[slug]', slug) ?? (await loadLinkPage(app, slug, app.now()));
  const locale = pageLocale(ctx, view.state === 'not_found' ? undefined : view.found.link.locale);
  if (view.state !== 'open') return withoutForm(view, locale);
  const connector = await app.connectors.forIntegrator(view.found.link.integratorId);
  if (!acquirerTakes(connector, view.found.link) || !trialTaken(connector, view.found.link))
    return withoutForm({ state: 'not_accepted' as const, found: view.found }, locale);
  const provider = providerCardForm(connector, `/pay/${view.found.link.slug}/provider`, view.found.link.currency);
  const brands = connector.capabilities.cardBrands;
  const methods = pageMethods(view.found, connector, view.found.link.currency);
  const chosen = chosenMethod(methods, ctx.url.searchParams.get('method'));
  const form: RenderOnce = {
    pages: app.pageCache,
    key: pageKey('/pay/{slug}', [view.found, provider, brands, methods.map((m) => m.method).join(), locale, ctx.url.search]),
    ticket: issueStaticTicket(app, view.found.link.id),
  };
  return { view, locale, provider, brands, methods, chosen, form };
}

/** /checkout/{token}: the session's state, the page's language, the card form and the kept rendering's key when the form shows. */
export async function checkoutPageInputs(app: PaylinkApp, ctx: PageContext & { locals: App.Locals }, token: string) {
  const view = loadedFor(ctx.locals, '/checkout/[token]', token) ?? (await loadCheckout(app, token));
  const locale = pageLocale(ctx, view.state === 'not_found' ? undefined : view.link.link.locale);
  if (view.state !== 'open') return withoutForm(view, locale);
  const connector = await app.connectors.forIntegrator(view.session.integratorId);
  if (!acquirerTakes(connector, sessionMoney(view.session, view.link.link)) || !trialTaken(connector, view.link.link)) {
    return withoutForm({ state: 'not_accepted' as const, session: view.session, link: view.link }, locale);
  }
  const provider = providerCardForm(connector, `/checkout/${token}/provider`, view.session.currency);
  const brands = connector.capabilities.cardBrands;
  const methods = pageMethods(view.link, connector, view.session.currency);
  // Coming back from a method's page without paying opens the page on that method again.
  const chosen = chosenMethod(methods, ctx.url.searchParams.get('method') ?? view.session.providerAttempt?.method ?? null);
  // A QR code's page counts its time down from the moment it is drawn: never kept for later views.
  const form: RenderOnce | undefined = view.session.providerAttempt?.qr
    ? undefined
    : {
        pages: app.pageCache,
        key: pageKey('/checkout/{token}', [view.session, view.link, provider, brands, methods.map((m) => m.method).join(), locale, ctx.url.search]),
        ticket: '',
      };
  return { view, locale, provider, brands, methods, chosen, form };
}

/**
 * A payment page's state, as its page names it: a link's (/pay), a checkout's (/checkout), a card
 * registration's (/register), and `unavailable` when the page cannot be prepared for a reason not
 * the customer's (a card setup the acquirer did not answer).
 */
export type PaymentPageState =
  | 'open'
  | 'paid'
  | 'trial'
  | 'completed'
  | 'not_found'
  | 'dynamic_only'
  | 'expired'
  | 'used_up'
  | 'locked'
  | 'not_accepted'
  | 'suspended'
  | 'unavailable';

/** One answer for every payment page: the same state is the same status wherever it shows. */
const PAGE_STATUS: Record<PaymentPageState, number> = {
  open: 200,
  paid: 200,
  trial: 200,
  completed: 200,
  not_found: 404,
  dynamic_only: 404,
  expired: 410,
  used_up: 410,
  not_accepted: 409,
  // As the API answers the merchant's own credentials (ER.01.40): refused, and not the customer's doing.
  suspended: 403,
  locked: 429,
  unavailable: 503,
};

/** The HTTP status of a payment page (/pay, /checkout, /register) showing `state`. */
export const paymentPageStatus = (state: PaymentPageState): number => PAGE_STATUS[state];

/**
 * Whether the merchant's acquirer, as it is now, takes the money the page asks for: a link made before
 * the merchant changed acquirer may not fit it (src/domain/links/acquirer-fit.ts), and its page then
 * says so instead of showing a form that cannot be paid. A checkout's own currency and amount count,
 * and the link's bounds only in the link's currency. A minimum below the acquirer's leaves the link
 * payable (the customer is told the acquirer's).
 */
function acquirerTakes(acquirer: LinkAcquirer, money: LinkMoney): boolean {
  const { minAmount: _, ...misfits } = acquirerMisfits(acquirer, money);
  return Object.keys(misfits).length === 0;
}

/** A free trial's link on an acquirer that cannot keep a card uncharged (its merchant changed acquirer since): not payable. */
const trialTaken = (acquirer: LinkAcquirer, link: Link) => !isTrialLink(link) || takesTrials(acquirer);

const sessionMoney = (session: CheckoutSession, link: Link): LinkMoney => {
  const sameCurrency = session.currency === link.currency;
  return {
    currency: session.currency,
    amountMinor: session.amountMinor,
    minAmountMinor: sameCurrency ? link.minAmountMinor : null,
    maxAmountMinor: sameCurrency ? link.maxAmountMinor : null,
  };
};

/**
 * A GET of a payment page answered from its kept rendering, from the middleware; undefined when
 * the page must run (another route or method, a page that is not a form, a rendering not kept yet).
 * What it read is then left in locals for the page (LoadedPaymentPage). The kept rendering carries
 * the page's headers (no-store, Vary); a language cookie the query asks for is set on the
 * middleware's context as the page would.
 */
export async function keptPaymentPage(context: APIContext): Promise<Response | undefined> {
  const route = context.routePattern;
  if (context.request.method !== 'GET' || (route !== '/pay/[slug]' && route !== '/checkout/[token]')) return undefined;
  const app = context.locals.paylink;
  // The kept rendering already carries what the page adds to its own headers.
  const ctx = { url: context.url, request: context.request, cookies: context.cookies, response: { headers: new Headers() }, locals: context.locals };
  const param = (route === '/pay/[slug]' ? context.params.slug : context.params.token) ?? '';
  const { view, form } = route === '/pay/[slug]' ? await payPageInputs(app, ctx, param) : await checkoutPageInputs(app, ctx, param);
  const kept = form && app.pageCache.find(form.key, form.ticket);
  if (!kept) context.locals.paymentPageLoaded = { route, param, view } as LoadedPaymentPage;
  return kept;
}
