import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integratorAcquirers, providerWebhookEvents } from '../../../src/db/schema.ts';
import { call, createTestApp, defaultSeed, provision, startTestServer, type TestApp } from '../../support/app.ts';
import { type FakePaymongo, startFakePaymongo } from '../../support/fakes/paymongo.ts';
import { type FakeStripe, startFakeStripe } from '../../support/fakes/stripe.ts';
import { acquirerSeed } from '../../support/provider-app.ts';

/**
 * POST /webhooks/{provider}/{id} for both providers: signed events outside the freshness tolerance
 * (PAYLINK_PROVIDER_WEBHOOK_TOLERANCE_SECONDS, 300 s by default) are refused either way, each
 * provider's refusals name its own signature header, and de-duplication is per integrator.
 * Two integrators on Stripe (the default seed's), one on PayMongo.
 */
let t: TestApp;
let server: { url: string; close(): Promise<void> };
let stripe: FakeStripe;
let paymongo: FakePaymongo;
const paths: { stripeA: string; stripeB: string; paymongo: string } = { stripeA: '', stripeB: '', paymongo: '' };
const ids: { stripeA: string; stripeB: string } = { stripeA: '', stripeB: '' };

beforeAll(async () => {
  stripe = await startFakeStripe();
  paymongo = await startFakePaymongo();
  t = await createTestApp();
  const seed = defaultSeed();
  // Stripe takes no PHP: Acme's PHP links and sandbox card stay out of this file.
  seed.integrators[0] = { ...seed.integrators[0]!, acquirer: acquirerSeed('stripe', stripe), links: [], cards: [] };
  seed.integrators[1]!.acquirer = acquirerSeed('stripe', stripe);
  seed.integrators.push({
    name: 'Lakbay Tours',
    email: 'billing@lakbay.example',
    token: 'test_token_lakbay_0123456789abcdefghijklmnop',
    secret: 'test_secret_lakbay_0123456789abcdefghijklmnop',
    acquirer: acquirerSeed('paymongo', paymongo),
  } as (typeof seed.integrators)[number]);
  await provision(t, seed);
  server = await startTestServer(t.app);
  const rows = await t.app.db.select().from(integratorAcquirers);
  const [a, b] = rows.filter((r) => r.provider === 'stripe');
  const p = rows.find((r) => r.provider === 'paymongo')!;
  paths.stripeA = `/webhooks/stripe/${a!.webhookId}`;
  paths.stripeB = `/webhooks/stripe/${b!.webhookId}`;
  paths.paymongo = `/webhooks/paymongo/${p.webhookId}`;
  ids.stripeA = a!.integratorId;
  ids.stripeB = b!.integratorId;
});
afterAll(async () => {
  await server?.close();
  await t?.close();
  await stripe?.close();
  await paymongo?.close();
});

const post = (path: string, event: { rawBody: string; headers: Headers }, headers: Record<string, string> = {}) =>
  call(server.url, 'POST', path, { token: null, raw: event.rawBody, headers: { ...Object.fromEntries(event.headers), ...headers } });
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A Stripe event of a type paylink does not act on, signed at `t`. */
const stripeEvent = (t: number) => stripe.event('customer.created', { id: 'cus_1', object: 'customer' }, { t });
/** A PayMongo event of a type paylink does not act on, signed at `t`. */
const paymongoEvent = (t: number) => {
  const { rawBody } = paymongo.event('source.chargeable', { id: 'src_1', type: 'source', attributes: {} });
  return { rawBody, headers: new Headers({ 'content-type': 'application/json', 'paymongo-signature': paymongo.sign(rawBody, t) }) };
};

const providers = [
  { name: 'stripe', header: 'stripe-signature', path: () => paths.stripeA, event: stripeEvent },
  { name: 'paymongo', header: 'paymongo-signature', path: () => paths.paymongo, event: paymongoEvent },
] as const;

describe('provider webhooks › freshness', () => {
  for (const p of providers) {
    it(`${p.name}: an event signed more than 300 s ago is refused with ER.01.21 under ${p.header}, and changes nothing`, async () => {
      const before = (await t.app.db.select().from(providerWebhookEvents)).length;
      for (const at of [nowSeconds() - 301, nowSeconds() - 86_400, 0]) {
        const res = await post(p.path(), p.event(at));
        expect(res.status, res.text).toBe(401);
        expect(res.json.data.status_code).toBe('ER.01.21');
        expect(Object.keys(res.json.messages)).toEqual([p.header]);
        expect(res.json.messages[p.header][0]).toMatch(/tolerance|ago/);
      }
      expect(await t.app.db.select().from(providerWebhookEvents)).toHaveLength(before);
    });

    it(`${p.name}: an event signed more than 300 s ahead of paylink's clock is refused with ER.01.21`, async () => {
      // 302: the server reads its clock a moment later, and a second may tick over in between.
      for (const at of [nowSeconds() + 302, nowSeconds() + 3600]) {
        const res = await post(p.path(), p.event(at));
        expect(res.status, res.text).toBe(401);
        expect(res.json.data.status_code).toBe('ER.01.21');
        expect(res.json.messages[p.header][0]).toMatch(/ahead/);
      }
    });

    it(`${p.name}: an event signed within 300 s either way is taken`, async () => {
      for (const at of [nowSeconds() - 290, nowSeconds(), nowSeconds() + 290]) {
        const res = await post(p.path(), p.event(at));
        expect(res.status, res.text).toBe(200);
        expect(res.json.data.outcome).toBe('ignored');
      }
    });
  }
});

describe('provider webhooks › signature errors name the provider’s own header', () => {
  for (const p of providers) {
    it(`${p.name}: a signature that does not verify is ER.01.20 under ${p.header}`, async () => {
      const event = p.event(nowSeconds());
      const res = await post(p.path(), { rawBody: event.rawBody.replace('src_1', 'src_2').replace('cus_1', 'cus_2'), headers: event.headers });
      expect(res.status, res.text).toBe(401);
      expect(res.json.data.status_code).toBe('ER.01.20');
      expect(Object.keys(res.json.messages)).toEqual([p.header]);
      const missing = await call(server.url, 'POST', p.path(), { token: null, raw: event.rawBody });
      expect(missing.json.data.status_code).toBe('ER.01.20');
      expect(Object.keys(missing.json.messages)).toEqual([p.header]);
    });
  }
});

describe('provider webhooks › de-duplication per integrator', () => {
  it('the same event id sent to two integrators is applied for each; sent twice to one, once', async () => {
    const intent = { id: 'pi_shared', object: 'payment_intent', status: 'succeeded', latest_charge: 'ch_shared' };
    const event = stripe.event('payment_intent.succeeded', intent, { eventId: 'evt_shared_1' });
    const toA = await post(paths.stripeA, event);
    expect(toA.json.data, toA.text).toMatchObject({ status_code: 'OK.00.00', outcome: 'applied' });
    const toB = await post(paths.stripeB, event);
    expect(toB.json.data, toB.text).toMatchObject({ status_code: 'OK.00.00', outcome: 'applied' });
    const againToA = await post(paths.stripeA, event);
    expect(againToA.json.data.outcome).toBe('duplicate');
    const againToB = await post(paths.stripeB, event);
    expect(againToB.json.data.outcome).toBe('duplicate');
    const rows = await t.app.db.select().from(providerWebhookEvents).where(eq(providerWebhookEvents.eventId, 'evt_shared_1'));
    expect(rows.map((r) => r.integratorId).sort()).toEqual([ids.stripeA, ids.stripeB].sort());
  });
});

describe('provider webhooks › PAYLINK_PROVIDER_WEBHOOK_TOLERANCE_SECONDS', () => {
  let strict: TestApp;
  let strictServer: { url: string; close(): Promise<void> };
  let path = '';
  beforeAll(async () => {
    strict = await createTestApp({ env: { PAYLINK_PROVIDER_WEBHOOK_TOLERANCE_SECONDS: '60' } });
    const seed = defaultSeed();
    seed.integrators[1]!.acquirer = acquirerSeed('stripe', stripe);
    await provision(strict, seed);
    strictServer = await startTestServer(strict.app);
    const [row] = await strict.app.db.select().from(integratorAcquirers);
    path = `/webhooks/stripe/${row!.webhookId}`;
  });
  afterAll(async () => {
    await strictServer?.close();
    await strict?.close();
  });

  it('sets the tolerance: at 60 s, an event signed 120 s ago or ahead is refused, one 30 s ago taken', async () => {
    const send = (event: { rawBody: string; headers: Headers }) =>
      call(strictServer.url, 'POST', path, { token: null, raw: event.rawBody, headers: Object.fromEntries(event.headers) });
    expect((await send(stripeEvent(nowSeconds() - 120))).json.data.status_code).toBe('ER.01.21');
    expect((await send(stripeEvent(nowSeconds() + 120))).json.data.status_code).toBe('ER.01.21');
    expect((await send(stripeEvent(nowSeconds() - 30))).json.data.outcome).toBe('ignored');
  });
});
