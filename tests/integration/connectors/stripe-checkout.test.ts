import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions, integratorAcquirers, payments } from '../../../src/db/schema.ts';
import { call, createTestApp, defaultSeed, OTHER_TOKEN, provision, startTestServer, type TestApp } from '../../support/app.ts';
import { browserConfirms, type FakeStripe, startFakeStripe } from '../../support/fakes/stripe.ts';

let t: TestApp;
let fake: FakeStripe;
let server: { url: string; close(): Promise<void> };
let webhookPath = '';
const customer = { 'customer.first_name': 'Juan', 'customer.last_name': 'Dela Cruz', 'customer.contact.email': 'juan@example.com' };

beforeAll(async () => {
  fake = await startFakeStripe();
  t = await createTestApp();
  const seed = defaultSeed();
  seed.integrators[1]!.acquirer = {
    provider: 'stripe',
    public_key: fake.publishableKey,
    secret_key: fake.secretKey,
    webhook_secret: fake.webhookSecret,
    api_base_url: fake.url,
  };
  await provision(t, seed);
  server = await startTestServer(t.app);
  const [row] = await t.app.db.select().from(integratorAcquirers);
  webhookPath = `/webhooks/stripe/${row!.webhookId}`;
});
afterAll(async () => {
  await server?.close();
  await t?.close();
  await fake?.close();
});

describe('stripe checkout (scratch wiring check)', () => {
  it('start → browser confirms → return page records the payment; webhook duplicate changes nothing', async () => {
    const link = await call(server.url, 'POST', '/pay/other-shop', { token: null, body: { key: OTHER_TOKEN } });
    expect(link.status, link.text).toBe(200);
    const token = new URL(link.json.link).pathname.split('/')[2]!;
    const res = await call(server.url, 'POST', `/checkout/${token}/provider`, { token: null, body: { fields: customer } });
    expect(res.status, res.text).toBe(200);
    const started = res.json.data as { provider_payment_id: string; client_key: string; public_key: string; return_url: string };
    expect(started.public_key).toBe(fake.publishableKey);
    expect(started.client_key).toMatch(/_secret_/);
    const confirmed = await browserConfirms(
      fake,
      { providerPaymentId: started.provider_payment_id, clientKey: started.client_key },
      'pm_card_visa',
      started.return_url,
    );
    expect(confirmed.status).toBe(200);
    const back = await fetch(started.return_url, { redirect: 'manual' });
    expect(back.status).toBe(303);
    const [session] = await t.app.db.select().from(checkoutSessions).where(eq(checkoutSessions.providerPaymentId, started.provider_payment_id));
    expect(session!.status).toBe('paid');
    const rows = await t.app.db.select().from(payments).where(eq(payments.checkoutSessionId, session!.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'succeeded', amountMinor: 1000n, cardLast4: '4242', cardBrand: 'visa' });
    expect(rows[0]!.acquirerReference).toMatch(/^ch_/);
    const event = fake.event('payment_intent.succeeded', fake.intent(started.provider_payment_id)!, { eventId: 'evt_1' });
    const first = await call(server.url, 'POST', webhookPath, { token: null, raw: event.rawBody, headers: Object.fromEntries(event.headers) });
    expect(first.status, first.text).toBe(200);
    const again = await call(server.url, 'POST', webhookPath, { token: null, raw: event.rawBody, headers: Object.fromEntries(event.headers) });
    expect(again.json.data.outcome).toBe('duplicate');
    const forged = await call(server.url, 'POST', webhookPath, {
      token: null,
      raw: event.rawBody.replace('evt_1', 'evt_2'),
      headers: Object.fromEntries(event.headers),
    });
    expect(forged.status).toBe(401);
    expect(await t.app.db.select().from(payments).where(eq(payments.checkoutSessionId, session!.id))).toHaveLength(1);
  });

  it("the page mounts the Stripe island with the publishable key; only this merchant's pages allow Stripe's hosts", async () => {
    const link = await call(server.url, 'POST', '/pay/other-shop', { token: null, body: { key: OTHER_TOKEN } });
    const token = new URL(link.json.link).pathname.split('/')[2]!;
    const page = await fetch(`${server.url}/checkout/${token}`);
    const html = await page.text();
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(html).toContain('data-acquirer="stripe"');
    expect(html).toContain(fake.publishableKey);
    expect(html).not.toContain(fake.secretKey);
    expect(html).not.toContain(fake.webhookSecret);
    expect(csp).toMatch(/script-src[^;]*'self'[^;]*https:\/\/js\.stripe\.com/);
    expect(csp).toMatch(/frame-src[^;]*https:\/\/hooks\.stripe\.com/);
    expect(csp).toMatch(/connect-src[^;]*'self'[^;]*https:\/\/api\.stripe\.com/);
    const sandbox = await fetch(`${server.url}/pay/acme-books`);
    expect(sandbox.headers.get('content-security-policy') ?? '').not.toContain('stripe');
  });
});
