import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declineMessages } from '../../../src/acquirer/acquirer.ts';
import { checkoutSessions, links, outboxEvents, payments, sandboxCharges } from '../../../src/db/schema.ts';
import { type PayRequest, payCheckout } from '../../../src/domain/checkout/pay.ts';
import { issueStaticTicket, loadCheckout, PROCESSING_LEASE_MS } from '../../../src/domain/checkout/sessions.ts';
import type { CardAttempt } from '../../../src/domain/checkout/velocity.ts';
import { findActiveLink } from '../../../src/domain/links/service.ts';
import { call, createTestApp, defaultSeed, OTHER_TOKEN, provision, sandboxOf, startTestServer, TEST_TOKEN, type TestApp } from '../../support/app.ts';
import { CARD_EXPIRY } from '../../support/cards.ts';

/**
 * Dynamic links, the checkout pay endpoint and the receipt, against the built server and a real
 * database (PGlite and PostgreSQL).
 */
let t: TestApp;
let server: { url: string; close(): Promise<void> };
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);

const seed = defaultSeed();
seed.integrators[0]!.links.push(
  {
    slug: 'acme-system',
    title: 'Acme invoice',
    currency: 'PHP',
    labels: { 'customer.first_name': 'Given name' },
    fields: { 'payment.merchant_reference_id': 'system', 'customer.contact.email': 'system', 'customer.contact.mobile': 'customer' },
    callback_url: 'https://hooks.acme.example/paylink',
    active: true,
  },
  { slug: 'acme-off', title: 'Gone', currency: 'PHP', amount: '1.00', labels: {}, fields: {}, active: false },
  { slug: 'acme-switch', title: 'Switched off later', currency: 'PHP', amount: '5.00', labels: {}, fields: {}, active: true },
  { slug: 'acme-single', title: 'Single use', currency: 'PHP', amount: '7.00', labels: {}, fields: {}, active: true, max_payments: 1 },
  { slug: 'acme-last', title: 'Last one', currency: 'PHP', amount: '9.00', labels: {}, fields: {}, active: true, max_payments: 1 },
  {
    slug: 'acme-shelf',
    title: 'Shelf',
    currency: 'PHP',
    amount: '12.00',
    labels: {},
    fields: {},
    active: true,
    callback_url: 'https://hooks.acme.example/shelf',
  },
  { slug: 'acme-gone', title: 'Past sale', currency: 'PHP', amount: '3.00', labels: {}, fields: {}, active: true, expires_at: '2020-01-01T00:00:00Z' },
);

const card = (number = '4242424242424242') => ({ number, expiry: CARD_EXPIRY, cvc: '123', name: 'Juan Dela Cruz' });
const customer = { 'customer.first_name': 'Juan', 'customer.last_name': 'Dela Cruz', 'customer.contact.email': 'juan@example.com' };

async function dynamicLink(slug = 'acme-books', body: Record<string, unknown> = {}) {
  const res = await call(server.url, 'POST', `/pay/${slug}`, { token: null, body: { key: TEST_TOKEN, ...body } });
  expect(res.status, res.text).toBe(200);
  const link = new URL(res.json.link);
  return { url: res.json.link as string, path: link.pathname, token: link.pathname.split('/')[2]! };
}

const pay = (token: string, body: Record<string, unknown>) => call(server.url, 'POST', `/checkout/${token}/pay`, { token: null, body });
const sessions = async () => (await t.app.db.select({ n: count() }).from(checkoutSessions))[0]!.n;

beforeAll(async () => {
  t = await createTestApp({ now: clock });
  await provision(t, seed);
  server = await startTestServer(t.app);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

describe('dynamic link', () => {
  it('answers a valid POST with {link}: an unguessable checkout address on this origin', async () => {
    const res = await call(server.url, 'POST', '/pay/acme-books', {
      token: null,
      body: { key: TEST_TOKEN, payment: { description: 'Order 42', merchant_reference_id: 'ord-42' } },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json)).toEqual(['link']);
    expect(res.json.link).toMatch(new RegExp(`^${server.url}/checkout/[A-Za-z0-9_-]{43}$`));
    // Its length is given, so a body this small is sent as it is, not compressed (src/api/envelope.ts).
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(res.text));
    expect(res.headers.get('content-encoding')).toBeNull();
  });

  it('accepts the amount as a number or a numeric string and notify_user as a boolean or a string', async () => {
    const a = await dynamicLink('acme-open', { payment: { amount: '120.50' }, route: { notify_user: 'true' } });
    const b = await dynamicLink('acme-open', { payment: { amount: 99.5, currency: 'PHP' }, route: { notify_user: false } });
    const rows = await t.app.db.select().from(checkoutSessions);
    expect(rows.filter((r) => r.kind === 'dynamic' && (r.amountMinor === 12050n || r.amountMinor === 9950n))).toHaveLength(2);
    const amounts = rows.map((r) => r.amountMinor);
    expect(amounts).toContain(12050n);
    expect(amounts).toContain(9950n);
    expect(rows.some((r) => r.amountMinor === 12050n && r.notifyUser)).toBe(true);
    expect(rows.some((r) => r.amountMinor === 9950n && !r.notifyUser)).toBe(true);
    expect(b.token).not.toBe(a.token);
  });

  it("refuses a wrong, missing or other integrator's key with 401 and creates nothing", async () => {
    const before = await sessions();
    for (const key of ['not-the-right-key-but-long-enough', OTHER_TOKEN, undefined]) {
      const res = await call(server.url, 'POST', '/pay/acme-books', { token: null, body: { key, payment: { amount: 1 } } });
      expect(res.status).toBe(401);
      expect(res.json.data.status_code).toBe('ER.01.01');
      expect(res.json.messages).toEqual({
        key: [
          key === undefined
            ? 'is required: send your link key (pk_link_…, Console → Developers) in the body field `key`'
            : "is neither the link key nor the API token of this link's owner",
        ],
      });
    }
    expect(await sessions()).toBe(before);
  });

  it('refuses an invalid body with 422 and messages by field path, creating nothing', async () => {
    const before = await sessions();
    const res = await call(server.url, 'POST', '/pay/acme-books', {
      token: null,
      body: {
        key: TEST_TOKEN,
        customer: { contact: { email: 'not-an-email', mobile: 'call me' }, billing_address: { country_code: 'XX' }, nickname: 'J' },
        payment: { amount: '12.345', currency: 'php' },
        route: { callback_url: 'ftp://example.com', notify_user: 'maybe' },
      },
    });
    expect(res.status).toBe(422);
    expect(res.json.data.status_code).toBe('ER.02.30');
    expect(Object.keys(res.json.messages).sort()).toEqual(
      [
        'customer.billing_address.country_code',
        'customer.contact.email',
        'customer.contact.mobile',
        'customer.nickname',
        'payment.currency',
        'route.callback_url',
        'route.notify_user',
      ].sort(),
    );
    const decimals = await call(server.url, 'POST', '/pay/acme-open', { token: null, body: { key: TEST_TOKEN, payment: { amount: '12.345' } } });
    expect(decimals.status).toBe(422);
    expect(decimals.json.messages['payment.amount'][0]).toMatch(/at most 2 decimal places/);
    expect(await sessions()).toBe(before);
  });

  it('answers an unknown or inactive link with 404 ER.03.10', async () => {
    for (const slug of ['no-such-link', 'acme-off']) {
      const res = await call(server.url, 'POST', `/pay/${slug}`, { token: null, body: { key: TEST_TOKEN } });
      expect(res.status).toBe(404);
      expect(res.json.data.status_code).toBe('ER.03.10');
    }
  });

  it('requires the fields the link marks as system-filled', async () => {
    const res = await call(server.url, 'POST', '/pay/acme-system', { token: null, body: { key: TEST_TOKEN, payment: { amount: '10.00' } } });
    expect(res.status).toBe(422);
    expect(Object.keys(res.json.messages).sort()).toEqual(['customer.contact.email', 'payment.merchant_reference_id']);
  });

  it('replays the first answer for the same Idempotency-Key', async () => {
    const body = { key: TEST_TOKEN, payment: { merchant_reference_id: 'idem-1' } };
    const first = await call(server.url, 'POST', '/pay/acme-books', { token: null, body, headers: { 'idempotency-key': 'dyn-1' } });
    const again = await call(server.url, 'POST', '/pay/acme-books', { token: null, body, headers: { 'idempotency-key': 'dyn-1' } });
    expect(again.json.link).toBe(first.json.link);
  });

  it('shows values the integrator sent read-only and asks only for the missing customer fields', async () => {
    const { path } = await dynamicLink('acme-system', {
      customer: { first_name: 'Maria', contact: { email: 'maria@example.com' } },
      payment: { amount: '75.00', merchant_reference_id: 'inv-77', description: 'Invoice 77' },
    });
    const page = await fetch(server.url + path);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('Invoice 77');
    expect(html).toContain('₱75.00');
    expect(html).toMatch(
      /<label for="f-customer-first_name">Given name<\/label><input id="f-customer-first_name" name="customer.first_name" value="Maria" readonly/,
    );
    expect(html).toMatch(/value="maria@example.com" readonly/);
    expect(html).toMatch(/<input id="f-customer-last_name"[^>]*required/);
    expect(html).toMatch(/<input id="f-customer-contact-mobile"[^>]*type="tel"/);
  });
});

describe('checkout', () => {
  it('charges the card, records the transaction with its event and lands on the receipt', async () => {
    const { token, path } = await dynamicLink('acme-system', {
      customer: { contact: { email: 'maria@example.com' } },
      payment: { amount: '75.00', merchant_reference_id: 'inv-78', description: 'Invoice 78' },
      route: { notify_user: true },
    });
    const res = await pay(token, {
      fields: {
        'customer.first_name': 'Maria',
        'customer.last_name': 'Santos',
        'customer.contact.mobile': '+63 917 123 4567',
        'customer.contact.email': 'ignored@example.com',
      },
      card: card(),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toMatchObject({ status_code: 'OK.03.00', redirect_url: path });
    const txn = res.json.data.transaction_id as string;
    const [payment] = await t.app.db.select().from(payments).where(eq(payments.id, txn));
    expect(payment).toMatchObject({
      status: 'succeeded',
      amountMinor: 7500n,
      currency: 'PHP',
      cardBrand: 'visa',
      cardLast4: '4242',
      merchantReferenceId: 'inv-78',
    });
    expect(payment!.customer).toMatchObject({
      'customer.first_name': 'Maria',
      'customer.contact.email': 'maria@example.com',
      'customer.contact.mobile': '+639171234567',
    });
    const [event] = await t.app.db.select().from(outboxEvents).where(eq(outboxEvents.type, 'payment.succeeded'));
    expect(event!.data).toMatchObject({
      transaction_id: txn,
      merchant_reference_id: 'inv-78',
      amount: '75.00',
      currency: 'PHP',
      callback_url: 'https://hooks.acme.example/paylink',
      notify_user: true,
    });
    const receipt = await (await fetch(server.url + path)).text();
    expect(receipt).toContain('Payment received');
    expect(receipt).toContain(txn);
    expect(receipt).toContain('Visa ending in 4242');
    expect(receipt).toContain('₱75.00');
    expect(receipt).toContain('Invoice 78');
    expect(receipt).toContain('Acme Books');
    // Reloading is safe and shows the same receipt.
    expect(await (await fetch(server.url + path)).text()).toContain(txn);
  });

  it('never charges a paid session twice', async () => {
    const { token, path } = await dynamicLink();
    expect((await pay(token, { fields: customer, card: card() })).json.data.status_code).toBe('OK.03.00');
    const again = await pay(token, { fields: customer, card: card('5555555555554444') });
    expect(again.status).toBe(409);
    expect(again.json.data).toMatchObject({ status_code: 'ER.03.22', redirect_url: path });
    const rows = await t.app.db
      .select()
      .from(payments)
      .where(eq(payments.checkoutSessionId, (await sessionOf(token)).id));
    expect(rows).toHaveLength(1);
  });

  it('charges once when the same session is submitted twice at the same moment', async () => {
    const { token } = await dynamicLink();
    const chargesBefore = (await t.app.db.select({ n: count() }).from(sandboxCharges))[0]!.n;
    const results = await Promise.all([
      pay(token, { fields: customer, card: card() }),
      pay(token, { fields: customer, card: card() }),
      pay(token, { fields: customer, card: card() }),
    ]);
    const codes = results.map((r) => r.json.data.status_code).sort();
    expect(codes.filter((c) => c === 'OK.03.00')).toHaveLength(1);
    for (const r of results.filter((r) => r.json.data.status_code !== 'OK.03.00')) {
      expect(r.status).toBe(409);
      expect(['ER.03.22', 'ER.03.24']).toContain(r.json.data.status_code);
    }
    const session = await sessionOf(token);
    const rows = await t.app.db.select().from(payments).where(eq(payments.checkoutSessionId, session.id));
    expect(rows.filter((p) => p.status === 'succeeded')).toHaveLength(1);
    expect((await t.app.db.select({ n: count() }).from(sandboxCharges))[0]!.n).toBe(chargesBefore + 1);
  });

  it('shows a decline in plain words, then lets the customer pay with another card', async () => {
    const { token } = await dynamicLink();
    const declined = await pay(token, { fields: customer, card: card('4000000000000002') });
    expect(declined.status).toBe(200);
    expect(declined.json.data).toMatchObject({ status_code: 'ER.03.30', decline_code: 'card_declined', attempts_left: 4 });
    expect(declined.json.messages.card[0]).toMatch(/declined/i);
    const [failed] = await t.app.db
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.type, 'payment.failed')));
    expect(failed!.data).toMatchObject({ status: 'failed', failure_code: 'card_declined' });
    const ok = await pay(token, { fields: customer, card: card() });
    expect(ok.json.data.status_code).toBe('OK.03.00');
    expect((await sessionOf(token)).attempts).toBe(2);
  });

  it('re-validates every field on the server and counts no attempt for invalid input', async () => {
    const { token } = await dynamicLink();
    const res = await pay(token, {
      fields: { 'customer.first_name': '', 'customer.contact.email': 'nope' },
      card: { number: '4242424242424241', expiry: '01/20', cvc: '12', name: '' },
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.json.messages).sort()).toEqual(
      ['card.cvc', 'card.name', 'card.number', 'customer.contact.email', 'customer.first_name', 'customer.last_name'].sort(),
    );
    const expired = await pay(token, { fields: customer, card: { ...card(), expiry: '01/20' } });
    expect(expired.json.messages['card.expiry'][0]).toMatch(/expired/);
    expect((await sessionOf(token)).attempts).toBe(0);
  });

  it('locks the session after the attempt limit', async () => {
    const limited = await createTestApp({ env: { PAYLINK_CHECKOUT_MAX_ATTEMPTS: '2' } });
    try {
      await provision(limited);
      const link = (await import('../../../src/domain/links/service.ts')).findActiveLink;
      const { createDynamicLink } = await import('../../../src/domain/checkout/dynamic.ts');
      const created = await createDynamicLink(limited.app, (await link(limited.app.db, 'acme-books'))!, { key: TEST_TOKEN });
      const attempt = (number: string) => payCheckout(limited.app, { token: created.token, input: { fields: customer, card: card(number) } });
      expect(await attempt('4000000000009995')).toMatchObject({ status: 'declined', code: 'insufficient_funds', attemptsLeft: 1 });
      expect(await attempt('4000000000000002')).toMatchObject({ status: 'declined', attemptsLeft: 0 });
      await expect(attempt('4242424242424242')).rejects.toMatchObject({ code: 'ER.03.23' });
      const [session] = await limited.app.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, created.sessionId));
      expect(session).toMatchObject({ status: 'locked', attempts: 2 });
      const ok = await limited.app.db
        .select()
        .from(payments)
        .where(and(eq(payments.checkoutSessionId, created.sessionId), eq(payments.status, 'succeeded')));
      expect(ok).toHaveLength(0);
    } finally {
      await limited.close();
    }
  });

  it('never charges twice when the answer of a charge was lost: the next submit resumes that attempt', async () => {
    const { token } = await dynamicLink();
    const session = await sessionOf(token);
    const sandbox = sandboxOf(t.app).acquirer;
    const charges = async () => (await t.app.db.select({ n: count() }).from(sandboxCharges))[0]!.n;
    const before = await charges();
    // The acquirer charges, then the connection drops before paylink hears the answer.
    sandboxOf(t.app).acquirer = Object.assign(Object.create(sandbox), {
      charge: async (...args: Parameters<typeof sandbox.charge>) => {
        await sandbox.charge(...args);
        throw new Error('connection reset after the charge');
      },
    });
    try {
      await expect(payCheckout(t.app, { token, input: { fields: customer, card: card() } })).rejects.toThrow('connection reset');
    } finally {
      sandboxOf(t.app).acquirer = sandbox;
    }
    expect(await charges()).toBe(before + 1);
    expect((await sessionOf(token)).attempts).toBe(1);
    // Another card cannot start a new attempt over an unknown outcome.
    await expect(payCheckout(t.app, { token, input: { fields: customer, card: card('5555555555554444') } })).rejects.toMatchObject({
      code: 'ER.03.24',
      message: 'Payment already in progress',
      messages: { '(request)': ['We are still confirming your previous payment attempt. Try again with the same card and amount, or contact the merchant.'] },
    });
    const warned = t.logs.filter((line) => line.includes('checkout: interrupted attempt could not be resumed')).map((line) => JSON.parse(line));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ sessionId: session.id, attempt: 1 });
    // The same card gets the charge that was made, recorded once.
    const outcome = await payCheckout(t.app, { token, input: { fields: customer, card: card() } });
    expect(outcome.status).toBe('succeeded');
    expect(await charges()).toBe(before + 1);
    const rows = await t.app.db.select().from(payments).where(eq(payments.checkoutSessionId, session.id));
    expect(rows.map((p) => [p.status, p.idempotencyKey])).toEqual([['succeeded', `checkout:${session.id}:1`]]);
    expect(await sessionOf(token)).toMatchObject({ status: 'paid', attempts: 1, processingAt: null });
  });

  it('holds a second attempt while one is at the acquirer, and resumes it after the lease if the process died', async () => {
    const { token } = await dynamicLink();
    const session = await sessionOf(token);
    // As if a process had claimed attempt 1 and died before recording its outcome.
    await t.app.db.update(checkoutSessions).set({ attempts: 1, processingAt: t.app.now() }).where(eq(checkoutSessions.id, session.id));
    const res = await pay(token, { fields: customer, card: card() });
    expect(res.status).toBe(409);
    expect(res.json.data.status_code).toBe('ER.03.24');
    offsetMs = 3 * 60 * 1000;
    try {
      const outcome = await payCheckout(t.app, { token, input: { fields: customer, card: card() } });
      expect(outcome.status).toBe('succeeded');
      expect(outcome.payment.idempotencyKey).toBe(`checkout:${session.id}:1`);
    } finally {
      offsetMs = 0;
    }
  });

  it('refuses an expired session and says so on its page', async () => {
    const { token, path } = await dynamicLink();
    offsetMs = (t.app.config.checkoutTtlSeconds + 60) * 1000;
    try {
      const res = await pay(token, { fields: customer, card: card() });
      expect(res.status).toBe(410);
      expect(res.json.data.status_code).toBe('ER.03.21');
      const page = await fetch(server.url + path);
      expect(page.status).toBe(410);
      expect(await page.text()).toContain('This payment link has expired');
    } finally {
      offsetMs = 0;
    }
  });

  it('answers an unknown checkout with a 404 page and a 404 envelope', async () => {
    const page = await fetch(`${server.url}/checkout/${'x'.repeat(43)}`);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('Payment not found');
    const res = await pay('x'.repeat(43), { fields: customer, card: card() });
    expect(res.status).toBe(404);
    expect(res.json.data.status_code).toBe('ER.03.20');
  });
});

describe('static link submissions (/pay/{slug}, payCheckout)', () => {
  const linkId = async (slug: string) => (await findActiveLink(t.app.db, slug))!.link.id;
  const submit = (slug: string, session: unknown, number = '4242424242424242') =>
    payCheckout(t.app, { slug, input: { session, fields: customer, card: card(number) } });
  const request = (code: string, text: string, more: { message?: string; say?: string } = {}) => ({ code, messages: { '(request)': [text] }, ...more });

  it('creates the session on the first valid submit and pays it; the same form again is told it is paid', async () => {
    const ticket = issueStaticTicket(t.app, await linkId('acme-shelf'));
    const outcome = await submit('acme-shelf', ticket);
    const token = ticket.split('.')[0]!;
    expect(outcome).toMatchObject({ status: 'succeeded', receiptPath: `/checkout/${token}`, payment: { amountMinor: 1200n, currency: 'PHP' } });
    expect(await sessionOf(token)).toMatchObject({
      kind: 'static',
      status: 'paid',
      attempts: 1,
      amountMinor: 1200n,
      description: 'Shelf',
      callbackUrl: 'https://hooks.acme.example/shelf',
      notifyUser: true,
      paymentId: outcome.payment.id,
    });
    await expect(submit('acme-shelf', ticket)).rejects.toMatchObject({ code: 'ER.03.22', data: { redirect_url: `/checkout/${token}` } });
  });

  it('refuses an unknown, switched-off or dynamic-only link, and an expired one before looking at the form', async () => {
    const notFound = request('ER.03.10', 'This payment link does not exist or is no longer active.', { message: 'Payment link not found' });
    await expect(submit('no-such-link', 'x')).rejects.toMatchObject(notFound);
    await expect(submit('acme-off', 'x')).rejects.toMatchObject(notFound);
    await expect(submit('acme-system', 'x')).rejects.toMatchObject(notFound);
    await expect(submit('acme-gone', undefined)).rejects.toMatchObject({ code: 'ER.03.11' });
  });

  it('refuses a missing or malformed form ticket (422), a ticket of another page (404), and a stale one (410)', async () => {
    const outOfDate = { code: 'ER.02.30', messages: { session: ['The payment form is out of date: reload the page'] } };
    await expect(submit('acme-shelf', undefined)).rejects.toMatchObject(outOfDate);
    await expect(submit('acme-shelf', 42)).rejects.toMatchObject(outOfDate);
    await expect(submit('acme-shelf', 'not-a-ticket')).rejects.toMatchObject(outOfDate);
    const otherPage = issueStaticTicket(t.app, await linkId('acme-books'));
    await expect(submit('acme-shelf', otherPage)).rejects.toMatchObject(
      request('ER.03.20', 'This payment form was not issued by this payment page. Reload the page, then pay there.', {
        message: 'Checkout session not found',
        say: 'refusal.not_issued',
      }),
    );
    const old = issueStaticTicket(t.app, await linkId('acme-shelf'));
    offsetMs = (t.app.config.checkoutTtlSeconds + 1) * 1000;
    try {
      await expect(submit('acme-shelf', old)).rejects.toMatchObject(
        request('ER.03.21', 'This payment form has been open too long and has expired. Reload the page to pay.', {
          message: 'Checkout session expired',
          say: 'refusal.form_expired',
        }),
      );
    } finally {
      offsetMs = 0;
    }
    expect(await sessionOf(old.split('.')[0]!)).toBeUndefined();
  });

  it("refuses a ticket that names another link's session as not found", async () => {
    const shelf = issueStaticTicket(t.app, await linkId('acme-shelf'));
    await submit('acme-shelf', shelf, '4000000000000002');
    const [token, issuedAt] = shelf.split('.');
    const books = await linkId('acme-books');
    const forged = `${token}.${issuedAt}.${t.app.staticSessionMac.sign(`static-session/v1|${books}|${token}|${issuedAt}`)}`;
    await expect(submit('acme-books', forged)).rejects.toMatchObject(
      request('ER.03.20', 'This payment page does not exist. Check the link you were sent.', { say: 'refusal.not_found' }),
    );
  });
});

describe('payCheckout: refusals, and what the acquirer, the velocity limits and the event get', () => {
  const refusal = (code: string, message: string, text: string, say: string) => ({ code, message, messages: { '(request)': [text] }, say });
  const attempt = (token: string, input: unknown = { fields: customer, card: card() }, more: Partial<PayRequest> = {}) =>
    payCheckout(t.app, { token, input, ...more });
  const invalidCard = { fields: customer, card: { ...card(), number: '4242424242424241' } };

  it('says why a session cannot be paid, in its own words, before looking at the card', async () => {
    const paid = await dynamicLink();
    await attempt(paid.token);
    for (const input of [undefined, invalidCard]) {
      await expect(attempt(paid.token, input)).rejects.toMatchObject({
        ...refusal('ER.03.22', 'Checkout session already paid', 'This payment has already been made. You have not been charged again.', 'refusal.paid'),
        data: { redirect_url: paid.path },
      });
    }
    const locked = await dynamicLink();
    await t.app.db
      .update(checkoutSessions)
      .set({ status: 'locked' })
      .where(eq(checkoutSessions.id, (await sessionOf(locked.token)).id));
    await expect(attempt(locked.token, invalidCard)).rejects.toMatchObject(
      refusal(
        'ER.03.23',
        'Too many payment attempts',
        'Too many attempts were made with this payment link, so it is locked. Ask the merchant for a new one.',
        'refusal.locked',
      ),
    );
    const busy = await dynamicLink();
    await t.app.db
      .update(checkoutSessions)
      .set({ attempts: 1, processingAt: t.app.now() })
      .where(eq(checkoutSessions.id, (await sessionOf(busy.token)).id));
    await expect(attempt(busy.token)).rejects.toMatchObject(
      refusal(
        'ER.03.24',
        'Payment already in progress',
        'Your payment is already being processed. Wait a moment, then reload the page to see the result.',
        'refusal.in_progress',
      ),
    );
    await expect(attempt('x'.repeat(43))).rejects.toMatchObject(
      refusal('ER.03.20', 'Checkout session not found', 'This payment page does not exist. Check the link you were sent.', 'refusal.not_found'),
    );
    const late = await dynamicLink();
    offsetMs = (t.app.config.checkoutTtlSeconds + 1) * 1000;
    try {
      await expect(attempt(late.token, invalidCard)).rejects.toMatchObject(
        refusal('ER.03.21', 'Checkout session expired', 'This payment link has expired. Ask the merchant for a new one.', 'refusal.expired'),
      );
    } finally {
      offsetMs = 0;
    }
  });

  it('refuses a used-up link before looking at the card', async () => {
    const first = await dynamicLink('acme-last');
    const second = await dynamicLink('acme-last');
    await attempt(first.token);
    await expect(attempt(second.token, invalidCard)).rejects.toMatchObject({ code: 'ER.03.12' });
  });

  it('refuses a session that has used every attempt although it is not locked (the limit was lowered since), counting nothing', async () => {
    const { token } = await dynamicLink();
    const session = await sessionOf(token);
    const max = t.app.config.checkoutMaxAttempts;
    await t.app.db.update(checkoutSessions).set({ attempts: max }).where(eq(checkoutSessions.id, session.id));
    await expect(attempt(token)).rejects.toMatchObject({ code: 'ER.03.23' });
    expect(await sessionOf(token)).toMatchObject({ status: 'open', attempts: max, processingAt: null });
    await t.app.db
      .update(checkoutSessions)
      .set({ attempts: max - 1 })
      .where(eq(checkoutSessions.id, session.id));
    expect(await attempt(token)).toMatchObject({ status: 'succeeded' });
  });

  it("reads the typed amount in the session's currency when the integrator chose another than the link's", async () => {
    const { token } = await dynamicLink('acme-open', { payment: { currency: 'JPY' } });
    const typed = (amount: string) => attempt(token, { amount, fields: customer, card: card() });
    await expect(typed('12.50')).rejects.toMatchObject({
      code: 'ER.02.30',
      messages: { amount: ['JPY has no minor unit: give a whole number in the amount'] },
    });
    expect(await typed('1200')).toMatchObject({ status: 'succeeded', payment: { amountMinor: 1200n, currency: 'JPY' } });
  });

  it('an attempt at the acquirer holds the session for exactly the lease (120 s), then is resumed under its own key', async () => {
    const at = new Date('2026-06-01T10:00:00.000Z');
    const frozen = await createTestApp({ now: () => at });
    try {
      await provision(frozen);
      const { createDynamicLink } = await import('../../../src/domain/checkout/dynamic.ts');
      const created = await createDynamicLink(frozen.app, (await findActiveLink(frozen.app.db, 'acme-books'))!, { key: TEST_TOKEN });
      const held = (ms: number) =>
        frozen.app.db
          .update(checkoutSessions)
          .set({ attempts: 1, processingAt: new Date(at.getTime() - ms) })
          .where(eq(checkoutSessions.id, created.sessionId));
      const submit = () => payCheckout(frozen.app, { token: created.token, input: { fields: customer, card: card() } });
      await held(PROCESSING_LEASE_MS - 1);
      await expect(submit()).rejects.toMatchObject({ code: 'ER.03.24' });
      await held(PROCESSING_LEASE_MS);
      const outcome = await submit();
      expect(outcome).toMatchObject({ status: 'succeeded', payment: { idempotencyKey: `checkout:${created.sessionId}:1` } });
    } finally {
      await frozen.close();
    }
  });

  it('a malformed body (null, fields that are not an object) is refused field by field, not a crash', async () => {
    const { token } = await dynamicLink();
    await expect(attempt(token, null)).rejects.toMatchObject({
      code: 'ER.02.30',
      messages: {
        '(body)': ['Invalid input: expected object, received null'],
        'customer.contact.email': ['Enter an email address'],
        'customer.first_name': ['Enter a first name'],
        'customer.last_name': ['Enter a last name'],
      },
    });
    const fields = await attempt(token, { fields: null, card: card() }).catch((error) => error);
    expect(fields).toMatchObject({ code: 'ER.02.30' });
    expect(fields.messages).toEqual({
      fields: ['Invalid input: expected record, received null'],
      'customer.first_name': ['Enter a first name'],
      'customer.last_name': ['Enter a last name'],
      'customer.contact.email': ['Enter an email address'],
    });
    expect((await sessionOf(token)).attempts).toBe(0);
  });

  it('gives the acquirer the description and the attempt key, keeps the language, and writes the link and attempt into the event', async () => {
    const { token } = await dynamicLink('acme-books', { payment: { description: 'Order 77' } });
    const session = await sessionOf(token);
    const sandbox = sandboxOf(t.app).acquirer;
    const calls: Parameters<typeof sandbox.charge>[] = [];
    sandboxOf(t.app).acquirer = Object.assign(Object.create(sandbox), {
      charge: (...args: Parameters<typeof sandbox.charge>) => {
        calls.push(args);
        return sandbox.charge(...args);
      },
    });
    let outcome: Awaited<ReturnType<typeof payCheckout>>;
    try {
      outcome = await attempt(token, undefined, { locale: 'fil' });
    } finally {
      sandboxOf(t.app).acquirer = sandbox;
    }
    expect(calls).toHaveLength(1);
    expect(calls[0]![0]).toMatchObject({ amountMinor: 25000n, currency: 'PHP', description: 'Order 77' });
    expect(calls[0]![1]).toEqual({ idempotencyKey: `checkout:${session.id}:1` });
    expect(outcome.payment.customerEmail).toBe('juan@example.com');
    expect(await sessionOf(token)).toMatchObject({ locale: 'fil', status: 'paid' });
    const events = await t.app.db.select().from(outboxEvents).where(eq(outboxEvents.type, 'payment.succeeded'));
    const event = events.find((e) => (e.data as { transaction_id?: string }).transaction_id === outcome.payment.id);
    expect(event!.data).toMatchObject({ link: 'acme-books', checkout: { kind: 'dynamic', link: 'acme-books', attempt: 1 } });
  });

  it('counts each attempt for the velocity limits, and hides the decline reason once they say so', async () => {
    const velocity = t.app.cardVelocity;
    const seen: [string, CardAttempt][] = [];
    t.app.cardVelocity = {
      beforeAttempt: async (a: CardAttempt) => void seen.push(['before', a]),
      beforeCodeTry: async () => {},
      codeMissed: async () => {},
      afterDecline: async (a: CardAttempt) => {
        seen.push(['after', a]);
        return { showReason: false };
      },
    };
    try {
      const dynamic = await dynamicLink();
      const declined = await attempt(dynamic.token, { fields: customer, card: card('4000000000009995') });
      expect(declined).toMatchObject({ status: 'declined', code: 'card_declined', message: declineMessages.card_declined, attemptsLeft: 4 });
      expect(declined.payment.failureCode).toBe('insufficient_funds');
      const books = (await findActiveLink(t.app.db, 'acme-books'))!.link.id;
      const dynamicAttempt = { clientIp: 'unknown', scope: books, open: false, fingerprint: sandboxOf(t.app).acquirer.fingerprint('4000000000009995') };
      expect(seen).toEqual([
        ['before', dynamicAttempt],
        ['after', dynamicAttempt],
      ]);
      seen.length = 0;
      const shelf = (await findActiveLink(t.app.db, 'acme-shelf'))!.link.id;
      const ticket = issueStaticTicket(t.app, shelf);
      const paid = await payCheckout(t.app, { slug: 'acme-shelf', clientIp: '203.0.113.9', input: { session: ticket, fields: customer, card: card() } });
      expect(paid.status).toBe('succeeded');
      expect(seen).toEqual([
        ['before', { clientIp: '203.0.113.9', scope: shelf, open: true, fingerprint: sandboxOf(t.app).acquirer.fingerprint('4242424242424242') }],
      ]);
    } finally {
      t.app.cardVelocity = velocity;
    }
  });

  it('on an open-amount page takes the amount the customer typed, and asks for one', async () => {
    const open = (await findActiveLink(t.app.db, 'acme-open'))!.link.id;
    const submit = (amount: unknown) =>
      payCheckout(t.app, { slug: 'acme-open', input: { session: issueStaticTicket(t.app, open), amount, fields: customer, card: card() } });
    const outcome = await submit('12.50');
    expect(outcome.payment.amountMinor).toBe(1250n);
    for (const [amount, message] of [
      [undefined, 'Enter the amount to pay'],
      [12.5, 'Invalid input: expected string, received number'],
    ] as const) {
      await expect(submit(amount)).rejects.toMatchObject({ code: 'ER.02.30', messages: { amount: [message] } });
    }
  });
});

describe('e-mail addresses: the mailer’s rule, in the same words everywhere', () => {
  /** Addresses the mailer cannot send to: a U+FFFD left by a broken encoding, a non-ASCII local part. */
  const unsendable = ['juan@example.com\uFFFD', 'ju\uFFFDan@example.com', 'josé@example.com'];
  const words = ['Enter an email address such as name@example.com'];

  it('checkout refuses an address its receipt could never be sent to, with 422 and no attempt counted', async () => {
    const { token } = await dynamicLink();
    for (const email of unsendable) {
      const res = await pay(token, { fields: { ...customer, 'customer.contact.email': email }, card: card() });
      expect(res.status, res.text).toBe(422);
      expect(res.json.messages).toEqual({ 'customer.contact.email': words });
    }
    expect((await sessionOf(token)).attempts).toBe(0);
  });

  it('a dynamic link refuses it too, in the same words, creating no session', async () => {
    const before = await sessions();
    for (const email of unsendable) {
      const res = await call(server.url, 'POST', '/pay/acme-books', { token: null, body: { key: TEST_TOKEN, customer: { contact: { email } } } });
      expect(res.status, res.text).toBe(422);
      expect(res.json.messages).toEqual({ 'customer.contact.email': words });
    }
    expect(await sessions()).toBe(before);
  });

  it('a card registration refuses it too, in the same words', async () => {
    for (const email of unsendable) {
      const res = await call(server.url, 'POST', '/api/v1/card-registrations', { body: { customer: { name: 'Juan Dela Cruz', email } } });
      expect(res.status, res.text).toBe(422);
      expect(res.json.messages).toEqual({ 'customer.email': words });
    }
  });

  it('an ordinary address is still taken everywhere', async () => {
    const { token } = await dynamicLink('acme-books', { customer: { contact: { email: "o'brien+receipts@mail.example.ph" } } });
    expect(token).toBeTruthy();
    const reg = await call(server.url, 'POST', '/api/v1/card-registrations', { body: { customer: { name: 'Juan', email: 'juan.dela-cruz@example.com' } } });
    expect(reg.status, reg.text).toBe(200);
  });
});

describe('what a checkout address shows (loadCheckout)', () => {
  it('an unpaid session of a link switched off since: not found', async () => {
    const { token } = await dynamicLink('acme-switch');
    expect(await loadCheckout(t.app, token)).toMatchObject({ state: 'open', link: { link: { slug: 'acme-switch' } } });
    await t.app.db.update(links).set({ active: false }).where(eq(links.slug, 'acme-switch'));
    t.app.linkCache.changed();
    expect(await loadCheckout(t.app, token)).toEqual({ state: 'not_found' });
    await expect(payCheckout(t.app, { token, input: { fields: customer, card: card() } })).rejects.toMatchObject({
      code: 'ER.03.20',
      messages: { '(request)': ['This payment page does not exist. Check the link you were sent.'] },
    });
  });

  it('another session of a single-use link once it is paid: used up; the paid one: paid, with its payment', async () => {
    const first = await dynamicLink('acme-single');
    const second = await dynamicLink('acme-single');
    const paid = await pay(first.token, { fields: customer, card: card() });
    expect(paid.json.data.status_code).toBe('OK.03.00');
    const other = await loadCheckout(t.app, second.token);
    expect(other.state).toBe('used_up');
    await expect(payCheckout(t.app, { token: second.token, input: { fields: customer, card: card() } })).rejects.toMatchObject({ code: 'ER.03.12' });
    const shown = await loadCheckout(t.app, first.token);
    expect(shown.state).toBe('paid');
    expect(shown.state === 'paid' && shown.payment.id).toBe(paid.json.data.transaction_id);
    // A paid session whose payment cannot be read is not shown half-empty.
    await t.app.db
      .update(checkoutSessions)
      .set({ paymentId: 'pay_missing' })
      .where(eq(checkoutSessions.id, (await sessionOf(first.token)).id));
    expect(await loadCheckout(t.app, first.token)).toEqual({ state: 'not_found' });
  });
});

async function sessionOf(token: string) {
  const { findSessionByToken } = await import('../../../src/domain/checkout/sessions.ts');
  return (await findSessionByToken(t.app.db, token))!;
}

// After the suite above: its tests read the first payment event of the database.
describe('checkout › mobile numbers', () => {
  it('accepts a local Philippine mobile number, stores it in E.164, and the receipt names what was bought', async () => {
    const { token, path } = await dynamicLink('acme-system', {
      customer: { contact: { email: 'local@example.com' } },
      payment: { amount: '20.00', merchant_reference_id: 'inv-local' },
    });
    const res = await pay(token, {
      fields: { 'customer.first_name': 'Lea', 'customer.last_name': 'Cruz', 'customer.contact.mobile': '0917 555 0123' },
      card: card(),
    });
    expect(res.status, res.text).toBe(200);
    const [payment] = await t.app.db.select().from(payments).where(eq(payments.id, res.json.data.transaction_id));
    expect(payment!.customer['customer.contact.mobile']).toBe('+639175550123');
    const receipt = await (await fetch(server.url + path)).text();
    expect(receipt).toMatch(/<dt>For<\/dt>\s*<dd data-testid="receipt-item">Acme invoice<\/dd>/);
    // The API takes a national number too (stored in E.164), and what it took before (E.164) as it did.
    for (const [given, stored] of [
      ['0918-555-0199', '+639185550199'],
      ['+1 415 555 2671', '+14155552671'],
    ]) {
      const viaApi = await dynamicLink('acme-system', {
        customer: { contact: { email: 'local@example.com', mobile: given } },
        payment: { amount: '20.00', merchant_reference_id: 'inv-local' },
      });
      const paid = await pay(viaApi.token, { fields: { 'customer.first_name': 'Lea', 'customer.last_name': 'Cruz' }, card: card() });
      const [row] = await t.app.db.select().from(payments).where(eq(payments.id, paid.json.data.transaction_id));
      expect(row!.customer['customer.contact.mobile']).toBe(stored);
    }
    const noNumber = await call(server.url, 'POST', '/pay/acme-system', {
      token: null,
      body: { key: TEST_TOKEN, customer: { contact: { mobile: '0000 000 0000' } }, payment: { amount: '20.00', merchant_reference_id: 'inv-local' } },
    });
    expect(noNumber.status).toBe(422);
    expect(noNumber.json.messages['customer.contact.mobile']).toEqual([
      'Enter a mobile number such as 0917 123 4567, or with its country code, such as +639171234567',
    ]);
    const fresh = await dynamicLink('acme-system', {
      customer: { contact: { email: 'local@example.com' } },
      payment: { amount: '20.00', merchant_reference_id: 'inv-local' },
    });
    const refused = await pay(fresh.token, {
      fields: { 'customer.first_name': 'Lea', 'customer.last_name': 'Cruz', 'customer.contact.mobile': '12345678' },
      card: card(),
    });
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.json.messages)).toEqual(['customer.contact.mobile']);
  });
});

describe('checkout › receipt', () => {
  it('says where the receipt is e-mailed as far as the e-mail got, and nothing when the customer is not e-mailed', async () => {
    const order = { payment: { amount: '20.00', merchant_reference_id: 'inv-copy' } };
    const customer = { 'customer.first_name': 'Lea', 'customer.last_name': 'Cruz', 'customer.contact.mobile': '0917 555 0123' };
    const notified = await dynamicLink('acme-system', { ...order, customer: { contact: { email: 'copy@example.com' } }, route: { notify_user: true } });
    const paid = await pay(notified.token, { fields: customer, card: card() });
    expect(paid.status, paid.text).toBe(200);
    const said = async (path: string) => /data-testid="receipt-email">([^<]*)</.exec(await (await fetch(server.url + path)).text())?.[1];
    expect(await said(notified.path)).toBe('A copy of this receipt is being e-mailed to copy@example.com.');
    const setState = (state: 'sent' | 'failed' | 'saved') =>
      t.app.db.update(outboxEvents).set({ emailState: state }).where(eq(outboxEvents.paymentId, paid.json.data.transaction_id));
    await setState('sent');
    expect(await said(notified.path)).toBe('A copy of this receipt was e-mailed to copy@example.com.');
    await setState('failed');
    expect(await said(notified.path)).toBe('We could not e-mail this receipt to copy@example.com. Print it or save it as a PDF to keep it.');
    // Written to a file because no mail server is set up: the customer got nothing, so nothing is claimed.
    await setState('saved');
    expect(await said(notified.path)).toBeUndefined();

    const quiet = await dynamicLink('acme-system', { ...order, customer: { contact: { email: 'quiet@example.com' } }, route: { notify_user: false } });
    expect((await pay(quiet.token, { fields: customer, card: card() })).status).toBe(200);
    const receipt = await (await fetch(server.url + quiet.path)).text();
    expect(receipt).not.toContain('data-testid="receipt-email"');
    // Print / Save as PDF waits, hidden, for its script (the browser's print dialog needs it).
    expect(receipt).toMatch(/<p class="receipt-print" data-receipt-print hidden>/);
  });
});
