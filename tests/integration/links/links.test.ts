import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions, payments } from '../../../src/db/schema.ts';
import { call, createTestApp, defaultSeed, provision, sandboxOf, startTestServer, type TestApp } from '../../support/app.ts';
import { CARD_EXPIRY } from '../../support/cards.ts';
import { CHECKOUT_JS_BUDGET, measurePageScripts } from '../../support/checkout-weight.ts';

/** Static links: the page at /pay/{slug}, its first-submit session, logos, JS weight and CSP. */
let t: TestApp;
let server: { url: string; close(): Promise<void> };

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const SVG = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#c00"/></svg>').toString('base64')}`;

const seed = defaultSeed();
seed.integrators[0]!.links.push(
  {
    slug: 'acme-labels',
    title: 'Acme workshop',
    description: 'Saturday pottery workshop',
    currency: 'PHP',
    amount: '1500.00',
    brand_color: '#ffd400',
    logo: PNG,
    labels: { 'customer.first_name': 'Given name', 'customer.contact.mobile': 'Phone (with country code)' },
    fields: { 'customer.contact.email': 'hidden', 'customer.contact.mobile': 'customer', 'customer.billing_address.country_code': 'customer' },
    active: true,
  },
  { slug: 'acme-range', title: 'Tip jar', currency: 'PHP', min_amount: '100', max_amount: '5000', logo: SVG, labels: {}, fields: {}, active: true },
  { slug: 'acme-off', title: 'Gone', currency: 'PHP', amount: '1.00', labels: {}, fields: {}, active: false },
  { slug: 'acme-invoice', title: 'Invoice', currency: 'PHP', labels: {}, fields: { 'payment.merchant_reference_id': 'system' }, active: true },
);

const card = (number = '4242424242424242') => ({
  number: number.replace(/(\d{4})/g, '$1 ').trim(),
  expiry: CARD_EXPIRY.replace('/', ' / '),
  cvc: '123',
  name: 'Juan Dela Cruz',
});
const customer = { 'customer.first_name': 'Juan', 'customer.last_name': 'Dela Cruz', 'customer.contact.email': 'juan@example.com' };

async function page(path: string) {
  const res = await fetch(server.url + path);
  return { status: res.status, headers: res.headers, html: await res.text() };
}
/** The session ticket the page was rendered with (`<session token>.<issued at>.<mac>`). */
const pageToken = (html: string) => /&quot;session&quot;:\[0,&quot;([A-Za-z0-9_-]{43}\.\d+\.[A-Za-z0-9_-]{43})&quot;\]/.exec(html)![1]!;
const sessionTokenOf = (ticket: string) => ticket.split('.')[0]!;

beforeAll(async () => {
  t = await createTestApp();
  await provision(t, seed);
  server = await startTestServer(t.app);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

describe('static link', () => {
  it('shows the merchant, title, amount, default labels and a Pay button with the amount', async () => {
    const { status, html, headers } = await page('/pay/acme-books');
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toBe('no-store');
    expect(html).toContain('<span>Acme Books</span>');
    expect(html).toContain('₱250.00');
    for (const label of ['First name', 'Last name', 'Email', 'Card number', 'Expiry date', 'Security code', 'Name on card'])
      expect(html).toContain(`>${label}</label>`);
    expect(html).toMatch(/<button type="submit" class="pay"[^>]*>Pay ₱250.00<\/button>/);
    expect(html).toMatch(/autocomplete="cc-number"/);
    expect(html).toMatch(/inputmode="numeric"/);
  });

  it("uses the link's labels, field modes, colour and logo", async () => {
    const { html } = await page('/pay/acme-labels');
    expect(html).toContain('>Given name</label>');
    expect(html).toContain('>Phone (with country code)</label>');
    // The card form asks what the link asks (BillEase's panel asks the e-mail it needs: payment-methods-page.test.ts).
    const cardForm = html.slice(html.indexOf('<form class="card-form"'), html.indexOf('</form>', html.indexOf('<form class="card-form"')));
    expect(cardForm).toContain('>Given name</label>');
    expect(cardForm).not.toContain('>Email</label>');
    expect(html).toMatch(/<select id="f-customer-billing_address-country_code"/);
    expect(html).toContain('<option value="PH">Philippines</option>');
    expect(html).toContain(':root{--brand:#ffd400;--on-brand:#000000}');
    const logo = /<img src="(\/assets\/img_[0-9a-f]{32})" alt="Acme Books logo"/.exec(html);
    expect(logo).not.toBeNull();
    const res = await fetch(server.url + logo![1]);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves an SVG logo under a CSP that forbids script', async () => {
    const { html } = await page('/pay/acme-range');
    const src = /<img src="(\/assets\/img_[0-9a-f]{32})"/.exec(html)![1]!;
    const res = await fetch(server.url + src);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect((await fetch(`${server.url}/assets/img_${'0'.repeat(32)}`)).status).toBe(404);
  });

  it('answers methods other than GET and POST with 405 and Allow', async () => {
    const res = await call(server.url, 'PUT', '/pay/acme-books', { token: null, body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST');
    expect((await call(server.url, 'GET', '/pay/acme-books/pay', { token: null })).status).toBe(405);
  });

  it('answers an unknown or inactive slug with a 404 page, not a stack trace', async () => {
    for (const slug of ['no-such-link', 'acme-off', '..%2F..%2Fetc']) {
      const { status, html } = await page(`/pay/${slug}`);
      expect(status).toBe(404);
      expect(html).toContain('Payment link not found');
      expect(html).not.toMatch(/at \w+ \(|Error:/);
    }
  });

  it('does not offer a static form for a link with system-filled fields', async () => {
    const { status, html } = await page('/pay/acme-invoice');
    expect(status).toBe(404);
    expect(html).toContain('Acme Books creates a personal payment link for each payment of this kind');
    const res = await call(server.url, 'POST', '/pay/acme-invoice/pay', {
      token: null,
      body: { session: 'a'.repeat(43), amount: '10', fields: customer, card: card() },
    });
    expect(res.status).toBe(404);
    expect(res.json.data.status_code).toBe('ER.03.10');
  });

  it('creates the session on the first valid submit and lands on the receipt; the same page cannot pay twice', async () => {
    const { html } = await page('/pay/acme-books');
    const token = pageToken(html);
    expect(pageToken((await page('/pay/acme-books')).html)).not.toBe(token);
    const before = (await t.app.db.select({ n: count() }).from(checkoutSessions))[0]!.n;
    const invalid = await call(server.url, 'POST', '/pay/acme-books/pay', {
      token: null,
      body: { session: token, fields: customer, card: { ...card(), number: '1234' } },
    });
    expect(invalid.status).toBe(422);
    expect((await t.app.db.select({ n: count() }).from(checkoutSessions))[0]!.n).toBe(before);
    const res = await call(server.url, 'POST', '/pay/acme-books/pay', { token: null, body: { session: token, fields: customer, card: card() } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toMatchObject({ status_code: 'OK.03.00', redirect_url: `/checkout/${sessionTokenOf(token)}` });
    expect((await t.app.db.select({ n: count() }).from(checkoutSessions))[0]!.n).toBe(before + 1);
    const receipt = await page(`/checkout/${sessionTokenOf(token)}`);
    expect(receipt.html).toContain('Payment received');
    expect(receipt.html).toContain(res.json.data.transaction_id);
    const again = await call(server.url, 'POST', '/pay/acme-books/pay', { token: null, body: { session: token, fields: customer, card: card() } });
    expect(again.status).toBe(409);
    expect(again.json.data.status_code).toBe('ER.03.22');
  });

  it('keeps declined attempts on the same session so the attempt limit holds', async () => {
    const token = pageToken((await page('/pay/acme-books')).html);
    const body = (number: string) => ({ session: token, fields: customer, card: card(number) });
    const declined = await call(server.url, 'POST', '/pay/acme-books/pay', { token: null, body: body('4000000000000002') });
    expect(declined.json.data).toMatchObject({ status_code: 'ER.03.30', attempts_left: 4 });
    const ok = await call(server.url, 'POST', '/pay/acme-books/pay', { token: null, body: body('4242424242424242') });
    expect(ok.json.data.status_code).toBe('OK.03.00');
    const [session] = await t.app.db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.kind, 'static'))
      .orderBy(sql`${checkoutSessions.createdAt} desc`)
      .limit(1);
    expect(session!.attempts).toBe(2);
  });

  it("holds a typed amount to the link's minimum and maximum", async () => {
    const token = pageToken((await page('/pay/acme-range')).html);
    const attempt = (amount: string) =>
      call(server.url, 'POST', '/pay/acme-range/pay', { token: null, body: { session: token, amount, fields: customer, card: card() } });
    expect((await attempt('50')).json.messages.amount[0]).toMatch(/at least ₱100.00/);
    expect((await attempt('5000.01')).json.messages.amount[0]).toMatch(/at most ₱5,000.00/);
    expect((await attempt('1.234')).json.messages.amount[0]).toMatch(/decimal/);
    const ok = await attempt('1,234.50');
    expect(ok.json.data.status_code).toBe('OK.03.00');
    const [payment] = await t.app.db.select().from(payments).where(eq(payments.id, ok.json.data.transaction_id));
    expect(payment!.amountMinor).toBe(123450n);
  });

  it('refuses a page token from another link, and a missing one', async () => {
    const token = pageToken((await page('/pay/acme-books')).html);
    await call(server.url, 'POST', '/pay/acme-books/pay', { token: null, body: { session: token, fields: customer, card: card('4000000000000002') } });
    const other = await call(server.url, 'POST', '/pay/acme-range/pay', {
      token: null,
      body: { session: token, amount: '200', fields: customer, card: card() },
    });
    expect(other.status).toBe(404);
    const missing = await call(server.url, 'POST', '/pay/acme-books/pay', { token: null, body: { fields: customer, card: card() } });
    expect(missing.status).toBe(422);
    expect(missing.json.messages).toEqual({ session: ['The payment form is out of date: reload the page'] });
  });

  it("keeps card numbers and security codes out of paylink's tables and logs", async () => {
    const token = pageToken((await page('/pay/acme-books')).html);
    await call(server.url, 'POST', '/pay/acme-books/pay', {
      token: null,
      body: { session: token, fields: customer, card: { ...card('5555555555554444'), cvc: '987' } },
    });
    const tables = ['checkout_sessions', 'payments', 'outbox_events', 'idempotency_keys', 'links'];
    for (const table of tables) {
      const rows = await t.app.db.execute(sql.raw(`select row_to_json(x)::text as j from ${table} x`));
      const text = (rows as unknown as { rows: { j: string }[] }).rows.map((r) => r.j).join('\n');
      expect(text).not.toMatch(/5555\s?5555\s?5555\s?4444|4242\s?4242\s?4242\s?4242/);
      expect(text).not.toContain('"987"');
    }
    // Paying logs nothing; a payment whose acquirer call fails unexpectedly logs the error, which
    // here quotes the card: the log line is there, and the card is not in it.
    const charge = sandboxOf(t.app).acquirer.charge;
    sandboxOf(t.app).acquirer.charge = async (request) => {
      throw new Error(`acquirer refused ${JSON.stringify(request.source)}`);
    };
    try {
      const failing = pageToken((await page('/pay/acme-books')).html);
      const logsBefore = t.logs.length;
      const res = await call(server.url, 'POST', '/pay/acme-books/pay', {
        token: null,
        body: { session: failing, fields: customer, card: { ...card('5555555555554444'), cvc: '987' } },
      });
      expect(res.json.data.status_code).toBe('ER.99.00');
      // Two lines: the error, and the request log line every request writes (status 500).
      const lines = t.logs.slice(logsBefore).map((line) => ({ line, entry: JSON.parse(line) as { msg: string; status?: number; request_id?: string } }));
      const errors = lines.filter(({ entry }) => entry.msg !== 'request');
      expect(errors).toHaveLength(1);
      expect(errors[0]!.line).toContain(res.json.data.request_id);
      expect(errors[0]!.line).toContain('acquirer refused');
      const requests = lines.filter(({ entry }) => entry.msg === 'request');
      expect(requests.map(({ entry }) => [entry.status, entry.request_id])).toEqual([[500, res.json.data.request_id]]);
    } finally {
      sandboxOf(t.app).acquirer.charge = charge;
    }
    expect(t.logs.join('\n')).not.toMatch(/5555\s?5555|4242\s?4242|"987"|\b987\b/);
  });
});

describe('checkout page weight and CSP', () => {
  // Every module the page loads once the customer uses it, import() targets included: an open amount
  // loads the amount rule's chunk on top of the fixed-amount page's scripts.
  it.each([
    ['a fixed amount', '/pay/acme-labels'],
    ['an open amount', '/pay/acme-range'],
  ])(`loads at most ${CHECKOUT_JS_BUDGET / 1024} KB of JavaScript (gzip) for %s, counted from the built page`, async (_, path) => {
    const { html } = await page(path);
    const weight = await measurePageScripts(server.url, html);
    console.info(
      `${path} JS: ${weight.totalGzip} B gzip (${weight.totalBytes} B raw) in ${weight.scripts.length} scripts: ${weight.scripts.map((s) => `${s.name} ${s.gzip}`).join(', ')}; not loaded: ${weight.dynamicOnly.join(', ') || 'none'}`,
    );
    expect(weight.scripts.some((s) => s.name.includes('CardForm'))).toBe(true);
    expect(weight.totalGzip).toBeLessThanOrEqual(CHECKOUT_JS_BUDGET);
  });

  it('leaves out of the count only the renderer’s signals, which no payment page loads', async () => {
    for (const path of ['/pay/acme-labels', '/pay/acme-range']) {
      const { html } = await page(path);
      expect(html).not.toContain('data-preact-signals');
      const weight = await measurePageScripts(server.url, html);
      expect(weight.dynamicOnly.every((d) => /\/signals\.module\.[\w-]+\.js$/.test(d))).toBe(true);
    }
  });

  it('allows every inline script by its hash and references nothing off-origin', async () => {
    const res = await fetch(`${server.url}/pay/acme-labels`);
    const html = await res.text();
    const csp = res.headers.get('content-security-policy') ?? /<meta http-equiv="content-security-policy" content="([^"]+)"/i.exec(html)?.[1] ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain("'unsafe-inline'");
    expect(csp).toContain("frame-ancestors 'none'");
    const { inlineScriptHashes } = await measurePageScripts(server.url, html);
    expect(inlineScriptHashes.length).toBeGreaterThan(0);
    for (const hash of inlineScriptHashes) expect(csp).toContain(`'${hash}'`);
    expect(html).not.toMatch(/\b(?:src|href|action|component-url|renderer-url)="(?:https?:)?\/\//);
  });
});
