import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions, integratorAcquirers, payments, providerWebhookEvents } from '../../../src/db/schema.ts';
import { call, createTestApp, defaultSeed, provision, startTestServer, TEST_TOKEN, type TestApp } from '../../support/app.ts';
import { type FakePaymongo, startFakePaymongo } from '../../support/fakes/paymongo.ts';
import { acquirerSeed } from '../../support/provider-app.ts';

/** PayMongo's hosted checkout (checkout_sessions): the customer types the card only on PayMongo's page. */
let t: TestApp;
let fake: FakePaymongo;
let server: { url: string; close(): Promise<void> };
let offsetMs = 0;
const customer = { 'customer.first_name': 'Juan', 'customer.last_name': 'Dela Cruz', 'customer.contact.email': 'juan@example.com' };

beforeAll(async () => {
  fake = await startFakePaymongo();
  t = await createTestApp({ now: () => new Date(Date.now() + offsetMs) });
  const seed = defaultSeed();
  seed.integrators[0]!.acquirer = { ...acquirerSeed('paymongo', fake), checkout: 'hosted' };
  await provision(t, seed);
  server = await startTestServer(t.app);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
  await fake?.close();
});

async function dynamicLink() {
  const res = await call(server.url, 'POST', '/pay/acme-books', { token: null, body: { key: TEST_TOKEN } });
  return new URL(res.json.link).pathname.split('/')[2]!;
}
const start = (token: string) => call(server.url, 'POST', `/checkout/${token}/provider`, { token: null, body: { fields: customer } });

describe('paymongo hosted checkout', () => {
  it('the payment page asks no card and does not open connect-src to PayMongo', async () => {
    const token = await dynamicLink();
    const res = await fetch(`${server.url}/checkout/${token}`);
    const html = await res.text();
    expect(html).toContain('data-acquirer="paymongo"');
    expect(html).not.toMatch(/name="card\.(number|cvc|expiry)"|autocomplete="cc-/);
    expect(res.headers.get('content-security-policy')).not.toContain(new URL(fake.url).origin);
  });

  it('sends the customer to PayMongo’s page; paid there, the return page records the payment', async () => {
    const token = await dynamicLink();
    const started = await start(token);
    const checkoutUrl = started.json.data.next_action_url as string;
    expect(checkoutUrl).toMatch(new RegExp(`^${fake.url}/_test/checkout/cs_`));
    expect(fake.requests.some((r) => r.path === '/v1/checkout_sessions' && r.idempotencyKey)).toBe(true);
    expect((await fetch(checkoutUrl)).status).toBe(200);
    const paid = await fetch(checkoutUrl, { method: 'POST', body: new URLSearchParams({ card_number: '4343434343434345' }), redirect: 'manual' });
    const back = paid.headers.get('location')!;
    expect(back).toBe(`${t.app.origin()}/checkout/${token}/return`);
    expect((await fetch(back, { redirect: 'manual' })).status).toBe(303);
    const [session] = await t.app.db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.paymentId, (await t.app.db.select().from(payments))[0]!.id));
    expect(session!.status).toBe('paid');
  });

  it('checkout_session.payment.paid alone records the hosted payment (no return, no payment.paid); a later payment.paid is a duplicate in effect', async () => {
    const [acquirer] = await t.app.db.select().from(integratorAcquirers);
    const webhookPath = `/webhooks/paymongo/${acquirer!.webhookId}`;
    fake.webhookUrl = `${server.url}${webhookPath}`;
    fake.subscribedEvents = new Set(['checkout_session.payment.paid']);
    try {
      const token = await dynamicLink();
      const checkoutUrl = (await start(token)).json.data.next_action_url as string;
      // Paid on PayMongo's page; the customer closes the tab instead of coming back.
      await fetch(checkoutUrl, { method: 'POST', body: new URLSearchParams({ card_number: '4343434343434345' }), redirect: 'manual' });
      const session = async () => (await t.app.db.select().from(checkoutSessions)).find((row) => row.providerAttempt?.checkoutUrl === checkoutUrl)!;
      await expect.poll(async () => (await session()).status).toBe('paid');
      const [payment] = await t.app.db
        .select()
        .from(payments)
        .where(eq(payments.checkoutSessionId, (await session()).id));
      expect(payment).toMatchObject({ status: 'succeeded', cardLast4: '4345' });
      expect(await t.app.db.select().from(providerWebhookEvents)).toMatchObject([{ type: 'payment' }]);
      const late = fake.event('payment.paid', fake.paymentResource(payment!.acquirerReference!)!);
      const res = await call(server.url, 'POST', webhookPath, { token: null, raw: late.rawBody, headers: Object.fromEntries(late.headers) });
      expect(res.json.data.outcome).toBe('applied');
      expect(
        await t.app.db
          .select()
          .from(payments)
          .where(eq(payments.checkoutSessionId, (await session()).id)),
      ).toHaveLength(1);
    } finally {
      fake.webhookUrl = undefined;
      fake.subscribedEvents = undefined;
    }
  });

  it('a checkout session PayMongo refuses (HTTP 400) is ER.03.31 for the customer, not a 5xx; the next attempt makes one', async () => {
    const token = await dynamicLink();
    fake.refuseNextCheckoutSession('parameter_invalid', 'payment_method_types contains a method not activated.');
    const refused = await start(token);
    expect(refused.status).toBe(422);
    expect(refused.json.data).toMatchObject({ status_code: 'ER.03.31' });
    const again = await start(token);
    expect(again.json.data.next_action_url).toMatch(new RegExp(`^${fake.url}/_test/checkout/cs_`));
  });

  it('a customer who comes back before paying is sent to the same PayMongo page, not a second one', async () => {
    const token = await dynamicLink();
    const before = fake.requests.filter((r) => r.path === '/v1/checkout_sessions').length;
    const first = (await start(token)).json.data.next_action_url;
    offsetMs += 130_000; // past the attempt's lease
    const again = await start(token);
    expect(again.json.data.next_action_url).toBe(first);
    expect(fake.requests.filter((r) => r.path === '/v1/checkout_sessions')).toHaveLength(before + 1); // one for this session
  });
});
