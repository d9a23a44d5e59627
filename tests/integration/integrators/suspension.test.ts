import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { auditLog, integrators, operatorAudit } from '../../../src/db/schema.ts';
import { findSessionByToken } from '../../../src/domain/checkout/sessions.ts';
import { reactivateIntegrator, suspendIntegrator } from '../../../src/domain/integrators/suspension.ts';
import { CONSOLE_USERS, call, OTHER_TOKEN, provision, TEST_TOKEN, useServedApp } from '../../support/app.ts';
import { ConsoleClient } from '../../support/console.ts';
import { createPayment } from '../../support/payments.ts';

/**
 * Suspending an integrator (src/domain/integrators/suspension.ts) against the built server, on
 * PGlite and PostgreSQL: its API and link key answer 403 ER.01.40 to what takes new money, its
 * pages say the merchant cannot take payments (en, fil) without a form, payments already at the
 * acquirer still settle, its console shows a banner; reactivation undoes it all. The caches in
 * front of each (token, link, page) never serve it as it was.
 */
const served = useServedApp();
const operator = {
  operator: { id: null, email: 'operator@paylink.example', ip: null, userAgent: null },
  activity: { integratorId: null, userId: null, email: 'operator@paylink.example', ip: null, userAgent: null },
};
const customer = { 'customer.first_name': 'Juan', 'customer.last_name': 'Dela Cruz', 'customer.contact.email': 'juan@example.com' };

const acmeId = async () => (await served.t.app.db.select({ id: integrators.id }).from(integrators).where(eq(integrators.email, 'billing@acme.example')))[0]!.id;
const suspend = async (reason = 'KYC review') => suspendIntegrator(served.t.app, await acmeId(), reason, operator);
const reactivate = async () => reactivateIntegrator(served.t.app, await acmeId(), operator);
const api = (method: string, path: string, body?: unknown, token = TEST_TOKEN) => call(served.server.url, method, path, { body, token });
const newLink = (slug: string) => api('POST', '/api/v1/links', { slug, title: 'Suspension test', currency: 'PHP', amount: '12.00' });
const dynamicLink = () => call(served.server.url, 'POST', '/pay/acme-books', { token: null, body: { key: TEST_TOKEN } });
const get = (path: string) => fetch(served.server.url + path, { redirect: 'manual' });
const checkoutToken = async () => new URL((await dynamicLink()).json.link).pathname.split('/')[2]!;

// A failed test leaves no suspension behind for the next.
afterEach(async () => {
  await reactivate();
});

const expectSuspended = (res: { status: number; json: any }) => {
  expect(res.status).toBe(403);
  expect(res.json.data.status_code).toBe('ER.01.40');
};

describe('suspension › the service', () => {
  it('suspends once with a reason and audits it; again changes nothing; reactivation likewise', async () => {
    const id = await acmeId();
    const first = await suspend('Chargeback ratio above 1%');
    expect(first).toMatchObject({ integratorId: id, suspended: true, changed: true, reason: 'Chargeback ratio above 1%' });
    const again = await suspend('another reason');
    expect(again).toMatchObject({ suspended: true, changed: false, reason: 'Chargeback ratio above 1%' });
    expect((await reactivate()).changed).toBe(true);
    expect(await reactivate()).toMatchObject({ suspended: false, changed: false, reason: null });
    const audit = await served.t.app.db
      .select({ action: auditLog.action, target: auditLog.target, by: auditLog.actorEmail })
      .from(auditLog)
      .where(and(eq(auditLog.integratorId, id)));
    expect(audit.filter((a) => a.action.startsWith('integrator.'))).toEqual([
      { action: 'integrator.suspended', target: 'Chargeback ratio above 1%', by: 'operator@paylink.example' },
      { action: 'integrator.reactivated', target: null, by: 'operator@paylink.example' },
    ]);
    // The operator log too, once per change: which integrator and why.
    const operatorLog = await served.t.app.db
      .select({ action: operatorAudit.action, target: operatorAudit.target, by: operatorAudit.operatorEmail })
      .from(operatorAudit)
      .where(eq(operatorAudit.integratorId, id));
    expect(operatorLog.filter((a) => a.action.startsWith('integrator.'))).toEqual([
      { action: 'integrator.suspended', target: 'Acme Books: Chargeback ratio above 1%', by: 'operator@paylink.example' },
      { action: 'integrator.reactivated', target: 'Acme Books: suspended for: Chargeback ratio above 1%', by: 'operator@paylink.example' },
    ]);
  });

  it('a seed applied again (every start) keeps the suspension: the seed does not undo the operator', async () => {
    await suspend('Seed must not undo this');
    await provision(served.t);
    const [row] = await served.t.app.db
      .select()
      .from(integrators)
      .where(eq(integrators.id, await acmeId()));
    expect(row!.suspendedReason).toBe('Seed must not undo this');
    expect(row!.suspendedAt).not.toBeNull();
  });

  it('refuses an empty or overlong reason and an unknown integrator, changing nothing', async () => {
    const id = await acmeId();
    for (const reason of ['', '   ', 'x'.repeat(501), 42]) {
      await expect(suspendIntegrator(served.t.app, id, reason, operator)).rejects.toMatchObject({
        code: 'ER.02.30',
        messages: { reason: [expect.any(String)] },
      });
    }
    await expect(suspendIntegrator(served.t.app, 'int_nobody', 'x', operator)).rejects.toMatchObject({ code: 'ER.02.30', httpStatus: 404 });
    expect((await served.t.app.db.select().from(integrators).where(eq(integrators.id, id)))[0]!.suspendedAt).toBeNull();
  });
});

describe('suspension › the API', () => {
  it('refuses what takes new money with 403 ER.01.40, even right after the token was cached; reads, refunds and cancellations work; reactivation accepts again', async () => {
    const payment = await createPayment(served.t);
    // The token is now in the token cache: the suspension must not be served from it.
    expect((await newLink('before-suspension')).status).toBe(200);
    await suspend();
    const refused = await newLink('while-suspended');
    expectSuspended(refused);
    expect(refused.json.messages['(request)'][0]).toMatch(/suspended/);
    expectSuspended(await api('POST', '/api/v1/card-registrations', { customer: { email: 'a@example.com' } }));
    // Reads still answer, so the integrator can reconcile; a refund of a past payment goes through.
    expect((await api('GET', '/api/v1/transactions')).status).toBe(200);
    // The account says so, as Stripe's account says charges are disabled.
    const me = await api('GET', '/api/v1/integrator');
    expect(me.json.data.integrator).toMatchObject({ status: 'suspended', suspended_at: expect.any(String) });
    expect(me.text).not.toContain('KYC review');
    expect((await api('GET', `/api/v1/transactions/${payment.id}`)).status).toBe(200);
    const refund = await api('POST', '/api/v1/refund', { transaction_id: payment.id, notify_user: false, reason: 'customer request' });
    expect(refund.status, refund.text).toBe(200);
    // Another integrator is untouched.
    expect((await call(served.server.url, 'GET', '/api/v1/links', { token: OTHER_TOKEN })).status).toBe(200);

    await reactivate();
    expect((await newLink('after-reactivation')).status).toBe(200);
    expect((await api('GET', '/api/v1/integrator')).json.data.integrator).toMatchObject({ status: 'active', suspended_at: null });
  });

  it('refuses a dynamic link with the key while suspended, and creates one after', async () => {
    expect((await dynamicLink()).status).toBe(200);
    await suspend();
    expectSuspended(await dynamicLink());
    await reactivate();
    const after = await dynamicLink();
    expect(after.status).toBe(200);
    expect(after.json.link).toContain('/checkout/');
  });
});

describe('suspension › caches in other processes', () => {
  it('a suspension written elsewhere (another process: no in-process call) reaches the kept token, link and page within the NOTIFY, not the 5 s lifetime', async () => {
    // Warm every cache: the token, the link and the page's kept rendering.
    expect((await newLink('warm-cache')).status).toBe(200);
    expect((await get('/pay/acme-books')).status).toBe(200);
    const id = await acmeId();
    const started = Date.now();
    // As another process would write it: straight to the table, so only NOTIFY paylink_links tells this one.
    await served.t.app.db.update(integrators).set({ suspendedAt: new Date(), suspendedReason: 'elsewhere' }).where(eq(integrators.id, id));
    const refusedIn = async (probe: () => Promise<number>, status: number) => {
      while ((await probe()) !== status) {
        if (Date.now() - started > 3_000) return false;
        await new Promise((r) => setTimeout(r, 25));
      }
      return true;
    };
    expect(await refusedIn(async () => (await newLink(`elsewhere-${Date.now()}`)).status, 403)).toBe(true);
    expect(await refusedIn(async () => (await get('/pay/acme-books')).status, 403)).toBe(true);
    await served.t.app.db.update(integrators).set({ suspendedAt: null, suspendedReason: null }).where(eq(integrators.id, id));
    expect(await refusedIn(async () => (await get('/pay/acme-books')).status, 200)).toBe(true);
  });
});

describe('suspension › payment pages', () => {
  it('the static page says the merchant cannot take payments (en, fil) with no form, not from its kept rendering; reactivated, the form is back', async () => {
    // Rendered and kept (page cache) while active.
    const open = await get('/pay/acme-books?lang=en');
    expect(open.status).toBe(200);
    expect(await open.text()).toContain('<form');
    await suspend();
    const en = await get('/pay/acme-books?lang=en');
    expect(en.status).toBe(403);
    const enHtml = await en.text();
    expect(enHtml).toContain('data-testid="link-suspended"');
    expect(enHtml).toContain('This merchant cannot take payments right now');
    expect(enHtml).toContain('Acme Books cannot take payments through this page at the moment.');
    expect(enHtml).not.toContain('<form');
    const fil = await get('/pay/acme-books?lang=fil');
    expect(fil.status).toBe(403);
    const filHtml = await fil.text();
    expect(filHtml).toContain('Hindi makatanggap ng bayad ang merchant na ito ngayon');
    expect(filHtml).not.toContain('<form');
    await reactivate();
    const back = await get('/pay/acme-books?lang=en');
    expect(back.status).toBe(200);
    expect(await back.text()).toContain('<form');
  });

  it('a checkout made before says so too and refuses its submissions; a payment already at the acquirer still settles', async () => {
    const unpaid = await checkoutToken();
    const inFlight = await checkoutToken();
    // A QR Ph payment started before the suspension: the customer scans it after.
    const started = await call(served.server.url, 'POST', `/checkout/${inFlight}/method`, { token: null, body: { method: 'qrph', fields: customer } });
    expect(started.status, started.text).toBe(200);
    await suspend();

    const page = await get(`/checkout/${unpaid}?lang=es`);
    expect(page.status).toBe(403);
    const html = await page.text();
    expect(html).toContain('Este comercio no puede recibir pagos ahora');
    expect(html).not.toContain('<form');
    const submit = await call(served.server.url, 'POST', `/checkout/${unpaid}/method`, {
      token: null,
      body: { method: 'gcash', fields: customer },
      headers: { 'accept-language': 'fil' },
    });
    expect(submit.status).toBe(403);
    expect(submit.json.data.status_code).toBe('ER.01.40');
    expect(submit.json.messages['(request)']).toEqual(['Hindi makatanggap ng bayad ang merchant na ito ngayon. Wala kang nabayaran.']);

    const id = (await findSessionByToken(served.t.app.db, inFlight))!.providerPaymentId!;
    const answered = await fetch(`${served.server.url}/sandbox/scan/${id}/answer`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: served.server.url },
      body: 'answer=approve',
    });
    expect(answered.status).toBe(303);
    const status = await call(served.server.url, 'GET', `/checkout/${inFlight}/status`, { token: null });
    expect(status.json.data.status).toBe('succeeded');
    // Its receipt still shows.
    expect((await get(`/checkout/${inFlight}`)).status).toBe(200);
    await reactivate();
    expect((await get(`/checkout/${unpaid}`)).status).toBe(200);
  });
});

describe('suspension › console', () => {
  it('its users still sign in and every page says the account is suspended; reactivated, the banner is gone', async () => {
    await suspend();
    const owner = new ConsoleClient(served.server.url);
    await owner.signIn(CONSOLE_USERS.acmeOwner.email, CONSOLE_USERS.acmeOwner.password);
    const home = await owner.get('/console');
    expect(home.status).toBe(200);
    expect(home.html).toContain('data-testid="console-suspended"');
    expect(home.html).toContain('This account is suspended.');
    expect((await owner.get('/console/payments')).html).toContain('data-testid="console-suspended"');
    await reactivate();
    expect((await owner.get('/console')).html).not.toContain('data-testid="console-suspended"');
  });
});
