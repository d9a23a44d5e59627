import { and, count, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { checkoutSessions, payments, rateLimits } from '../../../src/db/schema.ts';
import { call, OTHER_TOKEN, TEST_TOKEN, testDb, useServedApp } from '../../support/app.ts';
import { CARD_EXPIRY } from '../../support/cards.ts';
import { testClock } from '../../support/schedules.ts';

/**
 * Card testing on static links, and guessing on the API: a card attempt needs a ticket the
 * server issued, and velocity limits (counted in memory on PGlite, in the `rate_limits` table on
 * PostgreSQL) answer 429 with Retry-After once reached.
 */
const card = (number: string) => ({ number, expiry: CARD_EXPIRY, cvc: '123', name: 'Juan Dela Cruz' });
const fields = { 'customer.first_name': 'Juan', 'customer.last_name': 'Dela Cruz', 'customer.contact.email': 'juan@example.com' };
const DECLINES = '4000000000000002';
const INSUFFICIENT = '4000000000009995';
const GOOD = '4242424242424242';

type Served = ReturnType<typeof useServedApp>;

async function ticketFor(served: Served, slug = 'acme-books', headers: Record<string, string> = {}) {
  const html = await (await fetch(`${served.server.url}/pay/${slug}`, { headers })).text();
  return /&quot;session&quot;:\[0,&quot;([^&]+)&quot;\]/.exec(html)![1]!;
}
/** One card attempt on a static link with a fresh page (as a card tester reloading would). */
async function attempt(served: Served, number: string, opts: { ip?: string; slug?: string; ticket?: string; language?: string } = {}) {
  const headers: Record<string, string> = opts.ip ? { 'x-forwarded-for': opts.ip } : {};
  if (opts.language) headers['accept-language'] = opts.language;
  const ticket = opts.ticket ?? (await ticketFor(served, opts.slug, headers));
  const body: Record<string, unknown> = { session: ticket, fields, card: card(number) };
  if (opts.slug === 'acme-open') body.amount = '10.00';
  return call(served.server.url, 'POST', `/pay/${opts.slug ?? 'acme-books'}/pay`, { token: null, body, headers });
}
const paymentCount = async (served: Served) => (await served.t.app.db.select({ n: count() }).from(payments))[0]!.n;
const sessionCount = async (served: Served) => (await served.t.app.db.select({ n: count() }).from(checkoutSessions))[0]!.n;

function expectTooMany(res: Awaited<ReturnType<typeof call>>, code: string, words: RegExp) {
  expect(res.status, res.text).toBe(429);
  expect(res.json.data.status_code).toBe(code);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter > 0).toBe(true);
  expect(Object.values(res.json.messages).flat().join(' ')).toMatch(words);
}

describe('static link › session tickets', () => {
  const clock = testClock(new Date());
  const served = useServedApp({ now: clock.now });

  it('renders the page without storing anything', async () => {
    const before = await sessionCount(served);
    for (let i = 0; i < 20; i++) await ticketFor(served);
    expect(await sessionCount(served)).toBe(before);
  });

  it('refuses a session token the client made up, and a ticket whose signature is not the server’s', async () => {
    const before = { sessions: await sessionCount(served), payments: await paymentCount(served) };
    const madeUp = await attempt(served, GOOD, { ticket: 'A'.repeat(43) });
    expect(madeUp.status).toBe(422);
    expect(madeUp.json.messages.session).toEqual(['The payment form is out of date: reload the page']);
    const [token, issuedAt, mac] = (await ticketFor(served)).split('.') as [string, string, string];
    const forged = [
      `${'B'.repeat(43)}.${issuedAt}.${mac}`, // another session token under a real MAC
      `${token}.${Number(issuedAt) + 1}.${mac}`, // a later issue time
      `${token}.${issuedAt}.${'C'.repeat(43)}`, // a MAC made up
    ];
    for (const ticket of forged) {
      const res = await attempt(served, GOOD, { ticket });
      expect(res.status, ticket).toBe(404);
      expect(res.json.data.status_code).toBe('ER.03.20');
      expect(res.json.messages['(request)']).toEqual(['This payment form was not issued by this payment page. Reload the page, then pay there.']);
    }
    expect(await sessionCount(served)).toBe(before.sessions);
    expect(await paymentCount(served)).toBe(before.payments);
  });

  it('refuses a ticket issued for another link', async () => {
    const ticket = await ticketFor(served, 'acme-books');
    const res = await attempt(served, GOOD, { slug: 'acme-open', ticket });
    expect(res.status).toBe(404);
    expect(res.json.data.status_code).toBe('ER.03.20');
  });

  it('refuses a ticket older than the checkout lifetime that never became a session, and asks for a reload', async () => {
    const ticket = await ticketFor(served);
    const used = await ticketFor(served);
    expect((await attempt(served, DECLINES, { ticket: used })).json.data.status_code).toBe('ER.03.30');
    clock.advance(24 * 60 * 60 + 60);
    try {
      const stale = await attempt(served, GOOD, { ticket });
      expect(stale.status).toBe(410);
      expect(stale.json).toMatchObject({ data: { status_code: 'ER.03.21' }, messages: { '(request)': [expect.stringMatching(/Reload the page/)] } });
      // The session made from the other ticket expired with it: the session's own expiry rules.
      expect((await attempt(served, GOOD, { ticket: used })).json.data.status_code).toBe('ER.03.21');
      expect((await attempt(served, GOOD)).json.data.status_code).toBe('OK.03.00');
    } finally {
      clock.advance(-(24 * 60 * 60 + 60));
    }
  });

  it('keeps a session to its attempt limit however the ticket is spelled', async () => {
    const ticket = await ticketFor(served);
    for (let i = 0; i < 5; i++) await attempt(served, DECLINES, { ticket });
    const res = await attempt(served, GOOD, { ticket });
    expect(res.status).toBe(429);
    expect(res.json.data.status_code).toBe('ER.03.23');
  });
});

describe('velocity › card attempts per client address per link', () => {
  const served = useServedApp({ env: { PAYLINK_TRUST_PROXY: '1', PAYLINK_LIMIT_CARD_ATTEMPTS_PER_IP: '3/3600' } });

  it('answers the attempt after the limit with 429, Retry-After and plain words, whatever page it comes from', async () => {
    for (let i = 0; i < 3; i++) expect((await attempt(served, DECLINES, { ip: '198.51.100.7' })).json.data.status_code).toBe('ER.03.30');
    const before = await paymentCount(served);
    const res = await attempt(served, GOOD, { ip: '198.51.100.7' });
    expectTooMany(res, 'ER.03.25', /Too many payment attempts were made from your network\. Please wait \d+ minutes?, then try again\./);
    expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    expect(await paymentCount(served)).toBe(before);
  });

  it('says it in the customer’s language, the wait in their words', async () => {
    for (let i = 0; i < 3; i++) await attempt(served, DECLINES, { ip: '198.51.100.9' });
    const fil = await attempt(served, GOOD, { ip: '198.51.100.9', language: 'fil-PH' });
    expectTooMany(fil, 'ER.03.25', /^Masyadong maraming pagsubok magbayad mula sa iyong network\. Maghintay ng \d+ minuto, saka subukan ulit\.$/);
    const es = await attempt(served, GOOD, { ip: '198.51.100.9', language: 'es' });
    expectTooMany(es, 'ER.03.25', /^Se hicieron demasiados intentos de pago desde tu red\. Espera \d+ minutos? y vuelve a intentarlo\.$/);
  });

  it('counts each client address (IPv6 by its /64) and each link on its own', async () => {
    expect((await attempt(served, GOOD, { ip: '198.51.100.8' })).json.data.status_code).toBe('OK.03.00');
    expect((await attempt(served, GOOD, { ip: '198.51.100.7', slug: 'acme-open' })).json.data.status_code).toBe('OK.03.00');
    for (const ip of ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:ffff::3']) await attempt(served, DECLINES, { ip });
    expect((await attempt(served, GOOD, { ip: '2001:db8:1:2::99' })).status).toBe(429);
    expect((await attempt(served, GOOD, { ip: '2001:db8:1:3::1' })).json.data.status_code).toBe('OK.03.00');
  });

  it('believes only the last X-Forwarded-For entry, the one the proxy appended', async () => {
    const res = await attempt(served, GOOD, { ip: '203.0.113.50, 198.51.100.7' });
    expect(res.status).toBe(429);
  });

  it('counts on PostgreSQL in the rate_limits table, shared by every process', async () => {
    const rows = await served.t.app.db.select({ n: count() }).from(rateLimits);
    expect(rows[0]!.n > 0).toBe(testDb === 'postgres');
  });
});

describe('velocity › X-Forwarded-For without a trusted proxy', () => {
  const served = useServedApp({ env: { PAYLINK_LIMIT_CARD_ATTEMPTS_PER_IP: '2/3600' } });

  it('is ignored: the connection’s address is counted', async () => {
    await attempt(served, DECLINES, { ip: '198.51.100.1' });
    await attempt(served, DECLINES, { ip: '198.51.100.2' });
    expect((await attempt(served, GOOD, { ip: '198.51.100.3' })).status).toBe(429);
  });
});

describe('velocity › card attempts per static link', () => {
  const served = useServedApp({ env: { PAYLINK_TRUST_PROXY: '1', PAYLINK_LIMIT_CARD_ATTEMPTS_PER_LINK: '4/3600' } });

  it('limits attempts on one static link from everyone together, and leaves other links and dynamic checkouts alone', async () => {
    for (let i = 1; i <= 4; i++) await attempt(served, DECLINES, { ip: `192.0.2.${i}` });
    expectTooMany(await attempt(served, GOOD, { ip: '192.0.2.99' }), 'ER.03.25', /This payment page is receiving too many payment attempts right now/);
    expect((await attempt(served, GOOD, { ip: '192.0.2.99', slug: 'acme-open' })).json.data.status_code).toBe('OK.03.00');
    const link = await call(served.server.url, 'POST', '/pay/acme-books', { token: null, body: { key: TEST_TOKEN } });
    const token = new URL(link.json.link).pathname.split('/')[2]!;
    const paid = await call(served.server.url, 'POST', `/checkout/${token}/pay`, { token: null, body: { fields, card: card(GOOD) } });
    expect(paid.json.data.status_code).toBe('OK.03.00');
  });
});

describe('velocity › declines per card', () => {
  const served = useServedApp({ env: { PAYLINK_TRUST_PROXY: '1', PAYLINK_LIMIT_DECLINES_PER_CARD: '2/86400' } });

  it('refuses a card declined too often before it reaches the acquirer, from any address, page or form', async () => {
    await attempt(served, INSUFFICIENT, { ip: '192.0.2.1' });
    await attempt(served, INSUFFICIENT, { ip: '192.0.2.2', slug: 'acme-open' });
    const before = await paymentCount(served);
    const res = await attempt(served, INSUFFICIENT, { ip: '192.0.2.3' });
    expectTooMany(res, 'ER.03.25', /This card has been declined too many times\. Use another card/);
    expect(await paymentCount(served)).toBe(before);
    // Spelled with spaces it is the same card.
    expect((await attempt(served, '4000 0000 0000 9995', { ip: '192.0.2.4' })).status).toBe(429);
    const registration = await call(served.server.url, 'POST', '/api/v1/card-registrations', { body: {} });
    const page = new URL(registration.json.data.link).pathname;
    const register = await call(served.server.url, 'POST', `${page}/card`, { token: null, body: { card: card(INSUFFICIENT) } });
    expect(register.status).toBe(429);
    expect((await attempt(served, GOOD, { ip: '192.0.2.3' })).json.data.status_code).toBe('OK.03.00');
  });
});

describe('velocity › decline reasons', () => {
  const served = useServedApp({ env: { PAYLINK_LIMIT_DECLINE_REASONS: '2/3600' } });

  it('says why a card was declined at first, then only that it was declined; the transaction keeps the reason', async () => {
    const first = await attempt(served, INSUFFICIENT);
    expect(first.json.data).toMatchObject({ status_code: 'ER.03.30', decline_code: 'insufficient_funds' });
    expect(first.json.messages.card[0]).toMatch(/insufficient funds/);
    await attempt(served, '4000000000000127');
    const third = await attempt(served, INSUFFICIENT);
    expect(third.json.data).toMatchObject({ status_code: 'ER.03.30', decline_code: 'card_declined' });
    expect(third.json.messages.card[0]).toMatch(/^Your card was declined\. Try another card or contact your bank\./);
    expect(third.json.messages.card[0]).not.toMatch(/insufficient|security code/i);
    const [payment] = await served.t.app.db.select().from(payments).where(eq(payments.id, third.json.data.transaction_id));
    expect(payment!.failureCode).toBe('insufficient_funds');
  });
});

describe('velocity › API requests per integrator', () => {
  const served = useServedApp({ env: { PAYLINK_LIMIT_API_REQUESTS: '3/60' } });

  it('answers the request after the limit with 429 ER.02.43 and Retry-After; another integrator is unaffected', async () => {
    for (let i = 0; i < 3; i++) expect((await call(served.server.url, 'GET', '/api/v1/integrator')).status).toBe(200);
    const res = await call(served.server.url, 'GET', '/api/v1/integrator');
    expectTooMany(res, 'ER.02.43', /more than 3 requests in 60 seconds with this API token; retry in/);
    expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect((await call(served.server.url, 'POST', '/pay/acme-books', { token: null, body: { key: TEST_TOKEN } })).status).toBe(429);
    expect((await call(served.server.url, 'GET', '/api/v1/integrator', { token: OTHER_TOKEN })).status).toBe(200);
  });
});

describe('velocity › failed authentications per client address', () => {
  const served = useServedApp({ env: { PAYLINK_TRUST_PROXY: '1', PAYLINK_LIMIT_AUTH_FAILURES: '3/900' } });
  const from = (ip: string, token: string | null) => call(served.server.url, 'GET', '/api/v1/integrator', { token, headers: { 'x-forwarded-for': ip } });

  it('refuses an address that sent too many unknown tokens, even with a good one, until the window ends', async () => {
    for (let i = 0; i < 3; i++) expect((await from('198.51.100.20', `guess-${i}-0123456789abcdefghij`)).status).toBe(401);
    expectTooMany(await from('198.51.100.20', TEST_TOKEN), 'ER.01.02', /unknown API token or link key; try again in \d+ minutes/);
    expect((await from('198.51.100.21', TEST_TOKEN)).status).toBe(200);
  });

  it('does not count a request that sends no token at all', async () => {
    for (let i = 0; i < 5; i++) expect((await from('198.51.100.22', null)).status).toBe(401);
    expect((await from('198.51.100.22', TEST_TOKEN)).status).toBe(200);
  });

  it("counts a dynamic link's wrong key too, before its body is parsed", async () => {
    const post = (key: string) =>
      call(served.server.url, 'POST', '/pay/acme-books', { token: null, body: { key }, headers: { 'x-forwarded-for': '198.51.100.23' } });
    for (let i = 0; i < 3; i++) expect((await post(`wrong-key-${i}-0123456789abcdefghij`)).status).toBe(401);
    expect((await post(TEST_TOKEN)).status).toBe(429);
    const counted = await served.t.app.db
      .select({ n: count() })
      .from(rateLimits)
      .where(and(like(rateLimits.key, '%authFailures%')));
    expect(counted[0]!.n > 0).toBe(testDb === 'postgres');
  });
});
