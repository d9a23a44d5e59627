import type { APIContext } from 'astro';
import type { PaylinkApp } from '../app.ts';
import { acceptedBrands, providerCardForm } from '../domain/checkout/provider-pay.ts';
import { issueStaticTicket, loadCheckout } from '../domain/checkout/sessions.ts';
import { loadLinkPage } from '../domain/links/lifecycle.ts';
import { type PageContext, pageLocale } from './page-locale.ts';
import { pageKey, type RenderOnce } from './rendered-pages.ts';

/**
 * What the two payment pages are drawn from, worked out in one place for two callers: the page
 * route, which renders from it (src/pages/pay/[slug].astro, src/pages/checkout/[token].astro), and
 * the middleware, which answers a view from the kept rendering (src/api/rendered-pages.ts) before
 * the page runs at all (keptPaymentPage). Astro's page machinery (its render context, the Astro
 * global, the component call) cost ~75 µs of a ~400 µs view of /pay/{slug}, measured: for a view
 * whose rendering is kept, none of it is needed.
 */

/** /pay/{slug}: the link's state, the page's language, the card form and the kept rendering's key and ticket when the form shows. */
export async function payPageInputs(app: PaylinkApp, ctx: PageContext, slug: string) {
  const view = await loadLinkPage(app, slug, app.now());
  const locale = pageLocale(ctx, view.state === 'not_found' ? undefined : view.found.link.locale);
  if (view.state !== 'open') return { view, locale, provider: undefined, brands: undefined, form: undefined };
  const provider = await providerCardForm(app, view.found.link.integratorId, `/pay/${view.found.link.slug}/provider`);
  const brands = await acceptedBrands(app, view.found.link.integratorId);
  const form: RenderOnce = {
    pages: app.renderedPages,
    key: pageKey('/pay/{slug}', [view.found, provider, brands, locale, ctx.url.search]),
    ticket: issueStaticTicket(app, view.found.link.id),
  };
  return { view, locale, provider, brands, form };
}

/** /checkout/{token}: the session's state, the page's language, the card form and the kept rendering's key when the form shows. */
export async function checkoutPageInputs(app: PaylinkApp, ctx: PageContext, token: string, loaded?: Awaited<ReturnType<typeof loadCheckout>>) {
  const view = loaded ?? (await loadCheckout(app, token));
  const locale = pageLocale(ctx, view.state === 'not_found' ? undefined : view.link.link.locale);
  if (view.state !== 'open') return { view, locale, provider: undefined, brands: undefined, form: undefined };
  const provider = await providerCardForm(app, view.session.integratorId, `/checkout/${token}/provider`);
  const brands = await acceptedBrands(app, view.session.integratorId);
  const form: RenderOnce = {
    pages: app.renderedPages,
    key: pageKey('/checkout/{token}', [view.session, view.link, provider, brands, locale, ctx.url.search]),
    ticket: '',
  };
  return { view, locale, provider, brands, form };
}

/**
 * A GET of a payment page answered from its kept rendering, from the middleware; undefined when
 * the page must run (another route or method, a page that is not a form, a rendering not kept yet).
 * The checkout session it read is left in locals, so the page does not read it a second time.
 * The kept rendering carries the page's headers (no-store, Vary); a language cookie the query
 * asks for is set on the middleware's context as the page would.
 */
export async function keptPaymentPage(context: APIContext): Promise<Response | undefined> {
  if (context.request.method !== 'GET') return undefined;
  const app = context.locals.paylink;
  // The kept rendering already carries what the page adds to its own headers.
  const ctx = { url: context.url, request: context.request, cookies: context.cookies, response: { headers: new Headers() } };
  if (context.routePattern === '/pay/[slug]') {
    const { form } = await payPageInputs(app, ctx, context.params.slug ?? '');
    return form && app.renderedPages.find(form.key, form.ticket);
  }
  if (context.routePattern === '/checkout/[token]') {
    const token = context.params.token ?? '';
    const inputs = await checkoutPageInputs(app, ctx, token);
    context.locals.checkoutLoaded = { token, view: inputs.view };
    return inputs.form && app.renderedPages.find(inputs.form.key, '');
  }
  return undefined;
}
