import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, integratorAcquirers, integrators, operatorAudit } from '../../../src/db/schema.ts';
import { completeSetup, issueSetupLink } from '../../../src/domain/operators/accounts.ts';
import { call, useServedApp } from '../../support/app.ts';
import { ConsoleClient, textOf } from '../../support/console.ts';
import { createPayment } from '../../support/payments.ts';

/** The operator console over HTTP: sign-in, creating an integrator, rotation, acquirer, field modes, the log. */
const served = useServedApp();
const operator = { email: 'support@paylink.example', password: 'help desk passphrase 7' };
const from = { ip: null, userAgent: 'operator-console-test' };

beforeAll(async () => {
  const link = await issueSetupLink(served.t.app, { email: operator.email });
  await completeSetup(served.t.app, link!.url.split('/').at(-1)!, { email: '', password: operator.password, confirm: operator.password }, from);
});

async function signedIn() {
  const c = new ConsoleClient(served.server.url);
  const res = await c.post('/operator/sign-in', operator, { from: '/operator/sign-in' });
  expect(res.status, textOf(res.html)).toBe(303);
  expect(res.location).toBe('/operator');
  return c;
}
/** The value a copy button shows under `testid`. */
const shown = (html: string, testid: string) => new RegExp(`data-testid="${testid}"[^]*?<code class="link-url">([^<]+)</code>`).exec(html)?.[1];
const newIntegrator = {
  action: 'create',
  name: 'Nayon Crafts',
  email: 'accounts@nayon.example',
  support_email: 'help@nayon.example',
  default_callback_url: 'http://127.0.0.1:9/hooks',
  owner_email: 'owner@nayon.example',
};
let created: { id: string; token: string; ownerInvite: string };

describe('operator console › access', () => {
  it('sends a visitor without a session to sign-in, and keeps the merchant console’s session out', async () => {
    const anon = new ConsoleClient(served.server.url);
    const res = await anon.get('/operator/integrators/new');
    expect(res.status).toBe(303);
    expect(res.location).toBe('/operator/sign-in?next=%2Foperator%2Fintegrators%2Fnew');
    const merchant = new ConsoleClient(served.server.url);
    expect((await merchant.signIn('owner@acme.example', 'acme owner passphrase 1')).status).toBe(303);
    expect((await merchant.get('/operator')).status).toBe(303);
  });

  it('refuses a wrong password with one sentence and a 401', async () => {
    const c = new ConsoleClient(served.server.url);
    const res = await c.post('/operator/sign-in', { ...operator, password: 'not the passphrase' }, { from: '/operator/sign-in' });
    expect(res.status).toBe(401);
    expect(textOf(res.html)).toContain('The email or password is not right.');
  });

  it('refuses a form without the page’s CSRF token, changing nothing', async () => {
    const c = await signedIn();
    const before = await served.t.app.db.$count(integrators);
    const res = await c.post('/operator/integrators/new', { ...newIntegrator, _csrf: 'forged' });
    expect(res.status).toBe(403);
    expect(res.html).toContain('<a href="/operator">');
    expect(await served.t.app.db.$count(integrators)).toBe(before);
  });
});

describe('operator console › integrators', () => {
  it('creates an integrator: its secrets are shown once and work; its owner gets a one-time invitation', async () => {
    const c = await signedIn();
    const res = await c.post('/operator/integrators/new', newIntegrator);
    expect(res.status, textOf(res.html)).toBe(200);
    expect(textOf(res.html)).toContain('Nayon Crafts is created');
    const token = shown(res.html, 'new-token')!;
    const webhookSecret = shown(res.html, 'new-webhook-secret')!;
    const invite = shown(res.html, 'invite-url')!;
    expect(token).toMatch(/^pl_/);
    expect(webhookSecret).toMatch(/^whsec_/);
    expect(invite).toMatch(/\/console\/invite\/[A-Za-z0-9_-]{43}$/);
    const [row] = await served.t.app.db.select().from(integrators).where(eq(integrators.email, 'accounts@nayon.example'));
    expect(row).toMatchObject({ name: 'Nayon Crafts', supportEmail: 'help@nayon.example', defaultCallbackUrl: 'http://127.0.0.1:9/hooks' });
    // Stored hashed and sealed, never as given.
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(webhookSecret);
    // The token opens the API as the new integrator.
    const me = await call(served.server.url, 'GET', '/api/v1/integrator', { token });
    expect(me.status, me.text).toBe(200);
    expect(me.json.data.integrator.name).toBe('Nayon Crafts');
    // Never shown again: the integrator's page has none of them.
    const page = await c.get(`/operator/integrators/${row!.id}`);
    expect(page.html).not.toContain(token);
    expect(page.html).not.toContain(webhookSecret);
    expect(textOf(page.html)).toContain('owner@nayon.example (owner, invited)');
    created = { id: row!.id, token, ownerInvite: invite };

    // The owner accepts the invitation and signs in to the merchant console.
    const owner = new ConsoleClient(served.server.url);
    const path = new URL(invite).pathname;
    const accepted = await owner.post(path, { password: 'basket weaver passphrase', confirm: 'basket weaver passphrase' });
    expect(accepted.status, textOf(accepted.html)).toBe(303);
    expect((await owner.signIn('owner@nayon.example', 'basket weaver passphrase')).status).toBe(303);
    // The merchant's own log says support invited them.
    const merchantLog = await served.t.app.db.select().from(auditLog).where(eq(auditLog.integratorId, row!.id));
    expect(merchantLog.map((a) => [a.action, a.actorEmail])).toContainEqual(['user.invited', `support (${operator.email})`]);
  });

  it('refuses bad fields beside each field, keeps what was typed and makes nothing', async () => {
    const c = await signedIn();
    const before = await served.t.app.db.$count(integrators);
    const res = await c.post('/operator/integrators/new', { ...newIntegrator, name: '', email: 'accounts@nayon.example', owner_email: 'nope' });
    expect(res.status).toBe(422);
    const text = textOf(res.html);
    expect(text).toContain('is required');
    expect(text).toContain('Enter an email address such as name@example.com');
    expect(res.html).toContain('value="help@nayon.example"');
    const taken = await c.post('/operator/integrators/new', { ...newIntegrator, owner_email: 'fresh@nayon.example' });
    expect(taken.status).toBe(422);
    expect(textOf(taken.html)).toContain('is already the contact address of another integrator');
    const ownerTaken = await c.post('/operator/integrators/new', { ...newIntegrator, email: 'other@nayon.example', owner_email: 'owner@acme.example' });
    expect(ownerTaken.status).toBe(422);
    expect(textOf(ownerTaken.html)).toContain('already signs in to a console');
    expect(await served.t.app.db.$count(integrators)).toBe(before);
  });

  it('lists every integrator with its succeeded payments of the last 30 days per currency', async () => {
    await createPayment(served.t, { amount: '150.00' });
    await createPayment(served.t, { amount: '50.25' });
    await createPayment(served.t, { amount: '20.00', card: '4000000000000002' });
    const c = await signedIn();
    const text = textOf((await c.get('/operator')).html);
    expect(text).toMatch(/Acme Books.*billing@acme\.example 2 ₱200\.25/);
    expect(text).toContain('Nayon Crafts');
    expect(text).toContain('Other Shop');
  });

  it('rotates the credentials: shown once; with no overlap the old token stops at once', async () => {
    const c = await signedIn();
    const res = await c.post(`/operator/integrators/${created.id}`, { action: 'rotate', overlap: 'none' });
    expect(res.status, textOf(res.html)).toBe(200);
    const token = shown(res.html, 'rotated-token')!;
    expect(token).toMatch(/^pl_/);
    expect(textOf(res.html)).toContain('The old API token and JWT secret have stopped working.');
    expect((await call(served.server.url, 'GET', '/api/v1/integrator', { token: created.token })).status).toBe(401);
    expect((await call(served.server.url, 'GET', '/api/v1/integrator', { token })).status).toBe(200);
    const overlapped = await c.post(`/operator/integrators/${created.id}`, { action: 'rotate', overlap: '1h' });
    expect((await call(served.server.url, 'GET', '/api/v1/integrator', { token })).status).toBe(200);
    expect(textOf(overlapped.html)).toMatch(/keep working until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    const bad = await c.post(`/operator/integrators/${created.id}`, { action: 'rotate', overlap: 'forever' });
    expect(bad.status).toBe(422);
    created.token = shown(overlapped.html, 'rotated-token')!;
  });

  it('sets the acquirer with its API base URL (which the merchant console cannot), secrets never shown back', async () => {
    const c = await signedIn();
    const keys = {
      provider: 'paymongo',
      public_key: 'pk_test_operatorkey123',
      secret_key: 'sk_test_operatorsecret987',
      webhook_secret: 'whsk_operatorhook4321',
    };
    const res = await c.post(`/operator/integrators/${created.id}`, { action: 'acquirer', ...keys, api_base_url: 'http://127.0.0.1:9/paymongo' });
    expect(res.status, textOf(res.html)).toBe(200);
    expect(res.html).toContain('data-testid="acquirer-base-url">http://127.0.0.1:9/paymongo<');
    expect(res.html).not.toContain(keys.secret_key);
    expect(res.html).not.toContain(keys.webhook_secret);
    const [row] = await served.t.app.db.select().from(integratorAcquirers).where(eq(integratorAcquirers.integratorId, created.id));
    expect(row).toMatchObject({ provider: 'paymongo', apiBaseUrl: 'http://127.0.0.1:9/paymongo' });
    expect((await served.t.app.connectors.forIntegrator(created.id)).name).toBe('paymongo');
    const bad = await c.post(`/operator/integrators/${created.id}`, { action: 'acquirer', ...keys, api_base_url: 'ftp://example.com' });
    expect(bad.status).toBe(422);
    expect(textOf(bad.html)).toContain('must be an http:// or https:// URL');
    const back = await c.post(`/operator/integrators/${created.id}`, { action: 'acquirer', provider: 'sandbox' });
    expect(back.status).toBe(200);
    expect((await served.t.app.connectors.forIntegrator(created.id)).name).toBe('sandbox');
  });

  it('sets the dynamic-link field modes: the integrator’s new links start with them', async () => {
    const c = await signedIn();
    const res = await c.post(`/operator/integrators/${created.id}`, {
      action: 'field-modes',
      'mode.payment.merchant_reference_id': 'system',
      'mode.customer.contact.mobile': 'customer',
      'mode.customer.first_name': 'default',
    });
    expect(res.status, textOf(res.html)).toBe(200);
    const [row] = await served.t.app.db.select().from(integrators).where(eq(integrators.id, created.id));
    expect(row!.linkFieldModes).toEqual({ 'payment.merchant_reference_id': 'system', 'customer.contact.mobile': 'customer' });
    const link = await call(served.server.url, 'POST', '/api/v1/links', {
      token: created.token,
      body: { slug: 'nayon-basket', title: 'Basket', currency: 'PHP', amount: '300.00' },
    });
    expect(link.status, link.text).toBe(200);
    expect(link.json.data.link.kind).toBe('dynamic');
    // A link's own modes still win.
    const own = await call(served.server.url, 'POST', '/api/v1/links', {
      token: created.token,
      body: { slug: 'nayon-mat', title: 'Mat', currency: 'PHP', amount: '90.00', fields: { 'payment.merchant_reference_id': 'hidden' } },
    });
    expect(own.json.data.link.kind).toBe('static');
    const bad = await c.post(`/operator/integrators/${created.id}`, { action: 'field-modes', 'mode.customer.first_name': 'robot' });
    expect(bad.status).toBe(422);
    expect((await served.t.app.db.select().from(integrators).where(eq(integrators.id, created.id)))[0]!.linkFieldModes).toEqual(row!.linkFieldModes);
  });

  it('an unknown integrator is a 404 page', async () => {
    const c = await signedIn();
    expect((await c.get('/operator/integrators/int_nope')).status).toBe(404);
    expect((await c.post('/operator/integrators/int_nope', { action: 'rotate', overlap: 'none' }, { from: '/operator' })).status).toBe(404);
  });

  it('writes every action to the operator log, which /operator/activity shows', async () => {
    const log = await served.t.app.db.select().from(operatorAudit).where(eq(operatorAudit.integratorId, created.id));
    expect(log.map((a) => a.action)).toEqual([
      'integrator.created',
      'owner.invited',
      'credentials.rotated',
      'credentials.rotated',
      'acquirer.changed',
      'acquirer.changed',
      'field_modes.changed',
    ]);
    expect(log.every((a) => a.operatorEmail === operator.email)).toBe(true);
    expect(log[4]!.target).toBe('Nayon Crafts: paymongo (pk_test_operatorkey123) at http://127.0.0.1:9/paymongo');
    const c = await signedIn();
    const text = textOf((await c.get('/operator/activity')).html);
    expect(text).toContain('field_modes.changed');
    expect(text).toContain('sign_in.succeeded');
    expect(text).toContain('sign_in.failed');
  });

  it('signs out: the session is gone', async () => {
    const c = await signedIn();
    const out = await c.post('/operator/sign-out', {}, { from: '/operator' });
    expect(out.status).toBe(303);
    expect((await c.get('/operator')).status).toBe(303);
  });
});
