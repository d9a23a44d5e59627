import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { cardRegistrations, checkoutSessions, links, payments, scheduleRuns, schedules } from '../../../src/db/schema.ts';
import { issueStaticTicket } from '../../../src/domain/checkout/sessions.ts';
import { runSchedulerTick } from '../../../src/domain/schedules/tick.ts';
import { subscriberToken } from '../../../src/domain/subscriptions/access.ts';
import { call, OTHER_TOKEN, type TestApp } from '../../support/app.ts';
import { browserConfirms, browserConfirmsSetup, type FakeStripe } from '../../support/fakes/stripe.ts';
import { useProviderApp } from '../../support/provider-app.ts';
import { testClock } from '../../support/schedules.ts';

/**
 * A subscription link of a merchant on Stripe (docs/subscriptions.md §2, §3): paid by card, the
 * PaymentIntent keeps the card (a customer, setup_future_usage=off_session), the subscription
 * charges it off-session each period, and the customer replaces it from their page through
 * Stripe's form in setup mode (the in-repo fake of Stripe's API).
 */
let t: TestApp;
let fake: FakeStripe;
let server: { url: string; close(): Promise<void> };
let webhookPath = '';
// Starts at the real time (Stripe signatures are checked against paylink's clock), at a minute's start.
const clock = testClock(new Date(Math.floor(Date.now() / 60_000) * 60_000 + 30_000));
const provider = useProviderApp('stripe', { integrator: 1, now: clock.now });
const ana = { 'customer.first_name': 'Ana', 'customer.last_name': 'Reyes', 'customer.contact.email': 'ana@example.com' };
const ben = { 'customer.first_name': 'Ben', 'customer.last_name': 'Cruz', 'customer.contact.email': 'ben@example.com' };

beforeAll(async () => {
  ({ fake, t, server, webhookPath } = provider);
  for (const slug of ['yoga-monthly', 'yoga-late']) {
    const made = await call(server.url, 'POST', '/api/v1/links', {
      token: OTHER_TOKEN,
      body: { slug, title: 'Yoga membership', currency: 'USD', amount: '12.00', subscription: { interval: 'month', cancel: 'period_end' } },
    });
    expect(made.status, made.text).toBe(200);
  }
});

const linkOf = async (slug: string) => (await t.app.db.select().from(links).where(eq(links.slug, slug)))[0]!;
const sendEvent = (event: { rawBody: string; headers: Headers }) =>
  call(server.url, 'POST', webhookPath, { token: null, raw: event.rawBody, headers: Object.fromEntries(event.headers) });

/** The customer starts paying the link: paylink creates the PaymentIntent; the browser has not confirmed yet. */
async function start(slug: string, customer: Record<string, string>) {
  const link = await linkOf(slug);
  const res = await call(server.url, 'POST', `/pay/${slug}/provider`, { token: null, body: { session: issueStaticTicket(t.app, link.id), fields: customer } });
  expect(res.status, res.text).toBe(200);
  return { link, started: res.json.data as { provider_payment_id: string; client_key: string; return_url: string } };
}

/** Stripe.js confirms with the card; then the return page (or the webhook) records the payment. */
async function pay(slug: string, customer: Record<string, string>, via: 'return' | 'webhook' = 'return') {
  const { link, started } = await start(slug, customer);
  const confirmed = await browserConfirms(
    fake,
    { providerPaymentId: started.provider_payment_id, clientKey: started.client_key },
    'pm_card_visa',
    started.return_url,
  );
  expect(confirmed.status).toBe(200);
  if (via === 'webhook') {
    const event = fake.event('payment_intent.succeeded', fake.intent(started.provider_payment_id)!, { eventId: `evt_${started.provider_payment_id}` });
    expect((await sendEvent(event)).json.data.outcome).toBe('applied');
  }
  expect((await fetch(started.return_url, { redirect: 'manual' })).status).toBe(303);
  const [session] = await t.app.db.select().from(checkoutSessions).where(eq(checkoutSessions.providerPaymentId, started.provider_payment_id));
  const found = await t.app.db.select().from(schedules).where(eq(schedules.linkId, link.id));
  return { link, started, session: session!, schedules: found };
}

const registrationOf = async (reference: string) => (await t.app.db.select().from(cardRegistrations).where(eq(cardRegistrations.reference, reference)))[0]!;

describe('stripe subscriptions › started by a card payment', () => {
  it('the PaymentIntent keeps the card; the subscription is a saved-card registration with Stripe’s card and a schedule with its link', async () => {
    const { started, session, schedules: made } = await pay('yoga-monthly', ana);
    expect(session.status).toBe('paid');
    expect(fake.intent(started.provider_payment_id)).toMatchObject({ setup_future_usage: 'off_session', customer: expect.stringMatching(/^cus_/) });
    expect(made).toHaveLength(1);
    const registration = await registrationOf(made[0]!.cardRegistrationReference);
    const intent = fake.intent(started.provider_payment_id)!;
    expect(registration).toMatchObject({
      status: 'active',
      collection: 'saved_card',
      cardToken: intent.payment_method,
      cardCustomer: intent.customer,
      brand: 'visa',
      last4: '4242',
      customerEmail: 'ana@example.com',
    });
    expect(fake.paymentMethodCustomer(registration.cardToken!)).toBe(intent.customer);
    const shown = await call(server.url, 'GET', `/api/v1/schedules/${made[0]!.id}`, { token: OTHER_TOKEN });
    expect(shown.json.data.schedule, shown.text).toMatchObject({ link: 'yoga-monthly', status: 'active' });
  });

  it('the webhook first starts it once; the return page after it changes nothing', async () => {
    const { session, schedules: made } = await pay('yoga-late', ben, 'webhook');
    expect(session.status).toBe('paid');
    expect(made).toHaveLength(1);
    expect(await registrationOf(made[0]!.cardRegistrationReference)).toMatchObject({ collection: 'saved_card', cardToken: expect.stringMatching(/^pm_/) });
  });

  it('a card payment Stripe kept no card of (the link became a subscription meanwhile) falls back to a payment link by e-mail each period', async () => {
    const patched = async (subscription: unknown) =>
      (await call(server.url, 'PATCH', '/api/v1/links/other-shop-sub', { token: OTHER_TOKEN, body: { subscription } })).status;
    const made = await call(server.url, 'POST', '/api/v1/links', {
      token: OTHER_TOKEN,
      body: { slug: 'other-shop-sub', title: 'Tea of the month', currency: 'USD', amount: '9.00' },
    });
    expect(made.status, made.text).toBe(200);
    const { link, started } = await start('other-shop-sub', { ...ana, 'customer.contact.email': 'cara@example.com' });
    expect(fake.intent(started.provider_payment_id)).toMatchObject({ setup_future_usage: null, customer: null });
    expect(await patched({ interval: 'month' })).toBe(200);
    await browserConfirms(fake, { providerPaymentId: started.provider_payment_id, clientKey: started.client_key }, 'pm_card_visa', started.return_url);
    expect((await fetch(started.return_url, { redirect: 'manual' })).status).toBe(303);
    const [schedule] = await t.app.db.select().from(schedules).where(eq(schedules.linkId, link.id));
    expect(await registrationOf(schedule!.cardRegistrationReference)).toMatchObject({
      collection: 'pay_link',
      cardToken: null,
      customerEmail: 'cara@example.com',
    });
  });
});

describe('stripe subscriptions › the customer replaces the card', () => {
  const page = async (path: string) => {
    const res = await fetch(server.url + path, { redirect: 'manual' });
    return { status: res.status, html: await res.text(), csp: res.headers.get('content-security-policy') ?? '' };
  };
  const post = async (path: string, form: Record<string, string>) => {
    const res = await fetch(server.url + path, { method: 'POST', body: new URLSearchParams(form), redirect: 'manual', headers: { origin: server.url } });
    return res.headers.get('location') ?? '';
  };
  const anaSchedule = async () =>
    (
      await t.app.db
        .select()
        .from(schedules)
        .where(eq(schedules.linkId, (await linkOf('yoga-monthly')).id))
    )[0]!;
  const tokenFor = async (email: string) => subscriberToken(t.app, (await linkOf('yoga-monthly')).integratorId, email);

  /** Asks for Stripe's form: back on the page with the SetupIntent's form for that subscription. */
  async function openForm(token: string, scheduleId: string) {
    const location = await post('/subscriptions/manage/card-setup?lang=en', { token, subscription: scheduleId });
    const setupId = new URL(location, server.url).searchParams.get('setup') ?? '';
    expect(setupId, location).toMatch(/^seti_/);
    const shown = await page(location);
    const clientSecret = /seti_[a-f0-9]+_secret_[a-f0-9]+/.exec(shown.html)?.[0] ?? '';
    return { location, setupId, shown, clientSecret };
  }
  const returnOf = (shown: string) => /(http:\/\/[^"]+\/subscriptions\/manage\/card-setup\/return\?[^"]+)/.exec(shown)?.[1]?.replaceAll('&amp;', '&') ?? '';

  it('the page shows Stripe’s form in setup mode on the card’s customer; a declined card changes nothing; a saved one is charged next, the old one detached', async () => {
    const schedule = await anaSchedule();
    const token = await tokenFor('ana@example.com');
    const before = await registrationOf(schedule.cardRegistrationReference);
    const list = await page(`/subscriptions/manage?token=${token}`);
    expect(list.html).toContain('/subscriptions/manage/card-setup?lang=en');
    expect(list.html).not.toContain('cc-number');
    expect(list.csp).not.toContain('stripe');

    const { shown, setupId, clientSecret } = await openForm(token, schedule.id);
    expect(shown.status).toBe(200);
    expect(shown.html).toContain('data-acquirer="stripe"');
    expect(shown.html).toContain(fake.publishableKey);
    expect(shown.html).not.toContain(fake.secretKey);
    expect(shown.csp).toMatch(/script-src[^;]*https:\/\/js\.stripe\.com/);
    expect(clientSecret.startsWith(`${setupId}_secret_`)).toBe(true);
    // The new card joins the customer the first one belongs to.
    expect(fake.setupIntent(setupId)).toMatchObject({ usage: 'off_session', customer: before.cardCustomer });
    const back = returnOf(shown.html);
    expect(back).toContain(`subscription=${schedule.id}`);

    const declined = await browserConfirmsSetup(fake, { setupId, clientSecret }, 'pm_card_chargeDeclined', back);
    expect(declined.json.status).toBe('requires_payment_method');
    const again = await fetch(`${back}&setup_intent=${setupId}&redirect_status=failed`, { redirect: 'manual' });
    const retry = await page(again.headers.get('location') ?? '');
    expect(retry.html).toContain('Your card was not saved.');
    expect(retry.html).toContain(clientSecret);
    expect(await registrationOf(schedule.cardRegistrationReference)).toEqual(before);

    expect((await browserConfirmsSetup(fake, { setupId, clientSecret }, 'pm_card_mastercard', back)).json.status).toBe('succeeded');
    const saved = await fetch(`${back}&setup_intent=${setupId}&redirect_status=succeeded`, { redirect: 'manual' });
    const location = saved.headers.get('location') ?? '';
    expect(location).toContain('done=card_saved');
    const done = await page(location);
    expect(done.html).toContain('OK.07.03');
    expect(done.html).toContain('•••• 4444');
    const after = await registrationOf(schedule.cardRegistrationReference);
    expect(after).toMatchObject({
      status: 'active',
      last4: '4444',
      brand: 'mastercard',
      cardCustomer: before.cardCustomer,
      cardToken: expect.stringMatching(/^pm_/),
    });
    expect(after.cardToken).not.toBe(before.cardToken);
    expect(fake.paymentMethodCustomer(before.cardToken!)).toBeNull();
    // The same return again changes nothing.
    await fetch(`${back}&setup_intent=${setupId}&redirect_status=succeeded`, { redirect: 'manual' });
    expect(await registrationOf(schedule.cardRegistrationReference)).toEqual(after);

    // The next period is charged off-session through Stripe, on the new card and its customer.
    clock.set(new Date(schedule.nextRunAt!.getTime() + 1000));
    await runSchedulerTick(t.app);
    const [run] = await t.app.db.select().from(scheduleRuns).where(eq(scheduleRuns.scheduleId, schedule.id));
    expect(run).toMatchObject({ status: 'succeeded' });
    const [payment] = await t.app.db.select().from(payments).where(eq(payments.id, run!.paymentId!));
    expect(payment).toMatchObject({ amountMinor: 1200n, currency: 'USD', cardLast4: '4444', acquirerReference: expect.stringMatching(/^ch_/) });
    const intent = fake.intents().find((i) => i.latest_charge === payment!.acquirerReference)!;
    expect(intent).toMatchObject({ customer: after.cardCustomer, payment_method: after.cardToken, status: 'succeeded' });
  });

  it('another customer’s link cannot open, read or finish the form; Stripe unreachable says so and changes nothing', async () => {
    const schedule = await anaSchedule();
    const anaToken = await tokenFor('ana@example.com');
    const benToken = await tokenFor('ben@example.com');
    const before = await registrationOf(schedule.cardRegistrationReference);
    expect(await post('/subscriptions/manage/card-setup?lang=en', { token: benToken, subscription: schedule.id })).toContain('done=not_yours');
    const { setupId, clientSecret, shown } = await openForm(anaToken, schedule.id);
    const theirs = await page(`/subscriptions/manage?token=${benToken}&replace=${schedule.id}&setup=${setupId}`);
    expect(theirs.html).toContain('ER.07.01');
    expect(theirs.html).not.toContain(clientSecret);
    await browserConfirmsSetup(fake, { setupId, clientSecret }, 'pm_card_visa', returnOf(shown.html));
    const stolen = await fetch(`${server.url}/subscriptions/manage/card-setup/return?token=${benToken}&subscription=${schedule.id}&setup_intent=${setupId}`, {
      redirect: 'manual',
    });
    expect(stolen.headers.get('location')).toContain('done=not_yours');
    // Ben's own subscription cannot take a setup made for Ana's.
    const benSchedule = (
      await t.app.db
        .select()
        .from(schedules)
        .where(eq(schedules.linkId, (await linkOf('yoga-late')).id))
    )[0]!;
    const benBefore = await registrationOf(benSchedule.cardRegistrationReference);
    const swapped = await fetch(
      `${server.url}/subscriptions/manage/card-setup/return?token=${subscriberToken(t.app, benSchedule.integratorId, 'ben@example.com')}&subscription=${benSchedule.id}&setup_intent=${setupId}`,
      { redirect: 'manual' },
    );
    expect(swapped.headers.get('location')).toContain('done=not_yours');
    expect(await registrationOf(benSchedule.cardRegistrationReference)).toEqual(benBefore);
    expect(await registrationOf(schedule.cardRegistrationReference)).toEqual(before);

    fake.failNext(1);
    const location = await post('/subscriptions/manage/card-setup?lang=es', { token: anaToken, subscription: schedule.id });
    expect(location).toContain('done=card_unavailable');
    const unavailable = await page(location);
    expect(unavailable.html).toContain('ER.07.06');
    expect(unavailable.html).toContain('No pudimos conectar con el servicio de pagos');
    expect(await registrationOf(schedule.cardRegistrationReference)).toEqual(before);
  });
});
