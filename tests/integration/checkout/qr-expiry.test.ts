import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, integratorAcquirers, integrators } from '../../../src/db/schema.ts';
import { createDynamicLink } from '../../../src/domain/checkout/dynamic.ts';
import { startMethodAttempt } from '../../../src/domain/checkout/method-pay.ts';
import { findActiveLink } from '../../../src/domain/links/service.ts';
import { seedSchema } from '../../../src/schemas/provisioning.ts';
import { CONSOLE_USERS, createTestApp, defaultSeed, provision, TEST_TOKEN, type TestApp, useServedApp } from '../../support/app.ts';
import { ConsoleClient, textOf } from '../../support/console.ts';
import { type FakePaymongo, startFakePaymongo } from '../../support/fakes/paymongo.ts';
import { acquirerSeed } from '../../support/provider-app.ts';
import { testClock } from '../../support/schedules.ts';

/**
 * How long a QR Ph code lives is the integrator's to choose within PayMongo's range (60 to 9000
 * seconds; PayMongo's 30 minutes when not chosen): set on the Developers page or in the seed, passed
 * to the acquirer with each new code, and the payment page counts down to it.
 */
const clock = testClock('2026-05-04T08:00:00Z');
const served = useServedApp({ now: clock.now });
const customer = { 'customer.first_name': 'Juan', 'customer.last_name': 'Dela Cruz', 'customer.contact.email': 'juan@example.com' };

async function qrStarted(t: TestApp) {
  const created = await createDynamicLink(t.app, (await findActiveLink(t.app.db, 'acme-books'))!, { key: TEST_TOKEN });
  const token = new URL(created.url).pathname.split('/')[2]!;
  const started = await startMethodAttempt(t.app, { token, input: { method: 'qrph', fields: customer }, clientIp: '203.0.113.9' });
  if (started.kind !== 'qr') throw new Error(`expected a QR code, got ${started.kind}`);
  return { token, secondsLeft: (started.qr.expiresAt.getTime() - t.app.now().getTime()) / 1000 };
}

async function owner() {
  const c = new ConsoleClient(served.server.url);
  expect((await c.signIn(CONSOLE_USERS.acmeOwner.email, CONSOLE_USERS.acmeOwner.password)).status).toBe(303);
  return c;
}
const acmeId = async () => (await served.t.app.db.select().from(integrators).where(eq(integrators.name, 'Acme Books')))[0]!.id;
const qrSetting = async () =>
  (
    await served.t.app.db
      .select()
      .from(integratorAcquirers)
      .where(eq(integratorAcquirers.integratorId, await acmeId()))
  )[0]?.qrExpirySeconds ?? null;

describe('QR Ph expiry › the Developers page (sandbox)', () => {
  it('unset: a code lives PayMongo’s 30 minutes, and the field is empty', async () => {
    expect((await qrStarted(served.t)).secondsLeft).toBe(1800);
    const page = await (await owner()).get('/console/developers');
    expect(textOf(page.html)).toContain('QR Ph codes How long a customer has to scan and pay a QR Ph code.');
    expect(page.html).toContain('<input id="field-qr_expiry_minutes" name="qr_expiry_minutes" type="text" value autocomplete="off"');
  });

  it('15 minutes: saved, audited, shown; the next code expires 15 minutes after it starts and the page counts down from 15:00', async () => {
    const c = await owner();
    const saved = await c.post('/console/developers', { action: 'qr-expiry', qr_expiry_minutes: '15' });
    expect(saved.status, textOf(saved.html)).toBe(200);
    expect(textOf(saved.html)).toContain('QR Ph codes now expire 15 minutes after the customer chooses QR Ph.');
    expect(await qrSetting()).toBe(900);
    const [audit] = await served.t.app.db.select().from(auditLog).where(eq(auditLog.action, 'qr_expiry.changed'));
    expect(audit).toMatchObject({ target: '15', actorEmail: CONSOLE_USERS.acmeOwner.email });
    expect((await c.get('/console/activity')).html).toContain('Set QR Ph codes to expire after 15 minutes');
    const { token, secondsLeft } = await qrStarted(served.t);
    expect(secondsLeft).toBe(900);
    const page = await fetch(`${served.server.url}/checkout/${token}`).then((r) => r.text());
    expect(page).toContain('data-left="900"');
    expect(textOf(page)).toContain('15:00');
  });

  it('refuses minutes outside PayMongo’s range or not whole, beside the field; the saved value stands', async () => {
    const c = await owner();
    await c.post('/console/developers', { action: 'qr-expiry', qr_expiry_minutes: '20' });
    for (const bad of ['0', '151', '2.5', 'ten', '-5', '99999']) {
      const res = await c.post('/console/developers', { action: 'qr-expiry', qr_expiry_minutes: bad });
      expect(res.status, bad).toBe(422);
      expect(textOf(res.html)).toContain('Codes expire after (minutes) must be a whole number of minutes from 1 to 150 (PayMongo’s range)');
      expect(res.html).toContain(`value="${bad}"`);
      expect(await qrSetting()).toBe(1200);
    }
  });

  it('empty hands the codes back to PayMongo’s 30 minutes; changing the acquirer’s keys keeps the setting', async () => {
    const c = await owner();
    await c.post('/console/developers', { action: 'qr-expiry', qr_expiry_minutes: '150' });
    expect((await qrStarted(served.t)).secondsLeft).toBe(9000);
    // The acquirer form carries no QR setting: saving it (the sandbox again) leaves the codes' life as it was.
    expect((await c.post('/console/developers', { action: 'acquirer', provider: 'sandbox' })).status).toBe(200);
    expect(await qrSetting()).toBe(9000);
    const cleared = await c.post('/console/developers', { action: 'qr-expiry', qr_expiry_minutes: '' });
    expect(textOf(cleared.html)).toContain('QR Ph codes now expire after 30 minutes, PayMongo’s default.');
    expect(await qrSetting()).toBeNull();
    expect((await qrStarted(served.t)).secondsLeft).toBe(1800);
  });
});

describe('QR Ph expiry › the seed', () => {
  it('takes qr_expiry_seconds from 60 to 9000 for the sandbox and PayMongo, refuses it outside that range and for Stripe', () => {
    const withAcquirer = (acquirer: unknown) => {
      const seed = defaultSeed() as unknown as { integrators: Array<Record<string, unknown>> };
      seed.integrators[0]!.acquirer = acquirer;
      return seedSchema.safeParse(seed);
    };
    const paymongo = { provider: 'paymongo', public_key: 'pk_test_abcdefgh1', secret_key: 'sk_test_abcdefgh1', webhook_secret: 'whsk_abcdefgh1' };
    expect(withAcquirer({ provider: 'sandbox', qr_expiry_seconds: 60 }).success).toBe(true);
    expect(withAcquirer({ ...paymongo, qr_expiry_seconds: 9000 }).success).toBe(true);
    for (const bad of [59, 9001, 600.5, '600']) {
      const parsed = withAcquirer({ ...paymongo, qr_expiry_seconds: bad });
      expect(parsed.success, String(bad)).toBe(false);
    }
    const stripe = { provider: 'stripe', public_key: 'pk_test_abcdefgh1', secret_key: 'sk_test_abcdefgh1', webhook_secret: 'whsec_abcdefgh1' };
    expect(withAcquirer({ ...stripe, qr_expiry_seconds: 600 }).success).toBe(false);
  });
});

describe('QR Ph expiry › PayMongo', () => {
  let fake: FakePaymongo;
  let t: TestApp;
  beforeAll(async () => {
    fake = await startFakePaymongo();
    t = await createTestApp();
    const seed = defaultSeed();
    seed.integrators[0]!.acquirer = { ...acquirerSeed('paymongo', fake), qr_expiry_seconds: 600 };
    await provision(t, seed);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('the seed’s 10 minutes go to PayMongo as the QR Ph payment method’s expiry_seconds, and the code expires then', async () => {
    const before = fake.requests.length;
    const { secondsLeft } = await qrStarted(t);
    expect(fake.requests.slice(before).map((r) => r.path)).toContain('/v1/payment_methods');
    expect(fake.qrExpirySeconds.at(-1)).toBe(600);
    // Counted from the attach, on the real clock: a moment has passed since.
    expect(secondsLeft).toBeGreaterThan(590);
    expect(secondsLeft).toBeLessThanOrEqual(600);
  });
});
