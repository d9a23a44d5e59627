import { describe, expect, it } from 'vitest';
import { findSessionByToken, issueStaticTicket } from '../../../src/domain/checkout/sessions.ts';
import { findActiveLink } from '../../../src/domain/links/service.ts';
import { call, TEST_TOKEN, useServedApp } from '../../support/app.ts';

/**
 * The HTTP contract of paying by a local method (built server, PGlite and PostgreSQL): the start
 * endpoints in JSON and as a no-script form, the status poll and "I have paid" button, the
 * return, and the sandbox's scan and authorisation pages.
 */
const served = useServedApp();
const customer = { 'customer.first_name': 'Juan', 'customer.last_name': 'Dela Cruz', 'customer.contact.email': 'juan@example.com' };

async function checkout(slug = 'acme-books') {
  const res = await call(served.server.url, 'POST', `/pay/${slug}`, { token: null, body: { key: TEST_TOKEN } });
  return new URL(res.json.link).pathname.split('/')[2]!;
}
const start = (path: string, body: Record<string, unknown>) => call(served.server.url, 'POST', path, { token: null, body: { fields: customer, ...body } });
const form = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(served.server.url + path, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
const get = (path: string, headers: Record<string, string> = {}) => fetch(served.server.url + path, { redirect: 'manual', headers });
const customerForm = Object.fromEntries(Object.entries(customer).map(([k, v]) => [`fields[${k}]`, v]));

describe('POST /checkout/{token}/method (JSON)', () => {
  it('QR Ph answers OK.03.01 with the checkout page that shows the code', async () => {
    const token = await checkout();
    const res = await start(`/checkout/${token}/method`, { method: 'qrph' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ data: { status_code: 'OK.03.01', method: 'qrph', checkout_url: `/checkout/${token}` } });
  });

  it('the card brands show beside the card form only: not on the page that shows a QR Ph code, nor an e-wallet chosen', async () => {
    const token = await checkout();
    expect(await (await get(`/checkout/${token}`)).text()).toContain('data-testid="accepted-cards"');
    expect(await (await get(`/checkout/${token}?method=gcash`)).text()).not.toContain('data-testid="accepted-cards"');
    await start(`/checkout/${token}/method`, { method: 'qrph' });
    const page = await (await get(`/checkout/${token}`)).text();
    expect(page).toContain('data-testid="qr-download"');
    expect(page).not.toContain('data-testid="accepted-cards"');
  });

  it('an e-wallet answers OK.03.01 with the authorisation page', async () => {
    const token = await checkout();
    const res = await start(`/checkout/${token}/method`, { method: 'gcash' });
    expect(res.json).toMatchObject({
      data: { status_code: 'OK.03.01', method: 'gcash', next_action_url: expect.stringMatching(/\/sandbox\/authorise\/sbp_[0-9a-f]{24}$/) },
    });
  });

  it('refuses with field messages in the envelope (bank missing), and a method the page does not take', async () => {
    const token = await checkout();
    const bank = await start(`/checkout/${token}/method`, { method: 'dob' });
    expect(bank.status).toBe(422);
    expect(bank.json).toMatchObject({ data: { status_code: 'ER.02.30' }, messages: { bank: ['Choose your bank'] } });
    const card = await start(`/checkout/${token}/method`, { method: 'card' });
    expect(card.status).toBe(409);
    expect(card.json).toMatchObject({ data: { status_code: 'ER.03.40' } });
  });

  it('refuses JSON from another site', async () => {
    const token = await checkout();
    const res = await call(served.server.url, 'POST', `/checkout/${token}/method`, {
      token: null,
      body: { method: 'qrph', fields: customer },
      headers: { origin: 'https://evil.example' },
    });
    expect(res.json).toMatchObject({ data: { status_code: 'ER.02.44' } });
  });

  it('answers an unknown checkout with ER.03.20, never a 5xx', async () => {
    const res = await start('/checkout/nope/method', { method: 'qrph' });
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ data: { status_code: 'ER.03.20' } });
  });
});

describe('POST /pay/{slug}/method', () => {
  it("takes the page's ticket like the card form; a second start answers the same attempt", async () => {
    const link = (await findActiveLink(served.t.app.db, 'acme-books'))!;
    const session = issueStaticTicket(served.t.app, link.link.id);
    const first = await start('/pay/acme-books/method', { method: 'gcash', session });
    const again = await start('/pay/acme-books/method', { method: 'gcash', session });
    expect(first.json.data.status_code).toBe('OK.03.01');
    expect(again.json.data).toEqual(first.json.data);
  });
});

describe('method start as a no-script form post', () => {
  it('303s to the authorisation page, or to the checkout page for a QR code', async () => {
    const token = await checkout();
    const redirect = await form(`/checkout/${token}/method`, { method: 'paymaya', ...customerForm });
    expect(redirect.status).toBe(303);
    expect(redirect.headers.get('location')).toMatch(/\/sandbox\/authorise\/sbp_[0-9a-f]{24}$/);
    const other = await checkout();
    const qr = await form(`/checkout/${other}/method`, { method: 'qrph', ...customerForm });
    expect(qr.headers.get('location')).toBe(`/checkout/${other}`);
  });

  it('a refusal 303s back to the page with the code, the method and each field', async () => {
    const token = await checkout();
    const res = await form(`/checkout/${token}/method`, { method: 'dob', 'fields[customer.first_name]': 'Juan' });
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get('location')!, served.server.url);
    expect(back.pathname).toBe(`/checkout/${token}`);
    expect(back.searchParams.get('method_error')).toBe('ER.02.30');
    expect(back.searchParams.get('method')).toBe('dob');
    expect(back.searchParams.getAll('field').sort()).toEqual(['bank', 'customer.contact.email', 'customer.contact.mobile', 'customer.last_name']);
  });

  it('refuses text the database cannot store without a 5xx or an error log', async () => {
    const token = await checkout();
    const from = served.t.logs.length;
    const res = await form(`/checkout/${token}/method`, { method: 'qrph', ...customerForm, 'fields[customer.first_name]': 'Ju\u0000an' });
    expect(res.headers.get('location')).toBe(`/checkout/${token}?method_error=ER.02.30`);
    expect(served.t.logs.slice(from).filter((l) => JSON.parse(l).level === 'error')).toEqual([]);
  });

  it('refuses a form posted from another site: back to the page, nothing started', async () => {
    const token = await checkout();
    const res = await form(
      `/checkout/${token}/method`,
      { method: 'qrph', ...customerForm },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    );
    expect(res.headers.get('location')).toBe(`/checkout/${token}?method_error=ER.02.44`);
    expect((await call(served.server.url, 'GET', `/checkout/${token}/status`, { token: null })).json.data).toMatchObject({ status: 'open' });
  });
});

describe('GET|POST /checkout/{token}/status', () => {
  it('answers the status in the envelope; unknown checkouts 404', async () => {
    const token = await checkout();
    await start(`/checkout/${token}/method`, { method: 'qrph' });
    const res = await call(served.server.url, 'GET', `/checkout/${token}/status`, { token: null });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ data: { status_code: 'OK.00.00', status: 'awaiting_scan', method: 'qrph', qr_expires_at: expect.stringMatching(/Z$/) } });
    expect((await call(served.server.url, 'GET', '/checkout/nope/status', { token: null })).json).toMatchObject({ data: { status_code: 'ER.03.20' } });
  });

  it('"I have paid" syncs and 303s back to the checkout page', async () => {
    const token = await checkout();
    const res = await fetch(`${served.server.url}/checkout/${token}/status`, { method: 'POST', redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/checkout/${token}`);
  });
});

describe('GET /checkout/{token}/qr.svg|png', () => {
  it('draws the QR Ph code the checkout waits on, a new one once renewed; 404 when none waits', async () => {
    const token = await checkout();
    expect((await get(`/checkout/${token}/qr.svg`)).status).toBe(404);
    await start(`/checkout/${token}/method`, { method: 'qrph' });
    const svg = await get(`/checkout/${token}/qr.svg`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.headers.get('cache-control')).toBe('private, no-cache');
    expect(await svg.text()).toContain('<svg');
    const png = await get(`/checkout/${token}/qr.png`);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect((await get(`/checkout/${token}/qr.svg`, { 'if-none-match': svg.headers.get('etag')! })).status).toBe(304);
    // Paid another way: no code waits any more.
    await start(`/checkout/${token}/method`, { method: 'gcash' });
    expect((await get(`/checkout/${token}/qr.svg`)).status).toBe(404);
  });
});

describe('sandbox scan and authorisation pages', () => {
  it('the scan page says test mode, the merchant, the amount and the method, in the customer language; approving pays', async () => {
    const token = await checkout();
    await start(`/checkout/${token}/method`, { method: 'qrph' });
    const status = await call(served.server.url, 'GET', `/checkout/${token}/status`, { token: null });
    expect(status.json.data.status).toBe('awaiting_scan');
    const id = await sandboxIdOf(token);
    const page = await get(`/sandbox/scan/${id}?lang=fil`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Test mode: ito ang sandbox');
    expect(html).toContain('Acme Books');
    expect(html).toContain('QR Ph');
    expect(html).toMatch(/250\.00/);
    const answered = await form(`/sandbox/scan/${id}/answer`, { answer: 'approve' }, { origin: served.server.url });
    expect(answered.status).toBe(303);
    expect(answered.headers.get('location')).toBe(`/sandbox/scan/${id}`);
    expect((await call(served.server.url, 'GET', `/checkout/${token}/status`, { token: null })).json.data).toMatchObject({
      status: 'succeeded',
      method: 'qrph',
    });
    expect(await (await get(`/sandbox/scan/${id}`)).text()).toContain('data-status="succeeded"');
  });

  it('an unknown id is a 404 page; an answer from another site is refused', async () => {
    expect((await get('/sandbox/scan/sbp_000000000000000000000000')).status).toBe(404);
    expect((await get('/sandbox/authorise/whatever')).status).toBe(404);
    const token = await checkout();
    await start(`/checkout/${token}/method`, { method: 'qrph' });
    const id = await sandboxIdOf(token);
    const refused = await form(`/sandbox/scan/${id}/answer`, { answer: 'approve' }, { origin: 'https://evil.example' });
    expect(refused.status).toBe(403);
    // Only the two kinds of page exist: another is a 404, its answer a 404 envelope, and nothing is paid.
    expect((await get(`/sandbox/pay/${id}`)).status).toBe(404);
    const other = await form(`/sandbox/pay/${id}/answer`, { answer: 'approve' });
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ data: { status_code: 'ER.02.34' } });
    expect((await call(served.server.url, 'GET', `/checkout/${token}/status`, { token: null })).json.data.status).toBe('awaiting_scan');
  });

  it('the authorisation page sends the customer back through the return address: authorised pays, back without paying cancels', async () => {
    const token = await checkout();
    const started = await start(`/checkout/${token}/method`, { method: 'gcash' });
    const id = String(started.json.data.next_action_url).split('/').pop()!;
    const html = await (await get(`/sandbox/authorise/${id}`)).text();
    expect(html).toContain('GCash');
    expect(html).toContain('data-testid="sandbox-expire"');
    const answered = await form(`/sandbox/authorise/${id}/answer`, { answer: 'approve' }, { origin: served.server.url });
    expect(answered.headers.get('location')).toBe(`${served.t.app.origin()}/checkout/${token}/return`);
    const back = await get(`/checkout/${token}/return`);
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(`/checkout/${token}`);
    expect((await call(served.server.url, 'GET', `/checkout/${token}/status`, { token: null })).json.data).toMatchObject({
      status: 'succeeded',
      method: 'gcash',
    });

    const other = await checkout();
    await start(`/checkout/${other}/method`, { method: 'grab_pay' });
    const cancelled = await get(`/checkout/${other}/return`);
    expect(cancelled.headers.get('location')).toBe(`/checkout/${other}?payment=cancelled`);
  });
});

async function sandboxIdOf(token: string): Promise<string> {
  return (await findSessionByToken(served.t.app.db, token))!.providerPaymentId!;
}
