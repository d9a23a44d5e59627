import { count } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { payments } from '../../../src/db/schema.ts';
import { call, TEST_TOKEN, useServedApp } from '../../support/app.ts';
import { CARD_EXPIRY } from '../../support/cards.ts';
import { rawExchange } from '../../support/raw-http.ts';

/**
 * The customer's forms (checkout, static link, hosted card registration) take same-origin JSON
 * only: a hostile page cannot make a visitor's browser pay or register a card. The API and the
 * dynamic link POST (server to server) are unaffected.
 */
const served = useServedApp({ env: { PUBLIC_URL: 'https://pay.acme.example' } });

const card = (number = '4242424242424242') => ({ number, expiry: CARD_EXPIRY, cvc: '123', name: 'Juan Dela Cruz' });
const fields = { 'customer.first_name': 'Juan', 'customer.last_name': 'Dela Cruz', 'customer.contact.email': 'juan@example.com' };

async function checkoutToken() {
  const res = await call(served.server.url, 'POST', '/pay/acme-books', { token: null, body: { key: TEST_TOKEN } });
  return new URL(res.json.link).pathname.split('/')[2]!;
}
async function staticTicket() {
  const html = await (await fetch(`${served.server.url}/pay/acme-books`)).text();
  return /&quot;session&quot;:\[0,&quot;([^&]+)&quot;\]/.exec(html)![1]!;
}
async function registrationToken() {
  const res = await call(served.server.url, 'POST', '/api/v1/card-registrations', { body: {} });
  return new URL(res.json.data.link).pathname.split('/')[2]!;
}

/** The three form endpoints, each with a body that would succeed from paylink's own page. */
const forms = async () => [
  { name: 'checkout', path: `/checkout/${await checkoutToken()}/pay`, body: { fields, card: card() } },
  { name: 'static link', path: '/pay/acme-books/pay', body: { session: await staticTicket(), fields, card: card() } },
  { name: 'card registration', path: `/register/${await registrationToken()}/card`, body: { card: card() } },
];

/** Sent as bytes, as `new Blob([json])` is: no Content-Type unless `headers` has one. */
const send = (path: string, body: unknown, headers: Record<string, string>) =>
  fetch(served.server.url + path, { method: 'POST', headers, body: new TextEncoder().encode(JSON.stringify(body)) }).then(async (res) => ({
    status: res.status,
    json: await res.json(),
  }));

const paymentCount = async () => (await served.t.app.db.select({ n: count() }).from(payments))[0]!.n;

describe('customer forms › cross-site requests', () => {
  it('refuses a no-cors fetch from another site (no Content-Type, foreign Origin) with 403 and charges nothing', async () => {
    const before = await paymentCount();
    for (const form of await forms()) {
      const res = await send(form.path, form.body, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' });
      expect(res.status, form.name).toBe(403);
      expect(res.json).toMatchObject({ status: 403, data: { status_code: 'ER.02.44' } });
    }
    expect(await paymentCount()).toBe(before);
  });

  it('refuses a foreign Origin even with a JSON Content-Type, and Sec-Fetch-Site: same-site or cross-site alone', async () => {
    for (const form of await forms()) {
      const json = { 'content-type': 'application/json' };
      expect((await send(form.path, form.body, { ...json, origin: 'https://evil.example' })).status, form.name).toBe(403);
      expect((await send(form.path, form.body, { ...json, origin: 'null' })).status, form.name).toBe(403);
      expect((await send(form.path, form.body, { ...json, 'sec-fetch-site': 'same-site' })).status, form.name).toBe(403);
      expect((await send(form.path, form.body, { ...json, 'sec-fetch-site': 'cross-site' })).status, form.name).toBe(403);
    }
  });

  it('refuses a body without Content-Type: application/json with 415, even from the same origin', async () => {
    for (const form of await forms()) {
      const origin = 'https://pay.acme.example';
      const none = await send(form.path, form.body, { origin, 'sec-fetch-site': 'same-origin' });
      expect(none.status, form.name).toBe(415);
      expect(none.json.data.status_code).toBe('ER.02.32');
      const text = await send(form.path, form.body, { origin, 'content-type': 'text/plain' });
      expect(text.status, form.name).toBe(415);
    }
  });

  it('accepts same-origin JSON from PUBLIC_URL', async () => {
    const [checkout, staticLink, registration] = await forms();
    const own = { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' };
    expect((await send(checkout!.path, checkout!.body, { ...own, origin: 'https://pay.acme.example' })).json.data.status_code).toBe('OK.03.00');
    expect((await send(staticLink!.path, staticLink!.body, { ...own, origin: 'https://pay.acme.example' })).json.data.status_code).toBe('OK.03.00');
    // Without any browser header (curl, a server): nothing rides on a visitor's browser.
    expect((await send(registration!.path, registration!.body, { 'content-type': 'application/json' })).json.data.status_code).toBe('OK.11.00');
  });

  it('leaves the API and the dynamic link POST alone: no Content-Type needed, any Origin', async () => {
    const link = await send('/pay/acme-books', { key: TEST_TOKEN }, { origin: 'https://erp.acme.example' });
    expect(link.status).toBe(200);
    expect(link.json.link).toMatch(/\/checkout\//);
    const api = await send('/api/v1/card-registrations', {}, { authorization: TEST_TOKEN, origin: 'https://erp.acme.example' });
    expect(api.status).toBe(200);
  });
});

describe('customer forms › the origin is PUBLIC_URL when it is set, not the Host header', () => {
  it('refuses an Origin that matches only the Host the request names (a rebound hostile domain), and charges nothing', async () => {
    const before = await paymentCount();
    for (const form of await forms()) {
      // A page on evil.example whose name now resolves to paylink: its browser sends Host and Origin alike.
      const body = Buffer.from(JSON.stringify(form.body));
      const head = [
        `POST ${form.path} HTTP/1.1`,
        'Host: evil.example',
        'Origin: http://evil.example',
        'Sec-Fetch-Site: same-origin',
        'Content-Type: application/json',
        `Content-Length: ${body.length}`,
      ];
      const { responses } = await rawExchange(served.server.url, [`${head.join('\r\n')}\r\n\r\n`, body]);
      expect(responses[0]?.status, form.name).toBe(403);
      expect(JSON.parse(responses[0]!.body).data.status_code, form.name).toBe('ER.02.44');
      // The address the server was reached at is not PUBLIC_URL either.
      const direct = await send(form.path, form.body, { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', origin: served.server.url });
      expect(direct.status, form.name).toBe(403);
    }
    expect(await paymentCount()).toBe(before);
  });
});

describe('customer forms › without PUBLIC_URL', () => {
  const local = useServedApp();

  it('takes the origin the request was sent to', async () => {
    const res = await call(local.server.url, 'POST', '/api/v1/card-registrations', { body: {} });
    const path = `/register/${new URL(res.json.data.link).pathname.split('/')[2]!}/card`;
    const own = { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', origin: local.server.url };
    const sent = await fetch(local.server.url + path, { method: 'POST', headers: own, body: JSON.stringify({ card: card() }) });
    expect((await sent.json()).data.status_code).toBe('OK.11.00');
  });
});
