import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions, links } from '../../../src/db/schema.ts';
import { hashSessionToken } from '../../../src/domain/checkout/sessions.ts';
import { t as tr } from '../../../src/i18n/index.ts';
import type { PaymentMethod } from '../../../src/schemas/payment-method.ts';
import { call, createTestApp, defaultSeed, provision, startTestServer, TEST_TOKEN, type TestApp } from '../../support/app.ts';
import { CHECKOUT_JS_BUDGET, measurePageScripts } from '../../support/checkout-weight.ts';

/**
 * The payment page with the methods of issue 32, over HTTP from the built server on the sandbox
 * (which declares every method): the choice of method, each method's panel (a plain form, no
 * script), what a method needs asked on its panel only, and a checkout whose QR Ph code is out:
 * the code, its time left drawn per view, "I have paid" without script, a new code once expired,
 * the words on coming back without paying, and the JavaScript the QR page loads.
 */
let t: TestApp;
let server: { url: string; close(): Promise<void> };
let clock = new Date('2026-11-26T05:00:00Z');

const seed = defaultSeed();
const base = { currency: 'PHP', labels: {}, fields: {}, active: true } as const;
seed.integrators[0]!.links.push(
  { ...base, slug: 'pm-ordered', title: 'Ordered', amount: '300.00' },
  { ...base, slug: 'pm-card-only', title: 'Cards only', amount: '300.00' },
  { ...base, slug: 'pm-qr', title: 'Coffee beans', amount: '450.00', fields: { 'customer.contact.mobile': 'customer' } },
);

async function page(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(server.url + path, { headers });
  return { status: res.status, html: await res.text(), csp: res.headers.get('content-security-policy') ?? '' };
}

async function allow(slug: string, methods: PaymentMethod[]) {
  await t.app.db.update(links).set({ paymentMethods: methods, updatedAt: new Date() }).where(eq(links.slug, slug));
  t.app.linkCache.changed();
}

/** A checkout on `slug` (a dynamic link) and its token. */
async function checkout(slug: string) {
  const res = await call(server.url, 'POST', `/pay/${slug}`, { token: null, body: { key: TEST_TOKEN } });
  expect(res.status, res.text).toBe(200);
  return new URL(res.json.link).pathname.split('/')[2]!;
}

/** Puts a QR Ph attempt in flight on the checkout (its first attempt), as the method endpoint leaves it. */
async function qrAttempt(token: string, expiresAt: Date, customerValues: Record<string, string>) {
  await t.app.db
    .update(checkoutSessions)
    .set({
      attempts: 1,
      processingAt: clock,
      providerPaymentId: `sim_${token.slice(0, 8)}`,
      providerAttempt: {
        attempt: 1,
        amountMinor: '45000',
        customerValues,
        method: 'qrph',
        qr: { content: `${server.url}/sandbox/scan/sim_${token.slice(0, 8)}`, expiresAt: expiresAt.toISOString() },
      },
    })
    .where(eq(checkoutSessions.tokenHash, hashSessionToken(token)));
  t.app.sessionCache.changed();
}

/** The choice's methods, in page order, and the one chosen. */
const choice = (html: string) => ({
  methods: [...html.matchAll(/<a class="method-option mark-\w+" href="[^"]*"(?: aria-current="true")? data-method="(\w+)"/g)].map((m) => m[1]),
  checked: /<a class="method-option mark-\w+" href="[^"]*" aria-current="true" data-method="(\w+)"/.exec(html)?.[1],
});
/** One method's panel (its form). */
const panel = (html: string, method: string) =>
  /<form class="method-form"[^>]*data-testid="method-form-(\w+)"[\s\S]*?<\/form>/g.exec(
    html.slice(html.indexOf(`data-testid="method-form-${method}"`) - 120),
  )?.[0] ?? '';

beforeAll(async () => {
  t = await createTestApp({ now: () => clock });
  await provision(t, seed);
  server = await startTestServer(t.app);
  await allow('pm-ordered', ['gcash', 'card', 'dob']);
  await allow('pm-card-only', ['card']);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

describe('payment page › choosing how to pay', () => {
  it('offers every method the acquirer takes, in its order, as links to the page with each, opening on the first', async () => {
    const { html } = await page('/pay/acme-books?lang=en');
    expect(choice(html)).toEqual({ methods: ['card', 'qrph', 'gcash', 'paymaya', 'grab_pay', 'shopeepay', 'dob', 'brankas', 'billease'], checked: 'card' });
    expect(html).toMatch(
      /<nav class="method-choice" aria-labelledby="method-choice-title"[^>]*><h2 class="method-choice-title" id="method-choice-title">How would you like to pay\?<\/h2>/,
    );
    // Each keeps the page's language; only the chosen method's panel is drawn.
    expect(html).toContain('href="/pay/acme-books?lang=en&amp;method=gcash"');
    expect(html).not.toContain('class="method-form"');
  });

  it('offers the link’s methods in the link’s order (card not first), and opens on ?method= when it is one of them', async () => {
    expect(choice((await page('/pay/pm-ordered')).html)).toEqual({ methods: ['gcash', 'card', 'dob'], checked: 'gcash' });
    expect(choice((await page('/pay/pm-ordered?method=dob')).html).checked).toBe('dob');
    // A method the link does not offer is not chosen, and no panel is drawn for it.
    const { html } = await page('/pay/pm-ordered?method=billease');
    expect(choice(html).checked).toBe('gcash');
    expect(html).not.toContain('method-form-billease');
  });

  it('shows a link allowed cards alone as before: the card form, no choice, no other form', async () => {
    const { html } = await page('/pay/pm-card-only');
    expect(html).not.toContain('method-choice');
    expect(html).not.toContain('class="method-form"');
    expect(html).toContain('autocomplete="cc-number"');
  });

  it('draws each other method as a plain form posting to /pay/{slug}/method with the method and the page’s ticket', async () => {
    const { html } = await page('/pay/pm-ordered');
    expect(html).not.toContain('autocomplete="cc-number"');
    const gcash = panel(html, 'gcash');
    expect(gcash).toMatch(/^<form class="method-form" method="post" action="\/pay\/pm-ordered\/method"/);
    expect(gcash).toContain('<input type="hidden" name="method" value="gcash">');
    expect(gcash).toMatch(/<input type="hidden" name="session" value="[A-Za-z0-9_-]{43}\.\d+\.[A-Za-z0-9_-]{43}">/);
    expect(gcash).toContain('You will be sent to GCash to authorise ₱300.00.');
    expect(gcash).toContain('>Continue to GCash</button>');
    expect(gcash).toContain('Test mode: paylink’s sandbox stands in for GCash');
    expect(gcash).toContain('name="fields[customer.first_name]"');
    // Online banking asks the bank, among the method's own.
    const dob = panel((await page('/pay/pm-ordered?method=dob')).html, 'dob');
    expect([...dob.matchAll(/name="bank" id="[\w-]+" value="(\w+)"/g)].map((m) => m[1])).toEqual(['bpi', 'ubp']);
    expect(dob).toContain('>UnionBank</span>');
  });

  it('asks what BillEase needs (e-mail and phone) on its own panel, required, and nowhere else', async () => {
    const billease = panel((await page('/pay/acme-books?method=billease')).html, 'billease');
    expect(billease).toMatch(/name="fields\[customer\.contact\.mobile\]" type="tel"[^>]*required/);
    expect(billease).toMatch(/name="fields\[customer\.contact\.email\]" type="email"[^>]*required/);
    expect(billease).toContain('BillEase needs these details to take the payment.');
    // The card form and GCash keep the link's fields: no phone.
    expect(panel((await page('/pay/acme-books?method=gcash')).html, 'gcash')).not.toContain('customer.contact.mobile');
    expect((await page('/pay/acme-books')).html).not.toContain('id="f-customer-contact-mobile"');
  });

  it('speaks Filipino and Spanish', async () => {
    const fil = (await page('/pay/pm-ordered?lang=fil')).html;
    expect(fil).toContain('id="method-choice-title">Paano mo gustong magbayad?</h2>');
    expect(panel(fil, 'gcash')).toContain('Dadalhin ka sa GCash para aprubahan ang ₱300.00.');
    expect(panel((await page('/pay/pm-ordered?lang=fil&method=dob')).html, 'dob')).toContain('<legend>Ang iyong bangko</legend>');
    const es = (await page('/pay/pm-ordered?lang=es')).html;
    expect(es).toContain('>Banca en línea</span>');
    expect(panel(es, 'gcash')).toContain('>Continuar a GCash</button>');
  });
});

describe('checkout page › a QR Ph code out', () => {
  const values = { 'customer.first_name': 'Juan', 'customer.last_name': 'Dela Cruz', 'customer.contact.email': 'juan@example.com' };

  it('shows the code drawn from the attempt, the amount, the time left, a PNG to download and “I have paid”', async () => {
    const token = await checkout('pm-qr');
    await qrAttempt(token, new Date(clock.getTime() + 30 * 60_000), values);
    const { status, html } = await page(`/checkout/${token}`);
    expect(status).toBe(200);
    expect(html).toContain('data-testid="qr-panel"');
    expect(html).toMatch(
      /<div class="qr-code" role="img" aria-label="QR Ph code to pay ₱450.00 to Acme Books"><svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*viewBox="0 0 \d+ \d+"/,
    );
    expect(html).toContain('<time datetime="PT1800S" data-qr-clock>30:00</time>');
    expect(html).toContain(`<a class="button-secondary" href="/checkout/${token}/qr.png" download="qrph-payment.png"`);
    // "I have paid" without script: a POST that asks the acquirer and comes back here.
    expect(html).toContain(`<form method="post" action="/checkout/${token}/status" data-qr-check><button class="pay" type="submit">I have paid</button>`);
    // No other way while the code is payable (the method endpoint refuses one until it expires).
    expect(html).not.toContain('?choose=1');
    expect(html).not.toContain('method-choice');
    expect(html).not.toContain('autocomplete="cc-number"');
  });

  it('counts the time left at each view, never from a kept rendering', async () => {
    const token = await checkout('pm-qr');
    await qrAttempt(token, new Date(clock.getTime() + 10 * 60_000), values);
    expect((await page(`/checkout/${token}`)).html).toContain('>10:00</time>');
    clock = new Date(clock.getTime() + 95_000);
    expect((await page(`/checkout/${token}`)).html).toContain('>8:25</time>');
  });

  it('offers a new code once it expired, posting QR Ph again with what the customer gave, and the other methods', async () => {
    const token = await checkout('pm-qr');
    await qrAttempt(token, new Date(clock.getTime() - 1000), values);
    const { html } = await page(`/checkout/${token}?lang=fil`);
    expect(html).toContain('data-testid="qr-expired"');
    expect(html).toContain('Nag-expire na ang QR code na ito');
    expect(html).not.toContain('qr-code');
    const renew = /<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/.exec(html.slice(html.indexOf('qr-expired')))!;
    expect(renew[1]).toBe(`/checkout/${token}/method`);
    expect(renew[2]).toContain('<input type="hidden" name="method" value="qrph">');
    expect(renew[2]).toContain('<input type="hidden" name="fields[customer.contact.email]" value="juan@example.com">');
    expect(renew[2]).toContain('>Kumuha ng bagong QR code</button>');
    // Another way: the choice again, on this checkout.
    expect(html).toContain(`<a href="/checkout/${token}?choose=1">Magbayad sa ibang paraan</a>`);
    const choose = (await page(`/checkout/${token}?choose=1`)).html;
    expect(choice(choose).methods).toHaveLength(9);
    expect(panel(choose, 'qrph')).toMatch(new RegExp(`action="/checkout/${token}/method"`));
    // A method chosen there opens its panel, not the expired code.
    expect(panel((await page(`/checkout/${token}?method=gcash`)).html, 'gcash')).toContain('>Continue to GCash</button>');
  });

  it('says in the customer’s language why they are back without paying, opens on that method and keeps what they typed', async () => {
    const token = await checkout('pm-qr');
    const tokenHash = hashSessionToken(token);
    await t.app.db
      .update(checkoutSessions)
      .set({ providerAttempt: { attempt: 1, amountMinor: '45000', customerValues: values, method: 'gcash' } })
      .where(eq(checkoutSessions.tokenHash, tokenHash));
    t.app.sessionCache.changed();
    const { html } = await page(`/checkout/${token}?payment=cancelled&lang=fil`);
    expect(html).toContain('Bumalik ka mula sa GCash nang hindi nagbabayad. Hindi ka sinisingil.');
    expect(choice(html).checked).toBe('gcash');
    expect(panel(html, 'gcash')).toContain(
      'name="fields[customer.contact.email]" type="email" autocomplete="email" inputmode="email" required value="juan@example.com"',
    );
    expect((await page(`/checkout/${token}?payment=expired`)).html).toContain('The time to authorise the payment at GCash ran out.');
    expect((await page(`/checkout/${token}?payment=processing_error&lang=es`)).html).toContain('GCash no aceptó el pago. No se te ha cobrado.');
    // Something that is not a decline code says nothing.
    expect((await page(`/checkout/${token}?payment=<b>x</b>`)).html).not.toContain('method-outcome');
  });

  it('says why a method’s form was refused without script, on the method chosen, with the fields marked', async () => {
    const { html } = await page('/pay/acme-books?method_error=ER.01.00&method=billease&field=customer.contact.mobile');
    expect(html).toContain('<p class="alert" role="alert" data-testid="method-refused">Check the details marked below.</p>');
    expect(choice(html).checked).toBe('billease');
    expect(panel(html, 'billease')).toMatch(
      /name="fields\[customer\.contact\.mobile\]"[^>]*aria-invalid="true" aria-describedby="billease-customer-contact-mobile-error"/,
    );
    expect(panel(html, 'billease')).toContain('<p class="field-error" id="billease-customer-contact-mobile-error">Check this entry.</p>');
    expect(panel(html, 'billease')).not.toMatch(/contact\.email\]"[^>]*aria-invalid/);
    const fil = (await page('/pay/acme-books?lang=fil&method_error=ER.03.40&method=gcash')).html;
    expect(fil).toContain(`data-testid="method-refused">${tr('fil', 'refusal.method_unavailable')}</p>`);
  });

  it(`loads at most ${CHECKOUT_JS_BUDGET / 1024} KB of JavaScript (gzip): its watcher, no card island; every inline script by its hash`, async () => {
    const token = await checkout('pm-qr');
    await qrAttempt(token, new Date(clock.getTime() + 30 * 60_000), values);
    const { html, csp } = await page(`/checkout/${token}`);
    const weight = await measurePageScripts(server.url, html);
    console.info(`QR page JS: ${weight.totalGzip} B gzip in ${weight.scripts.map((s) => `${s.name} ${s.gzip}`).join(', ')}`);
    expect(weight.scripts.some((s) => s.name.includes('CardForm'))).toBe(false);
    expect(weight.scripts.length).toBeGreaterThan(0);
    expect(weight.totalGzip).toBeLessThanOrEqual(CHECKOUT_JS_BUDGET);
    for (const hash of weight.inlineScriptHashes) expect(csp).toContain(`'${hash}'`);
    expect(html).not.toMatch(/\b(?:src|href|action)="(?:https?:)?\/\//);
  });
});
