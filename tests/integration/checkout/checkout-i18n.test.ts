import { and, count, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions, outboxEvents, payments } from '../../../src/db/schema.ts';
import { renderEmail } from '../../../src/domain/notifications/email/templates.ts';
import { emailContext, storedEmailView } from '../../../src/domain/notifications/mail.ts';
import { locales, t as tr } from '../../../src/i18n/index.ts';
import { call, createTestApp, defaultSeed, provision, startTestServer, TEST_TOKEN, type TestApp } from '../../support/app.ts';
import { CARD_EXPIRY } from '../../support/cards.ts';

/**
 * The customer pages in each language over HTTP: every state a link can be in, the language chosen
 * by ?lang, the cookie, Accept-Language and the link's setting, and the headers that go with it.
 * Runs on PGlite and PostgreSQL.
 */
let t: TestApp;
let server: { url: string; close(): Promise<void> };

const seed = defaultSeed();
const base = { currency: 'PHP', labels: {}, fields: {}, active: true } as const;
seed.integrators[0]!.links.push(
  { ...base, slug: 'i18n-expired', title: 'Summer sale', amount: '10.00', expires_at: new Date(Date.now() - 3_600_000).toISOString() },
  { ...base, slug: 'i18n-once', title: 'Ticket', amount: '50.00', max_payments: 1 },
  { ...base, slug: 'i18n-system', title: 'Invoice', fields: { 'payment.merchant_reference_id': 'system' } },
  { ...base, slug: 'i18n-fil', title: 'Kape', amount: '1234.50', locale: 'fil' },
  { ...base, slug: 'i18n-open', title: 'Tip jar' },
);

const customer = { 'customer.first_name': 'Juan', 'customer.last_name': 'Dela Cruz', 'customer.contact.email': 'juan@example.com' };
const card = { number: '4242424242424242', expiry: CARD_EXPIRY, cvc: '123', name: 'Juan Dela Cruz' };

async function page(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(server.url + path, { headers });
  const html = await res.text();
  return { status: res.status, headers: res.headers, html, lang: /<html lang="([^"]+)"/.exec(html)?.[1], h1: /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1] };
}

beforeAll(async () => {
  t = await createTestApp();
  await provision(t, seed);
  server = await startTestServer(t.app);
  // Use up the single-use link.
  const html = (await page('/pay/i18n-once')).html;
  const session = /&quot;session&quot;:\[0,&quot;([A-Za-z0-9_.-]+)&quot;\]/.exec(html)![1];
  const paid = await call(server.url, 'POST', '/pay/i18n-once/pay', { token: null, body: { session, fields: customer, card } });
  expect(paid.json.data.status_code).toBe('OK.03.00');
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

describe('customer pages › every link state in every language', () => {
  const states = [
    ['i18n-expired', 'expired', 410],
    ['i18n-once', 'used_up', 410],
    ['i18n-system', 'dynamic_only', 404],
    ['no-such-link', 'not_found', 404],
  ] as const;
  for (const locale of locales) {
    for (const [slug, state, status] of states) {
      it(`${state} in ${locale}: ${status}, <html lang="${locale}">, its own words`, async () => {
        const res = await page(`/pay/${slug}?lang=${locale}`);
        expect(res.status).toBe(status);
        expect(res.lang).toBe(locale);
        expect(res.h1).toBe(tr(locale, `link.${state}.title`));
      });
    }
  }

  it('the words are really translated (a few anchors)', async () => {
    expect((await page('/pay/i18n-expired?lang=es')).h1).toBe('Este enlace de pago ha vencido');
    expect((await page('/pay/i18n-once?lang=fil')).h1).toBe('Nabayaran na ang payment link na ito');
    expect((await page('/pay/acme-books?lang=fil')).html).toContain('Magbayad ng ₱250.00');
  });
});

describe('customer pages › choosing the language', () => {
  it('?lang= sets a cookie the next page follows; an unknown ?lang is ignored and sets nothing', async () => {
    const chosen = await page('/pay/acme-books?lang=es');
    expect(chosen.lang).toBe('es');
    const cookie = chosen.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^paylink_lang=es;/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect((await page('/pay/acme-books', { cookie: 'paylink_lang=es', 'accept-language': 'fil' })).lang).toBe('es');
    const unknown = await page('/pay/acme-books?lang=xx', { 'accept-language': 'fil' });
    expect(unknown.lang).toBe('fil');
    expect(unknown.headers.get('set-cookie')).toBeNull();
    expect((await page('/pay/acme-books', { cookie: 'paylink_lang=<b>' })).lang).toBe('en');
  });

  it('Accept-Language by q-value, else the link’s setting, else English; the answer varies with both', async () => {
    const es = await page('/pay/i18n-fil', { 'accept-language': 'de;q=1, es;q=0.7, fil;q=0.2' });
    expect(es.lang).toBe('es');
    expect(es.headers.get('vary')).toMatch(/Accept-Language/);
    expect(es.headers.get('vary')).toMatch(/Cookie/);
    expect(es.html.replace(/\u00a0/g, ' ')).toContain('Pagar 1234,50 PHP');
    const linkSetting = await page('/pay/i18n-fil', { 'accept-language': 'de' });
    expect(linkSetting.lang).toBe('fil');
    expect(linkSetting.html).toContain('Magbayad ng ₱1,234.50');
    expect((await page('/pay/acme-books', { 'accept-language': 'de, fr;q=0.5' })).lang).toBe('en');
    expect((await page('/pay/acme-books', { 'accept-language': 'x'.repeat(5000) })).status).toBe(200);
  });

  it('a checkout and its receipt follow the same rules (dynamic link, Filipino by cookie)', async () => {
    const created = await call(server.url, 'POST', '/pay/acme-books', { token: null, body: { key: TEST_TOKEN } });
    const path = new URL(created.json.link as string).pathname;
    const open = await page(path, { 'accept-language': 'es-MX' });
    expect(open.lang).toBe('es');
    expect(open.html).toContain('Número de tarjeta');
    const paid = await call(server.url, 'POST', `${path}/pay`, { token: null, body: { fields: customer, card } });
    expect(paid.json.data.status_code).toBe('OK.03.00');
    const receipt = await page(path, { cookie: 'paylink_lang=fil' });
    expect(receipt.lang).toBe('fil');
    expect(receipt.h1).toBe('Natanggap ang bayad');
    expect(receipt.html).toContain('Visa na nagtatapos sa 4242');
  });
});

describe('customer e-mails › in the customer’s language', () => {
  async function payNotified(slug: string, headers: Record<string, string>) {
    const created = await call(server.url, 'POST', `/pay/${slug}`, {
      token: null,
      body: { key: TEST_TOKEN, route: { notify_user: true }, customer: { contact: { email: 'juan@example.com' } } },
    });
    const path = new URL(created.json.link as string).pathname;
    const paid = await call(server.url, 'POST', `${path}/pay`, { token: null, headers, body: { fields: customer, card } });
    expect(paid.json.data.status_code, paid.text).toBe('OK.03.00');
    const txn = paid.json.data.transaction_id as string;
    const events = await t.app.db
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.type, 'payment.succeeded'), eq(outboxEvents.emailTo, 'juan@example.com')));
    const mine = events.find((e) => e.data.transaction_id === txn)!;
    const view = storedEmailView(mine);
    const { merchant } = await emailContext(t.app.db, { integratorId: mine.integratorId, view });
    return { merchant, txn, mail: renderEmail({ type: mine.type, view, createdAt: mine.createdAt, merchant }) };
  }

  it('the browser’s language when paying is kept on the session and the e-mail speaks it', async () => {
    const { merchant, mail } = await payNotified('acme-books', { 'accept-language': 'es-MX,es;q=0.9' });
    expect(merchant.locale).toBe('es');
    expect(mail.subject).toMatch(/^Pago recibido: /);
    const sessions = await t.app.db.select({ locale: checkoutSessions.locale }).from(checkoutSessions).where(eq(checkoutSessions.locale, 'es'));
    expect(sessions.length).toBeGreaterThan(0);
  });

  it('the switcher’s cookie beats Accept-Language; with neither naming ours, the link’s setting decides', async () => {
    expect((await payNotified('acme-books', { cookie: 'paylink_lang=fil', 'accept-language': 'es' })).merchant.locale).toBe('fil');
    expect((await payNotified('i18n-fil', { 'accept-language': 'de' })).mail.subject).toMatch(/^Natanggap ang bayad: ₱1,234\.50/);
    expect((await payNotified('acme-books', { 'accept-language': 'de' })).merchant.locale).toBeUndefined();
  });
});

describe('refusals of a card submission, in the page’s language', () => {
  const dynamicCheckout = async () => {
    const created = await call(server.url, 'POST', '/pay/acme-books', { token: null, body: { key: TEST_TOKEN } });
    return new URL(created.json.link).pathname.split('/')[2]!;
  };
  const declined = { ...card, number: '4000000000000002' };
  const submit = (token: string, language: string) =>
    call(server.url, 'POST', `/checkout/${token}/pay`, { token: null, headers: { 'accept-language': language }, body: { fields: customer, card: declined } });

  it('a locked checkout says so in Spanish or Filipino, and keeps the server’s English otherwise', async () => {
    const token = await dynamicCheckout();
    let last = await submit(token, 'es');
    for (let i = 0; i < 10 && last.status !== 429; i++) last = await submit(token, 'es');
    expect(last.status).toBe(429);
    expect(last.json.data.status_code).toBe('ER.03.23');
    expect(last.json.messages['(request)']).toEqual([tr('es', 'refusal.locked')]);
    expect((await submit(token, 'fil-PH')).json.messages['(request)']).toEqual([tr('fil', 'refusal.locked')]);
    expect((await submit(token, 'de-DE,en;q=0.5')).json.messages['(request)']).toEqual([
      'Too many attempts were made with this payment link, so it is locked. Ask the merchant for a new one.',
    ]);
  });

  it('a refused card registration link says why in Spanish', async () => {
    const created = await call(server.url, 'POST', '/api/v1/card-registrations', { body: {} });
    const token = new URL(created.json.data.link).pathname.split('/')[2]!;
    const send = () =>
      call(server.url, 'POST', `/register/${token}/card`, { token: null, headers: { 'accept-language': 'es' }, body: { fields: {}, card: declined } });
    let last = await send();
    for (let i = 0; i < 10 && last.status !== 429; i++) last = await send();
    expect(last.status).toBe(429);
    expect(last.json.messages.token).toEqual([tr('es', 'refusal.registration_locked')]);
  });

  it('says how long to wait in the customer’s words', async () => {
    const { waitWords } = await import('../../../src/api/page-locale.ts');
    expect(waitWords(720, 'fil')).toBe('12 minuto');
    expect(waitWords(720, 'es')).toBe('12 minutos');
    expect(waitWords(30, 'en')).toBe('30 seconds');
    expect(waitWords(3 * 3600, 'es')).toBe('3 horas');
    expect(tr('fil', 'refusal.wait_network', { wait: waitWords(720, 'fil') })).toContain('Maghintay ng 12 minuto');
  });
});

describe('customer pages › a typed amount is read the way the page writes numbers', () => {
  const ticketOf = (html: string) => /&quot;session&quot;:\[0,&quot;([A-Za-z0-9_.-]+)&quot;\]/.exec(html)![1];
  const pay = async (lang: string, amount: string, amountLocale?: string) => {
    const session = ticketOf((await page(`/pay/i18n-open?lang=${lang}`)).html);
    return call(server.url, 'POST', '/pay/i18n-open/pay', {
      token: null,
      body: { session, amount, ...(amountLocale ? { amount_locale: amountLocale } : {}), fields: customer, card },
    });
  };
  const charged = async () => (await t.app.db.select({ n: count() }).from(payments)).at(0)!.n;

  it("the Spanish page's hint shows a decimal comma and the English one a decimal point", async () => {
    expect((await page('/pay/i18n-open?lang=es')).html).toContain('En PHP, escrito así: 1234,50');
    expect((await page('/pay/i18n-open?lang=en')).html).toContain('In PHP, written like 1,234.50');
  });

  it('"25,00" typed on the Spanish page is charged 25.00, and the receipt says so', async () => {
    const res = await pay('es', '25,00', 'es');
    expect(res.json.data.status_code).toBe('OK.03.00');
    const receipt = await page(res.json.data.redirect_url, { 'accept-language': 'es' });
    expect(receipt.html).toMatch(/data-testid="receipt-amount"[^>]*>25,00/);
    const [last] = await t.app.db.select({ amountMinor: payments.amountMinor }).from(payments).orderBy(desc(payments.createdAt)).limit(1);
    expect(last!.amountMinor).toBe(2500n);
  });

  it('"25,00" posted from the English page is refused with both readings, and nothing is charged', async () => {
    const before = await charged();
    const res = await pay('en', '25,00', 'en-US');
    expect(res.status).toBe(422);
    expect(res.json.data.status_code).toBe('ER.02.30');
    expect(res.json.messages).toEqual({ amount: ['The amount can be read two ways: write 25.00 or 2,500'] });
    expect(await charged()).toBe(before);
  });

  it('"25.00" posted from the Spanish page is refused in Spanish, and without a page language it reads as English', async () => {
    const es = await pay('es', '25.00', 'es');
    expect(es.json.messages).toEqual({ amount: ['El importe se puede leer de dos maneras: escribe 25,00 o 2.500'] });
    const plain = await pay('en', '1,500');
    expect(plain.json.data.status_code).toBe('OK.03.00');
  });
});
