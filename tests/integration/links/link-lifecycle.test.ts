import { and, count, eq } from 'drizzle-orm';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions, links, payments } from '../../../src/db/schema.ts';
import { call, createTestApp, defaultSeed, provision, sandboxOf, startTestServer, TEST_TOKEN, type TestApp } from '../../support/app.ts';
import { CARD_EXPIRY } from '../../support/cards.ts';

/**
 * A link's lifecycle (src/domain/links/lifecycle.ts) on the page, the pay submissions and the
 * dynamic-link POST; its QR codes; the ways back to the merchant; the payment pages' trust cues.
 * Runs on PGlite and PostgreSQL (the single-use race matters most there: real concurrency).
 */
let t: TestApp;
let server: { url: string; close(): Promise<void> };
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);
const HOUR = 3_600_000;
const inHours = (h: number) => new Date(Date.now() + h * HOUR).toISOString();

const seed = defaultSeed();
const base = { currency: 'PHP', labels: {}, fields: {}, active: true } as const;
seed.integrators[0]!.links.push(
  { ...base, slug: 'acme-expired', title: 'Summer sale', amount: '10.00', expires_at: inHours(-1) },
  { ...base, slug: 'acme-soon', title: 'Flash sale', amount: '10.00', expires_at: inHours(2) },
  { ...base, slug: 'acme-once', title: 'Ticket', amount: '50.00', max_payments: 1 },
  { ...base, slug: 'acme-race', title: 'Last seat', amount: '75.00', max_payments: 1 },
  { ...base, slug: 'acme-twice', title: 'Two seats', amount: '20.00', max_payments: 2 },
  { ...base, slug: 'acme-dyn-once', title: 'One invoice', amount: '30.00', max_payments: 1 },
  { ...base, slug: 'acme-off', title: 'Gone', amount: '1.00', active: false },
  { ...base, slug: 'acme-system', title: 'Invoice', fields: { 'payment.merchant_reference_id': 'system' } },
  {
    ...base,
    slug: 'acme-return',
    title: 'Workshop',
    amount: '15.00',
    success_url: 'https://shop.acme.example/thanks?order=7',
    cancel_url: 'https://shop.acme.example/cart',
  },
);

const card = (number = '4242424242424242') => ({ number, expiry: CARD_EXPIRY, cvc: '123', name: 'Juan Dela Cruz' });
const customer = { 'customer.first_name': 'Juan', 'customer.last_name': 'Dela Cruz', 'customer.contact.email': 'juan@example.com' };

async function page(path: string) {
  const res = await fetch(server.url + path);
  return { status: res.status, headers: res.headers, html: await res.text() };
}
const ticketOf = (html: string) => /&quot;session&quot;:\[0,&quot;([A-Za-z0-9_-]{43}\.\d+\.[A-Za-z0-9_-]{43})&quot;\]/.exec(html)?.[1];
async function ticket(slug: string) {
  const { status, html } = await page(`/pay/${slug}`);
  expect(status).toBe(200);
  return ticketOf(html)!;
}
const payStatic = (slug: string, session: string, number?: string) =>
  call(server.url, 'POST', `/pay/${slug}/pay`, { token: null, body: { session, fields: customer, card: card(number) } });
const dynamic = (slug: string, body: Record<string, unknown> = {}) =>
  call(server.url, 'POST', `/pay/${slug}`, { token: null, body: { key: TEST_TOKEN, ...body } });
async function linkId(slug: string) {
  const [row] = await t.app.db.select({ id: links.id }).from(links).where(eq(links.slug, slug));
  return row!.id;
}
async function succeeded(slug: string) {
  const [row] = await t.app.db
    .select({ n: count() })
    .from(payments)
    .where(and(eq(payments.linkId, await linkId(slug)), eq(payments.status, 'succeeded')));
  return row!.n;
}

beforeAll(async () => {
  t = await createTestApp({ now: clock });
  await provision(t, seed);
  server = await startTestServer(t.app);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

describe('link lifecycle', () => {
  it('an active link shows its form (200)', async () => {
    const { status, html } = await page('/pay/acme-soon');
    expect(status).toBe(200);
    expect(ticketOf(html)).toBeDefined();
  });

  it('an inactive link answers 404 on the page, the pay submission and the dynamic-link POST', async () => {
    expect((await page('/pay/acme-off')).status).toBe(404);
    const res = await payStatic('acme-off', 'a'.repeat(43));
    expect(res.status).toBe(404);
    expect(res.json.data.status_code).toBe('ER.03.10');
    expect((await dynamic('acme-off')).json.data.status_code).toBe('ER.03.10');
  });

  it('an expired link says so with a 410 page, and refuses payments and dynamic links with ER.03.11', async () => {
    const { status, html } = await page('/pay/acme-expired');
    expect(status).toBe(410);
    expect(html).toContain('This payment link has expired');
    expect(html).toContain('You have not been charged');
    expect(ticketOf(html)).toBeUndefined();
    const res = await payStatic('acme-expired', 'a'.repeat(43));
    expect(res.status).toBe(410);
    expect(res.json.data.status_code).toBe('ER.03.11');
    expect(res.json.messages['(request)'][0]).toMatch(/expired/);
    const created = await dynamic('acme-expired');
    expect(created.status).toBe(410);
    expect(created.json.data.status_code).toBe('ER.03.11');
    expect(await succeeded('acme-expired')).toBe(0);
  });

  it('a form opened before the expiry is refused when submitted after it, and nothing is charged', async () => {
    const session = await ticket('acme-soon');
    offsetMs = 3 * HOUR;
    try {
      const res = await payStatic('acme-soon', session);
      expect(res.status).toBe(410);
      expect(res.json.data.status_code).toBe('ER.03.11');
      expect((await page('/pay/acme-soon')).status).toBe(410);
    } finally {
      offsetMs = 0;
    }
    expect(await succeeded('acme-soon')).toBe(0);
  });

  it('a single-use link takes one payment, then answers "already paid" (410 ER.03.12) everywhere', async () => {
    const [mine, theirs] = [await ticket('acme-once'), await ticket('acme-once')];
    const first = await payStatic('acme-once', mine);
    expect(first.status, first.text).toBe(200);
    expect(first.json.data.status_code).toBe('OK.03.00');
    const { status, html } = await page('/pay/acme-once');
    expect(status).toBe(410);
    expect(html).toContain('This payment link has already been paid');
    // Another customer's form, opened before the payment:
    const again = await payStatic('acme-once', theirs);
    expect(again.status).toBe(410);
    expect(again.json.data.status_code).toBe('ER.03.12');
    expect(again.json.messages['(request)'][0]).toMatch(/already been paid/);
    // The customer who paid, submitting again, is sent to their receipt and not charged twice.
    const twice = await payStatic('acme-once', mine);
    expect(twice.json.data.status_code).toBe('ER.03.22');
    // The receipt of the payment that was made still shows.
    const receipt = await page(first.json.data.redirect_url);
    expect(receipt.status).toBe(200);
    expect(receipt.html).toContain('Payment received');
    expect(await succeeded('acme-once')).toBe(1);
  });

  it('a decline gives its place back: a two-payment link still takes two payments after one, then no more', async () => {
    const late = await ticket('acme-twice');
    const declined = await payStatic('acme-twice', await ticket('acme-twice'), '4000000000000002');
    expect(declined.json.data.status_code).toBe('ER.03.30');
    for (let i = 0; i < 2; i++) expect((await payStatic('acme-twice', await ticket('acme-twice'))).json.data.status_code).toBe('OK.03.00');
    expect((await payStatic('acme-twice', late)).json.data.status_code).toBe('ER.03.12');
    expect(await succeeded('acme-twice')).toBe(2);
  });

  it('customers paying a single-use link at the same moment: exactly one payment succeeds', async () => {
    const tickets = await Promise.all(Array.from({ length: 6 }, () => ticket('acme-race')));
    const results = await Promise.all(tickets.map((session) => payStatic('acme-race', session)));
    const codes = results.map((r) => r.json?.data?.status_code);
    expect(codes.filter((c) => c === 'OK.03.00')).toHaveLength(1);
    // The others are told the link is paid (or, while the winner is still at the acquirer, the same).
    expect(codes.filter((c) => c === 'ER.03.12')).toHaveLength(5);
    expect(results.filter((r) => r.status === 410)).toHaveLength(5);
    expect(await succeeded('acme-race')).toBe(1);
    const [charged] = await t.app.db
      .select({ n: count() })
      .from(payments)
      .where(eq(payments.linkId, await linkId('acme-race')));
    expect(charged!.n).toBe(1); // the refused ones never reached the acquirer
  });

  it('dynamic links of a single-use link: once one is paid, the others and new ones are refused', async () => {
    const a = await dynamic('acme-dyn-once');
    const b = await dynamic('acme-dyn-once');
    expect(a.status, a.text).toBe(200);
    const tokenA = new URL(a.json.link).pathname.split('/')[2]!;
    const tokenB = new URL(b.json.link).pathname.split('/')[2]!;
    const paid = await call(server.url, 'POST', `/checkout/${tokenA}/pay`, { token: null, body: { fields: customer, card: card() } });
    expect(paid.json.data.status_code).toBe('OK.03.00');
    const other = await call(server.url, 'POST', `/checkout/${tokenB}/pay`, { token: null, body: { fields: customer, card: card() } });
    expect(other.status).toBe(410);
    expect(other.json.data.status_code).toBe('ER.03.12');
    const otherPage = await page(`/checkout/${tokenB}`);
    expect(otherPage.status).toBe(410);
    expect(otherPage.html).toContain('This payment link has already been paid');
    expect((await page(`/checkout/${tokenA}`)).status).toBe(200); // the receipt
    const created = await dynamic('acme-dyn-once');
    expect(created.status).toBe(410);
    expect(created.json.data.status_code).toBe('ER.03.12');
    const [sessions] = await t.app.db
      .select({ n: count() })
      .from(checkoutSessions)
      .where(eq(checkoutSessions.linkId, await linkId('acme-dyn-once')));
    expect(sessions!.n).toBe(2);
  });

  it('a dynamic-only link opened in a browser explains what it is (404)', async () => {
    const { status, html } = await page('/pay/acme-system');
    expect(status).toBe(404);
    expect(html).toContain('Use the personal payment link you were sent');
    expect(html).toContain('Acme Books creates a personal payment link');
  });
});

describe('QR codes', () => {
  const qrOptions = { errorCorrectionLevel: 'M', margin: 2 } as const;

  it('encodes the link’s public address as SVG', async () => {
    const res = await fetch(`${server.url}/pay/acme-books/qr.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    const svg = await res.text();
    expect(svg).toMatch(/^<svg[^>]*>.*<path /s);
    // The same modules as a QR code of exactly this address (a code of any other text differs).
    expect(svg).toBe(await QRCode.toString(`${server.url}/pay/acme-books`, { ...qrOptions, type: 'svg' }));
    expect(svg).not.toBe(await QRCode.toString(`${server.url}/pay/acme-open`, { ...qrOptions, type: 'svg' }));
  });

  it('encodes the link’s public address as a 512-pixel PNG', async () => {
    const res = await fetch(`${server.url}/pay/acme-books/qr.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await res.arrayBuffer());
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.readUInt32BE(16)).toBe(512); // IHDR width
    expect(png.readUInt32BE(20)).toBe(512); // IHDR height
    expect(png.equals(await QRCode.toBuffer(`${server.url}/pay/acme-books`, { ...qrOptions, type: 'png', width: 512 }))).toBe(true);
  });

  it('has none for unknown, inactive and dynamic-only links, and writes nothing', async () => {
    const before = (await t.app.db.select({ n: count() }).from(checkoutSessions))[0]!.n;
    for (const slug of ['no-such-link', 'acme-off', 'acme-system'])
      for (const ext of ['svg', 'png']) expect((await fetch(`${server.url}/pay/${slug}/qr.${ext}`)).status, `${slug} ${ext}`).toBe(404);
    expect((await t.app.db.select({ n: count() }).from(checkoutSessions))[0]!.n).toBe(before);
  });
});

describe('back to the merchant', () => {
  it('the form links to cancel_url and the receipt returns to success_url with the transaction id', async () => {
    const { html } = await page('/pay/acme-return');
    expect(html).toContain('href="https://shop.acme.example/cart"');
    expect(html).toContain('Cancel and return to Acme Books');
    const paid = await payStatic('acme-return', ticketOf(html)!);
    const id = paid.json.data.transaction_id as string;
    const receipt = await page(paid.json.data.redirect_url);
    expect(receipt.html).toContain('Return to Acme Books');
    expect(receipt.html).toContain(`href="https://shop.acme.example/thanks?order=7&amp;transaction_id=${id}"`);
  });

  it('links without them offer neither, and an address that is not http(s) is never rendered', async () => {
    expect((await page('/pay/acme-books')).html).not.toContain('Cancel and return');
    await t.app.db.update(links).set({ cancelUrl: 'javascript:alert(1)' }).where(eq(links.slug, 'acme-open'));
    const { html } = await page('/pay/acme-open');
    expect(html).not.toContain('javascript:');
    expect(html).not.toContain('Cancel and return');
  });
});

describe('trust cues', () => {
  it('serves a favicon as SVG and ICO, and every payment page names it', async () => {
    const svg = await fetch(`${server.url}/favicon.svg`);
    expect(svg.status).toBe(200);
    expect(await svg.text()).toContain('<svg');
    const ico = await fetch(`${server.url}/favicon.ico`);
    expect(ico.status).toBe(200);
    expect(Buffer.from(await ico.arrayBuffer()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0])); // ICO header
    expect((await page('/pay/acme-books')).html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
  });

  it('shows a Test mode badge on the pay, checkout, receipt, expired and card registration pages while the sandbox takes payments', async () => {
    expect(sandboxOf(t.app).acquirer.name).toBe('sandbox');
    expect((await page('/pay/acme-open')).html).toContain('data-testid="test-mode"');
    const created = await dynamic('acme-books');
    const path = new URL(created.json.link).pathname;
    expect((await page(path)).html).toContain('Test mode');
    const paid = await call(server.url, 'POST', `${path}/pay`, { token: null, body: { fields: customer, card: card() } });
    expect((await page(paid.json.data.redirect_url)).html).toContain('data-testid="test-mode"');
    expect((await page('/pay/acme-expired')).html).toContain('data-testid="test-mode"');
    const registration = await call(server.url, 'POST', '/api/v1/card-registrations', { body: {} });
    expect(registration.status, registration.text).toBe(200);
    expect((await page(new URL(registration.json.data.link).pathname)).html).toContain('data-testid="test-mode"');
  });

  it('does not repeat the title when the link is named after its merchant', async () => {
    const { html } = await page('/pay/acme-books'); // title "Acme Books", merchant "Acme Books"
    expect(html).toContain('<title>Acme Books</title>');
    expect((await page('/pay/acme-open')).html).toContain('<title>Acme donation · Acme Books</title>');
  });

  it('writes the card brand as a brand on the receipt', async () => {
    const paid = await payStatic('acme-books', await ticket('acme-books'), '5555555555554444');
    expect(paid.json.data.status_code).toBe('OK.03.00');
    const receipt = await page(paid.json.data.redirect_url);
    expect(receipt.html).toMatch(/data-testid="receipt-card"[^>]*>Mastercard ending in 4444</);
  });
});

describe('return addresses in a dynamic link (an extension of spec §2.4)', () => {
  it('a dynamic link’s route.success_url and route.cancel_url override the link’s', async () => {
    const created = await dynamic('acme-return', {
      route: { success_url: 'https://shop.acme.example/order/9/paid', cancel_url: 'https://shop.acme.example/order/9' },
    });
    expect(created.status, created.text).toBe(200);
    const path = new URL(created.json.link).pathname;
    const form = await page(path);
    expect(form.html).toContain('href="https://shop.acme.example/order/9"');
    const paid = await call(server.url, 'POST', `${path}/pay`, { token: null, body: { fields: customer, card: card() } });
    const receipt = await page(paid.json.data.redirect_url);
    expect(receipt.html).toContain(`href="https://shop.acme.example/order/9/paid?transaction_id=${paid.json.data.transaction_id}"`);
  });

  it('refuses a return address that is not http(s) with 422 and creates nothing', async () => {
    const before = (await t.app.db.select({ n: count() }).from(checkoutSessions))[0]!.n;
    const res = await dynamic('acme-return', { route: { success_url: 'javascript:alert(1)', cancel_url: 'ftp://shop.acme.example/' } });
    expect(res.status).toBe(422);
    expect(res.json.data.status_code).toBe('ER.02.30');
    expect(Object.keys(res.json.messages)).toEqual(expect.arrayContaining(['route.success_url', 'route.cancel_url']));
    expect((await t.app.db.select({ n: count() }).from(checkoutSessions))[0]!.n).toBe(before);
  });
});
