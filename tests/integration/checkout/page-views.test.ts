import type { APIContext } from 'astro';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageCache, pageKey, TICKET_PLACEHOLDER } from '../../../src/api/page-cache.ts';
import { keptPaymentPage } from '../../../src/api/payment-pages.ts';
import { links } from '../../../src/db/schema.ts';
import { LinkCache } from '../../../src/domain/links/link-cache.ts';
import { call, createTestApp, provision, startTestServer, TEST_TOKEN, type TestApp } from '../../support/app.ts';
import { CARD_EXPIRY } from '../../support/cards.ts';

/**
 * Payment pages cost no database round trip and no rendering on a repeated view: the link comes
 * from memory (src/domain/links/link-cache.ts) and the markup is rendered once per link version
 * (src/api/page-cache.ts). What must hold: every view gets its own working ticket, and a change
 * to the link shows at once — made through the API, or by any process (NOTIFY).
 */
let t: TestApp;
let server: { url: string; close(): Promise<void> };

beforeAll(async () => {
  t = await createTestApp();
  await provision(t);
  server = await startTestServer(t.app);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

async function page(path: string) {
  const res = await fetch(server.url + path);
  return { status: res.status, headers: res.headers, html: await res.text() };
}
const ticketOf = (html: string) => /&quot;session&quot;:\[0,&quot;([A-Za-z0-9_-]{43}\.\d+\.[A-Za-z0-9_-]{43})&quot;\]/.exec(html)?.[1];
const customer = { 'customer.first_name': 'Ana', 'customer.last_name': 'Reyes', 'customer.contact.email': 'ana@example.com' };
const pay = (slug: string, session: string) =>
  call(server.url, 'POST', `/pay/${slug}/pay`, {
    token: null,
    body: { session, fields: customer, card: { number: '4242424242424242', expiry: CARD_EXPIRY, cvc: '123', name: 'Ana Reyes' } },
  });
async function waitFor(check: () => Promise<boolean>, ms = 2_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

describe('payment page rendered once per link version', () => {
  it('gives every view its own ticket in the same markup and headers, and each ticket pays', async () => {
    const first = await page('/pay/acme-books');
    const second = await page('/pay/acme-books');
    const [a, b] = [ticketOf(first.html), ticketOf(second.html)];
    expect(a).toMatch(/\./);
    expect(b).toMatch(/\./);
    expect(a).not.toBe(b);
    expect(second.html.replace(b!, a!) === first.html).toBe(true);
    expect(second.html.includes(TICKET_PLACEHOLDER)).toBe(false);
    expect(second.headers.get('content-security-policy')).toBe(first.headers.get('content-security-policy'));
    expect(second.headers.get('content-security-policy')).toContain("script-src 'self' 'sha256-");
    expect(second.headers.get('cache-control')).toBe('no-store');
    const [paidA, paidB] = [await pay('acme-books', a!), await pay('acme-books', b!)];
    expect(paidA.json.data.status_code).toBe('OK.03.00');
    expect(paidB.json.data.status_code).toBe('OK.03.00');
    expect(paidA.json.data.transaction_id).not.toBe(paidB.json.data.transaction_id);
  });

  it('shows a change made through the links API on the very next view', async () => {
    expect((await page('/pay/acme-books')).html).not.toContain('Second edition');
    const res = await call(server.url, 'PATCH', '/api/v1/links/acme-books', { token: TEST_TOKEN, body: { title: 'Second edition' } });
    expect(res.status).toBe(200);
    expect((await page('/pay/acme-books')).html).toContain('Second edition');
    const off = await call(server.url, 'PATCH', '/api/v1/links/acme-books', { token: TEST_TOKEN, body: { active: false } });
    expect(off.status).toBe(200);
    expect((await page('/pay/acme-books')).status).toBe(404);
    await call(server.url, 'PATCH', '/api/v1/links/acme-books', { token: TEST_TOKEN, body: { active: true } });
    expect((await page('/pay/acme-books')).status).toBe(200);
  });

  it('shows a change written by another process (any SQL write to links) well before the kept view would expire', async () => {
    expect((await page('/pay/acme-books')).html).not.toContain('Third edition');
    const kept = await t.app.linkCache.find('acme-books');
    expect(await t.app.linkCache.find('acme-books')).toBe(kept);
    await t.app.db.update(links).set({ title: 'Third edition' }).where(eq(links.slug, 'acme-books'));
    expect(await waitFor(async () => (await page('/pay/acme-books')).html.includes('Third edition'), 2_000)).toBe(true);
  });

  it('keeps at most a fixed number of renderings, dropping the least recently used', () => {
    const pages = new PageCache(2);
    const rendered = (body: string) => ({ body, status: 200, headers: [] as [string, string][] });
    pages.keep('a', rendered('A'), 't');
    pages.keep('b', rendered('B'), 't');
    expect(pages.find('a', 't')).toBeInstanceOf(Response);
    pages.keep('c', rendered('C'), 't');
    expect(pages.size).toBe(2);
    expect(pages.find('b', 't')).toBeUndefined();
    expect(pages.find('a', 't')).toBeInstanceOf(Response);
  });

  it('fills every place the ticket goes, in the first view and each later one, with the text around it intact', async () => {
    const pages = new PageCache();
    const body = `<p>₱250.00 — Zoë</p><input value="${TICKET_PLACEHOLDER}"><a href="/x?t=${TICKET_PLACEHOLDER}">ü</a>`;
    const first = pages.keep('k', { body, status: 201, headers: [['x-kept', 'yes']] }, 'tkt_1');
    expect(await first.text()).toBe('<p>₱250.00 — Zoë</p><input value="tkt_1"><a href="/x?t=tkt_1">ü</a>');
    const later = pages.find('k', 'tkt_2')!;
    expect(later.status).toBe(201);
    expect(later.headers.get('x-kept')).toBe('yes');
    expect(await later.text()).toBe('<p>₱250.00 — Zoë</p><input value="tkt_2"><a href="/x?t=tkt_2">ü</a>');
  });
});

describe('a kept rendering answered before the page runs (src/api/payment-pages.ts)', () => {
  /** The middleware's context for a request to `path` on `route` (what keptPaymentPage reads). */
  const contextFor = (route: string, path: string, params: Record<string, string>, method = 'GET') => {
    const url = new URL(server.url + path);
    const cookies: Array<[string, string]> = [];
    const context = {
      request: new Request(url, { method }),
      url,
      params,
      routePattern: route,
      locals: { paylink: t.app } as App.Locals,
      cookies: { get: () => undefined, set: (name: string, value: string) => cookies.push([name, value]) },
    };
    return { context: context as unknown as APIContext, cookies };
  };

  it('answers a repeated view of a payment link with the kept rendering and a new working ticket', async () => {
    const rendered = await page('/pay/acme-books');
    const kept = await keptPaymentPage(contextFor('/pay/[slug]', '/pay/acme-books', { slug: 'acme-books' }).context);
    expect(kept).toBeInstanceOf(Response);
    const html = await kept!.text();
    const ticket = ticketOf(html)!;
    expect(ticket).not.toBe(ticketOf(rendered.html));
    expect(html.replace(ticket, ticketOf(rendered.html)!)).toBe(rendered.html);
    expect(kept!.headers.get('cache-control')).toBe('no-store');
    expect((await pay('acme-books', ticket)).json.data.status_code).toBe('OK.03.00');
  });

  it('answers a reload of a checkout with its kept rendering, and leaves the session it read for the page', async () => {
    const created = await call(server.url, 'POST', '/pay/acme-books', { token: null, body: { key: TEST_TOKEN, payment: { amount: '250.00' } } });
    const path = new URL(created.json.link).pathname;
    const token = path.split('/').at(-1)!;
    const notYet = contextFor('/checkout/[token]', path, { token }).context;
    expect(await keptPaymentPage(notYet)).toBeUndefined();
    expect(notYet.locals.paymentPageLoaded).toMatchObject({ route: '/checkout/[token]', param: token, view: { state: 'open' } });
    const first = await page(path);
    expect(await (await keptPaymentPage(contextFor('/checkout/[token]', path, { token }).context))!.text()).toBe(first.html);
  });

  it('hands what it read to the page when it cannot answer: an unknown link is looked up once per view', async () => {
    const views = t.app.linkCache;
    const find = views.find.bind(views);
    let lookups = 0;
    views.find = (slug) => {
      lookups++;
      return find(slug);
    };
    try {
      expect((await page('/pay/no-such-link')).status).toBe(404);
    } finally {
      views.find = find;
    }
    expect(lookups).toBe(1);
  });

  it('sets the language cookie a ?lang= asks for, as the page does', async () => {
    await page('/pay/acme-books?lang=fil');
    const { context, cookies } = contextFor('/pay/[slug]', '/pay/acme-books?lang=fil', { slug: 'acme-books' });
    expect(await (await keptPaymentPage(context))!.text()).toContain('lang="fil"');
    expect(cookies).toEqual([['paylink_lang', 'fil']]);
    // Over HTTP, a kept view carries the cookie too.
    expect((await fetch(`${server.url}/pay/acme-books?lang=fil`)).headers.get('set-cookie')).toMatch(/^paylink_lang=fil;/);
  });

  it('leaves every other request to the page: HEAD, the dynamic link POST, another route, a page that is not a form', async () => {
    await page('/pay/acme-books');
    expect(await keptPaymentPage(contextFor('/pay/[slug]', '/pay/acme-books', { slug: 'acme-books' }, 'HEAD').context)).toBeUndefined();
    expect(await keptPaymentPage(contextFor('/pay/[slug]', '/pay/acme-books', { slug: 'acme-books' }, 'POST').context)).toBeUndefined();
    expect(await keptPaymentPage(contextFor('/pay/[slug]/pay', '/pay/acme-books/pay', { slug: 'acme-books' }).context)).toBeUndefined();
    expect(await keptPaymentPage(contextFor('/pay/[slug]', '/pay/no-such-link', { slug: 'no-such-link' }).context)).toBeUndefined();
    const head = await fetch(`${server.url}/pay/acme-books`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});

describe('the key of a kept rendering', () => {
  it('is the same for the same content and differs for any changed input, bigints and nulls included', () => {
    const row = { id: 'lnk_1', title: 'Books', amountMinor: 25000n, logo: null };
    const key = pageKey('/pay/{slug}', [row, 'en', '']);
    expect(pageKey('/pay/{slug}', [row, 'en', ''])).toBe(key);
    expect(pageKey('/pay/{slug}', [{ ...row }, 'en', ''])).toBe(key);
    expect(pageKey('/pay/{slug}', [{ ...row, title: 'Books 2' }, 'en', ''])).not.toBe(key);
    expect(pageKey('/pay/{slug}', [{ ...row, amountMinor: 25001n }, 'en', ''])).not.toBe(key);
    expect(pageKey('/pay/{slug}', [{ ...row, logo: 'asset_1' }, 'en', ''])).not.toBe(key);
    expect(pageKey('/pay/{slug}', [row, 'fil', ''])).not.toBe(key);
    expect(pageKey('/pay/{slug}', [row, 'en', '?lang=fil'])).not.toBe(key);
    expect(pageKey('/checkout/{token}', [row, 'en', ''])).not.toBe(key);
    expect(pageKey('/pay/{slug}', [row, undefined, ''])).not.toBe(pageKey('/pay/{slug}', [row, null, '']));
  });
});

describe('active links kept in memory', () => {
  it('reads a link once, then from memory until the view expires', async () => {
    let clock = 0;
    const views = new LinkCache(t.app.db, () => clock, 1_000);
    const first = await views.find('acme-books');
    expect(first?.link.slug).toBe('acme-books');
    clock = 999;
    expect(await views.find('acme-books')).toBe(first);
    clock = 1_000;
    const again = await views.find('acme-books');
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });

  it('keeps links by id too (checkout pages), and forgets them on a change like the rest', async () => {
    const views = new LinkCache(t.app.db, () => 0, 60_000);
    const bySlug = await views.find('acme-books');
    const byId = await views.findById(bySlug!.link.id);
    expect(byId?.link.slug).toBe('acme-books');
    expect(await views.findById(bySlug!.link.id)).toBe(byId);
    views.changed();
    expect(await views.findById(bySlug!.link.id)).not.toBe(byId);
    expect(await views.findById('lnk_unknown')).toBeUndefined();
  });

  it('does not keep a lookup that began before a change, nor unknown addresses', async () => {
    const views = new LinkCache(t.app.db, () => 0, 60_000);
    const pending = views.find('acme-books');
    views.changed();
    const raced = await pending;
    expect(await views.find('acme-books')).not.toBe(raced);
    expect(await views.find('no-such-link')).toBeUndefined();
  });

  it('forgets every kept link when told of a change by NOTIFY paylink_links', async () => {
    const views = new LinkCache(t.app.db, () => 0, 60_000);
    const stop = await views.watch(t.app.database);
    try {
      const kept = await views.find('acme-books');
      expect(await views.find('acme-books')).toBe(kept);
      await t.app.db.update(links).set({ description: 'Signed copies' }).where(eq(links.slug, 'acme-books'));
      expect(await waitFor(async () => (await views.find('acme-books'))?.link.description === 'Signed copies')).toBe(true);
    } finally {
      await stop();
    }
  });
});
