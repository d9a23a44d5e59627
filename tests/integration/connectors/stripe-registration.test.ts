import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { declineMessages } from '../../../src/acquirer/acquirer.ts';
import { cardRegistrations, outboxEvents, payments } from '../../../src/db/schema.ts';
import { MAX_FORGET_ATTEMPTS, retryCardForgets } from '../../../src/domain/cards/forget.ts';
import { runSchedulerTick } from '../../../src/domain/schedules/tick.ts';
import { call, OTHER_SECRET, OTHER_TOKEN, type TestApp } from '../../support/app.ts';
import { browserConfirmsSetup, type FakeStripe } from '../../support/fakes/stripe.ts';
import { useProviderApp } from '../../support/provider-app.ts';
import { scheduleData, signSchedule, testClock } from '../../support/schedules.ts';

/**
 * Card registration for a merchant on Stripe (docs/stripe.md): the hosted page mounts the Payment
 * Element in setup mode with the registration's SetupIntent; the browser confirms it at Stripe (the
 * in-repo fake); the return address, the page itself or the `setup_intent.succeeded` webhook
 * activates the registration once; schedules then charge the saved card off-session with its customer.
 */
let t: TestApp;
let fake: FakeStripe;
let server: { url: string; close(): Promise<void> };
let webhookPath = '';
// Starts at the real time (Stripe signatures are checked against paylink's clock), at a minute's start.
const clock = testClock(new Date(Math.floor(Date.now() / 60_000) * 60_000 + 30_000));

const provider = useProviderApp('stripe', { integrator: 1, now: clock.now });
beforeAll(() => {
  ({ fake, t, server, webhookPath } = provider);
});

const tokenOf = (link: string) => new URL(link).pathname.split('/')[2]!;
const rowOf = async (reference: string) => (await t.app.db.select().from(cardRegistrations).where(eq(cardRegistrations.reference, reference)))[0]!;
const completedEvents = async (reference: string) =>
  (await t.app.db.select().from(outboxEvents).where(eq(outboxEvents.type, 'card_registration.completed'))).filter((e) => e.data.reference === reference);
const sendEvent = (event: { rawBody: string; headers: Headers }) =>
  call(server.url, 'POST', webhookPath, { token: null, raw: event.rawBody, headers: Object.fromEntries(event.headers) });

/** The integrator asks for a registration; the customer opens the page (the SetupIntent is made then). */
async function openRegistration(body: Record<string, unknown> = {}) {
  const created = await call(server.url, 'POST', '/api/v1/card-registrations', { token: OTHER_TOKEN, body });
  expect(created.status, created.text).toBe(200);
  expect(created.json.data.status_code).toBe('OK.11.00');
  const token = tokenOf(created.json.data.link);
  const page = await fetch(created.json.data.link);
  const html = await page.text();
  expect(page.status, html).toBe(200);
  const row = await rowOf(created.json.data.reference);
  const clientSecret = /seti_[a-f0-9]+_secret_[a-f0-9]+/.exec(html)?.[0] ?? '';
  return { reference: created.json.data.reference as string, link: created.json.data.link as string, token, page, html, row, clientSecret };
}

describe('stripe card registration (SetupIntent)', () => {
  it('the page mounts the Element in setup mode with the SetupIntent; the return activates the registration once', async () => {
    const before = fake.requests.length;
    const opened = await openRegistration({
      customer: { name: 'Ana Reyes', email: 'ana@example.com' },
      callback_url: 'http://127.0.0.1:9/cb',
      return_url: 'https://shop.example/done',
    });
    const { html, page, row, token, reference } = opened;
    // The Element's island with the publishable key and the SetupIntent's secret; no card field of paylink's own.
    expect(html).toContain('data-acquirer="stripe"');
    expect(html).toContain(fake.publishableKey);
    expect(row.cardSetupId).toMatch(/^seti_/);
    expect(opened.clientSecret.startsWith(`${row.cardSetupId}_secret_`)).toBe(true);
    expect(html).toContain(`${server.url}/register/${token}/return`);
    expect(html).toContain('Loading the secure card form from Stripe');
    expect(html).not.toContain('cc-number');
    expect(html).not.toContain(fake.secretKey);
    expect(html).not.toContain(fake.webhookSecret);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src[^;]*'self'[^;]*https:\/\/js\.stripe\.com/);
    expect(csp).toMatch(/frame-src[^;]*https:\/\/hooks\.stripe\.com/);
    expect(csp).toMatch(/connect-src[^;]*'self'[^;]*https:\/\/api\.stripe\.com/);
    // A customer named as the registration, and a SetupIntent for off-session use on it, each under the registration's key.
    expect(row).toMatchObject({ status: 'pending', cardToken: null, cardCustomer: expect.stringMatching(/^cus_/) });
    expect(fake.customer(row.cardCustomer!)).toEqual({ name: 'Ana Reyes', email: 'ana@example.com', metadata: { paylink_registration: reference } });
    expect(fake.setupIntent(row.cardSetupId!)).toMatchObject({ usage: 'off_session', customer: row.cardCustomer, status: 'requires_payment_method' });
    const made = fake.requests.slice(before).filter((r) => r.method === 'POST');
    expect(made.map((r) => [r.path, r.idempotencyKey])).toEqual([
      ['/v1/customers', `card-setup:${reference}:customer`],
      ['/v1/setup_intents', `card-setup:${reference}`],
    ]);
    // Opening the page again reads the same SetupIntent: nothing new at Stripe.
    const again = await (await fetch(opened.link)).text();
    expect(again).toContain(opened.clientSecret);
    expect(fake.requests.slice(before).filter((r) => r.method === 'POST')).toHaveLength(2);
    // The sandbox's pages keep paylink's strict policy.
    expect((await fetch(`${server.url}/pay/acme-books`)).headers.get('content-security-policy') ?? '').not.toContain('stripe');

    // The browser confirms the SetupIntent (Stripe.js's confirmSetup), then Stripe sends it back.
    const confirmed = await browserConfirmsSetup(
      fake,
      { setupId: row.cardSetupId!, clientSecret: opened.clientSecret },
      'pm_card_visa',
      `${server.url}/register/${token}/return`,
    );
    expect(confirmed).toMatchObject({ status: 200, json: { status: 'succeeded' } });
    const back = await fetch(`${server.url}/register/${token}/return?setup_intent=${row.cardSetupId}&redirect_status=succeeded`, { redirect: 'manual' });
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(`/register/${token}`);
    const active = await rowOf(reference);
    expect(active).toMatchObject({
      status: 'active',
      cardToken: expect.stringMatching(/^pm_/),
      cardCustomer: row.cardCustomer,
      brand: 'visa',
      last4: '4242',
      expMonth: 12,
      expYear: 2034,
      fingerprint: expect.stringMatching(/^[\w-]{16}$/),
    });
    expect(JSON.stringify(active)).not.toContain('4242424242424242');
    const events = await completedEvents(reference);
    expect(events).toHaveLength(1);
    expect(events[0]!.callbackUrl).toBe('http://127.0.0.1:9/cb');
    const shown = await call(server.url, 'GET', `/api/v1/card-registrations/${reference}`, { token: OTHER_TOKEN });
    expect(shown.json.data.card_registration).toMatchObject({ status: 'active', card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 } });
    expect(await (await fetch(opened.link)).text()).toContain('Card saved');

    // Stripe's webhooks after that: applied once, a duplicate and a late failure change nothing.
    const succeeded = fake.event('setup_intent.succeeded', fake.setupIntent(row.cardSetupId!)!, { eventId: `evt_seti_ok_${reference}` });
    expect((await sendEvent(succeeded)).json.data.outcome).toBe('applied');
    expect((await sendEvent(succeeded)).json.data.outcome).toBe('duplicate');
    const lateFailure = fake.event(
      'setup_intent.setup_failed',
      {
        ...fake.setupIntent(row.cardSetupId!)!,
        status: 'requires_payment_method',
        payment_method: null,
        last_setup_error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
      },
      { eventId: `evt_seti_late_${reference}` },
    );
    expect((await sendEvent(lateFailure)).status).toBe(200);
    expect(await rowOf(reference)).toEqual(active);
    expect(await completedEvents(reference)).toHaveLength(1);
  });

  it('the webhook alone activates a registration whose customer never came back; the return then changes nothing', async () => {
    const opened = await openRegistration({ customer: { name: 'Ben Cruz' } });
    await browserConfirmsSetup(fake, { setupId: opened.row.cardSetupId!, clientSecret: opened.clientSecret }, 'pm_card_mastercard', 'http://elsewhere.test/');
    const event = fake.event('setup_intent.succeeded', fake.setupIntent(opened.row.cardSetupId!)!, { eventId: `evt_seti_first_${opened.reference}` });
    const res = await sendEvent(event);
    expect(res.status, res.text).toBe(200);
    const active = await rowOf(opened.reference);
    expect(active).toMatchObject({ status: 'active', brand: 'mastercard', last4: '4444', cardCustomer: opened.row.cardCustomer });
    expect((await fetch(`${server.url}/register/${opened.token}/return`, { redirect: 'manual' })).status).toBe(303);
    expect(await rowOf(opened.reference)).toEqual(active);
    expect(await completedEvents(opened.reference)).toHaveLength(1);
    // A forged event is refused before anything is read.
    const forged = { rawBody: event.rawBody.replace('evt_seti_first', 'evt_seti_forged'), headers: event.headers };
    expect((await sendEvent(forged)).status).toBe(401);
  });

  it('the language of the page first opened is kept on the registration, so a webhook that activates it first leaves it set', async () => {
    const created = await call(server.url, 'POST', '/api/v1/card-registrations', { token: OTHER_TOKEN, body: { customer: { name: 'Eva Sison' } } });
    const reference = created.json.data.reference as string;
    expect((await rowOf(reference)).locale).toBe(null);
    const page = await fetch(`${created.json.data.link}?lang=es`);
    const html = await page.text();
    expect(page.status).toBe(200);
    const row = await rowOf(reference);
    expect(row).toMatchObject({ status: 'pending', locale: 'es', cardSetupId: expect.stringMatching(/^seti_/) });
    // A later view in another language does not replace the first one.
    expect((await fetch(`${created.json.data.link}?lang=fil`)).status).toBe(200);
    expect((await rowOf(reference)).locale).toBe('es');
    const clientSecret = /seti_[a-f0-9]+_secret_[a-f0-9]+/.exec(html)![0];
    await browserConfirmsSetup(fake, { setupId: row.cardSetupId!, clientSecret }, 'pm_card_visa', 'http://elsewhere.test/');
    const res = await sendEvent(fake.event('setup_intent.succeeded', fake.setupIntent(row.cardSetupId!)!, { eventId: `evt_seti_locale_${reference}` }));
    expect(res.status, res.text).toBe(200);
    expect(await rowOf(reference)).toMatchObject({ status: 'active', locale: 'es', last4: '4242' });
  });

  it('a declined card leaves the registration pending with the reason on the page; 3-D Secure then saves another card', async () => {
    const opened = await openRegistration();
    const setup = { setupId: opened.row.cardSetupId!, clientSecret: opened.clientSecret };
    const returnUrl = `${server.url}/register/${opened.token}/return`;
    const declined = await browserConfirmsSetup(fake, setup, 'pm_card_chargeDeclinedInsufficientFunds', returnUrl);
    expect(declined).toMatchObject({ status: 402, json: { status: 'requires_payment_method' } });
    expect((await fetch(returnUrl, { redirect: 'manual' })).status).toBe(303);
    expect(await rowOf(opened.reference)).toMatchObject({ status: 'pending', cardToken: null });
    const failedEvent = fake.event('setup_intent.setup_failed', fake.setupIntent(setup.setupId)!, { eventId: `evt_seti_failed_${opened.reference}` });
    expect((await sendEvent(failedEvent)).status).toBe(200);
    expect(await rowOf(opened.reference)).toMatchObject({ status: 'pending', cardToken: null });
    const page = await fetch(opened.link);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain(`Your card was not saved. ${declineMessages.insufficient_funds}`);
    expect(html).toContain(opened.clientSecret);

    // 3-D Secure: Stripe's challenge, then back to the return address, which activates it.
    const challenged = await browserConfirmsSetup(fake, setup, 'pm_card_threeDSecure2Required', returnUrl);
    expect(challenged.json.status).toBe('requires_action');
    expect((await fetch(returnUrl, { redirect: 'manual' })).status).toBe(303);
    expect((await rowOf(opened.reference)).status).toBe('pending');
    const challenge = await fetch(`${challenged.json.next_action!.redirect_to_url!.url}?answer=approve`, { redirect: 'manual' });
    expect(challenge.status).toBe(302);
    const location = new URL(challenge.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(returnUrl);
    expect((await fetch(location, { redirect: 'manual' })).status).toBe(303);
    expect(await rowOf(opened.reference)).toMatchObject({ status: 'active', brand: 'visa', last4: '3220' });
  });

  it('Stripe unreachable while the page prepares the setup: 503 with a plain message, then the next view works; a canceled setup takes no card', async () => {
    const created = await call(server.url, 'POST', '/api/v1/card-registrations', { token: OTHER_TOKEN, body: {} });
    fake.failNext(1);
    const down = await fetch(created.json.data.link);
    const downHtml = await down.text();
    expect(down.status).toBe(503);
    expect(downHtml).toContain('We could not reach the payment service to prepare the card form. Reload the page in a moment.');
    expect(downHtml).not.toContain('data-acquirer="stripe"');
    const up = await fetch(created.json.data.link);
    expect(up.status).toBe(200);
    expect(await up.text()).toMatch(/seti_[a-f0-9]+_secret_/);
    const row = await rowOf(created.json.data.reference);
    // Canceled at Stripe: the page says so and mounts nothing; the registration stays pending.
    fake.setSetupStatus(row.cardSetupId!, 'canceled');
    const closed = await fetch(created.json.data.link);
    const closedHtml = await closed.text();
    expect(closed.status).toBe(200);
    expect(closedHtml).toContain('This card registration can no longer take a card. The card setup was canceled at Stripe. Ask Other Shop for a new link.');
    expect(closedHtml).not.toContain('data-acquirer="stripe"');
    expect(closed.headers.get('content-security-policy') ?? '').not.toContain('stripe');
    expect(await rowOf(created.json.data.reference)).toMatchObject({ status: 'pending', cardToken: null });
  });

  it('refuses a card number posted to a Stripe registration (ER.03.26); nothing is kept', async () => {
    const opened = await openRegistration();
    const res = await call(server.url, 'POST', `/register/${opened.token}/card`, {
      token: null,
      body: { fields: {}, card: { number: '4242424242424242', expiry: '12/34', cvc: '123', name: 'Ana Reyes' } },
    });
    expect(res.status).toBe(409);
    expect(res.json.data.status_code).toBe('ER.03.26');
    expect(await rowOf(opened.reference)).toMatchObject({ status: 'pending', cardToken: null, attempts: 0 });
  });

  it('schedules charge the saved card off-session with its customer; a card detached at Stripe is declined', async () => {
    const opened = await openRegistration({ customer: { name: 'Cora Lim', email: 'cora@example.com' } });
    await browserConfirmsSetup(fake, { setupId: opened.row.cardSetupId!, clientSecret: opened.clientSecret }, 'pm_card_visa', 'http://x.test/');
    expect((await fetch(`${server.url}/register/${opened.token}/return`, { redirect: 'manual' })).status).toBe(303);
    const card = await rowOf(opened.reference);
    expect(card.status).toBe('active');
    const payload = await signSchedule(
      scheduleData({
        credit_card: { reference: opened.reference },
        payment: { description: 'Monthly plan', amount: 12, currency: 'USD', merchant_reference_id: 'plan-1' },
        route: { notify_user: false },
      }),
      { secret: OTHER_SECRET, iat: clock.now() },
    );
    const scheduled = await call(server.url, 'POST', '/api/v1/schedule', { token: OTHER_TOKEN, body: { payload } });
    expect(scheduled.json.data.status_code, scheduled.text).toBe('OK.12.00');
    const reference = scheduled.json.data.reference;

    const before = fake.requests.length;
    clock.advance(31);
    await runSchedulerTick(t.app);
    const shown = await call(server.url, 'GET', `/api/v1/schedules/${reference}`, { token: OTHER_TOKEN });
    const [run] = shown.json.data.schedule.runs;
    expect(run, shown.text).toMatchObject({ status: 'succeeded', transaction_status: 'succeeded' });
    const [payment] = await t.app.db.select().from(payments).where(eq(payments.id, run.transaction_id));
    expect(payment).toMatchObject({
      amountMinor: 1200n,
      currency: 'USD',
      cardBrand: 'visa',
      cardLast4: '4242',
      acquirerReference: expect.stringMatching(/^ch_/),
    });
    // One off-session PaymentIntent with the stored customer and card; the customer was not looked up.
    const made = fake.requests.slice(before);
    expect(made.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/payment_intents']);
    const intent = fake.intents().find((i) => i.latest_charge === payment!.acquirerReference)!;
    expect(intent).toMatchObject({ customer: card.cardCustomer, payment_method: card.cardToken, status: 'succeeded' });

    // The customer removed the card at Stripe: the next occurrence is declined (the stored card is no
    // longer available), the schedule's decline path, as for any declined card.
    const detached = await fetch(`${fake.url}/v1/payment_methods/${card.cardToken}/detach`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.secretKey}` },
    });
    expect(detached.status).toBe(200);
    clock.advance(60);
    await runSchedulerTick(t.app);
    const after = await call(server.url, 'GET', `/api/v1/schedules/${reference}`, { token: OTHER_TOKEN });
    const latest = after.json.data.schedule.runs[0];
    expect(after.json.data.schedule.runs).toHaveLength(2);
    expect(latest).toMatchObject({
      status: 'retrying',
      transaction_status: 'failed',
      failure_code: 'unknown_token',
      failure_message: declineMessages.unknown_token,
    });
  });

  it('deleting an active registration detaches its payment method at Stripe; a failure is retried by the loop and never fails the deletion', async () => {
    const activate = async () => {
      const opened = await openRegistration({ customer: { name: 'Dan Uy', email: 'dan@example.com' } });
      await browserConfirmsSetup(fake, { setupId: opened.row.cardSetupId!, clientSecret: opened.clientSecret }, 'pm_card_visa', 'http://x.test/');
      expect((await fetch(`${server.url}/register/${opened.token}/return`, { redirect: 'manual' })).status).toBe(303);
      const row = await rowOf(opened.reference);
      expect(row.status).toBe('active');
      expect(fake.paymentMethodCustomer(row.cardToken!)).toBe(row.cardCustomer);
      return row;
    };
    const del = (reference: string) => call(server.url, 'DELETE', '/api/v1/card-registration', { token: OTHER_TOKEN, body: { reference } });

    // Stripe answers: the deletion detaches the card at once (one POST, with an Idempotency-Key), nothing left to retry.
    const first = await activate();
    const before = fake.requests.length;
    const deleted = await del(first.reference);
    expect(deleted.json.data.status_code, deleted.text).toBe('OK.11.20');
    expect(fake.requests.slice(before).map((r) => `${r.method} ${r.path} ${r.idempotencyKey}`)).toEqual([
      `POST /v1/payment_methods/${first.cardToken}/detach card-forget:${first.reference}:1`,
    ]);
    expect(fake.paymentMethodCustomer(first.cardToken!)).toBe(null);
    expect(await rowOf(first.reference)).toMatchObject({ status: 'deleted', forgetNextAt: null, forgetAttempts: 1 });
    // Deleting again changes nothing and asks Stripe nothing.
    const beforeAgain = fake.requests.length;
    expect((await del(first.reference)).json.data.status_code).toBe('OK.11.21');
    expect(fake.requests.length).toBe(beforeAgain);

    // Stripe does not answer: the deletion still succeeds; the loop asks again after the wait.
    const second = await activate();
    fake.failNext(1);
    const down = await del(second.reference);
    expect(down.status).toBe(200);
    expect(down.json.data.status_code).toBe('OK.11.20');
    expect(fake.paymentMethodCustomer(second.cardToken!)).toBe(second.cardCustomer);
    const pending = await rowOf(second.reference);
    expect(pending).toMatchObject({ status: 'deleted', forgetAttempts: 1 });
    expect(pending.forgetNextAt!.getTime()).toBe(clock.now().getTime() + 60_000);
    const warned = t.logs.filter((l) => l.includes('deleted card not removed at the acquirer yet'));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain(second.reference);
    expect(warned[0]).not.toContain(second.cardToken!);
    // Not due yet: nothing is asked.
    expect(await retryCardForgets(t.app, { limit: 10 })).toBe(0);
    clock.advance(61);
    expect(await retryCardForgets(t.app, { limit: 10 })).toBe(1);
    expect(fake.paymentMethodCustomer(second.cardToken!)).toBe(null);
    expect(await rowOf(second.reference)).toMatchObject({ status: 'deleted', forgetNextAt: null, forgetAttempts: 2 });

    // Already detached at Stripe (the customer removed it there): done, no retry.
    const third = await activate();
    await fetch(`${fake.url}/v1/payment_methods/${third.cardToken}/detach`, { method: 'POST', headers: { authorization: `Bearer ${fake.secretKey}` } });
    expect((await del(third.reference)).json.data.status_code).toBe('OK.11.20');
    expect(await rowOf(third.reference)).toMatchObject({ status: 'deleted', forgetNextAt: null });

    // Stripe keeps failing: after the last attempt paylink gives up (logged), and stops asking.
    const fourth = await activate();
    fake.failNext(1);
    expect((await del(fourth.reference)).json.data.status_code).toBe('OK.11.20');
    await t.app.db
      .update(cardRegistrations)
      .set({ forgetAttempts: MAX_FORGET_ATTEMPTS - 1 })
      .where(eq(cardRegistrations.reference, fourth.reference));
    clock.advance(61);
    fake.failNext(1);
    expect(await retryCardForgets(t.app, { limit: 10 })).toBe(1);
    expect(await rowOf(fourth.reference)).toMatchObject({ forgetNextAt: null, forgetAttempts: MAX_FORGET_ATTEMPTS });
    expect(fake.paymentMethodCustomer(fourth.cardToken!)).toBe(fourth.cardCustomer);
    const gaveUp = t.logs.filter((l) => l.includes('deleted card not removed at the acquirer; giving up'));
    expect(gaveUp).toHaveLength(1);
    expect(gaveUp[0]).toContain(fourth.reference);
    expect(gaveUp[0]).not.toContain(fourth.cardToken!);
    expect(await retryCardForgets(t.app, { limit: 10 })).toBe(0);

    // A pending registration has no card: nothing to remove.
    const never = await openRegistration();
    const beforePending = fake.requests.length;
    expect((await del(never.reference)).json.data.status_code).toBe('OK.11.20');
    expect(fake.requests.length).toBe(beforePending);
    expect(await rowOf(never.reference)).toMatchObject({ status: 'deleted', forgetNextAt: null, forgetAttempts: 0 });
  });

  it('a registration link another integrator opens never shows this one, and an unknown page token is 404 without calling Stripe', async () => {
    const before = fake.requests.length;
    expect((await fetch(`${server.url}/register/not-a-real-token`)).status).toBe(404);
    expect((await fetch(`${server.url}/register/not-a-real-token/return`, { redirect: 'manual' })).status).toBe(303);
    expect(fake.requests.length).toBe(before);
    const opened = await openRegistration();
    const rows = await t.app.db
      .select()
      .from(cardRegistrations)
      .where(and(eq(cardRegistrations.cardSetupId, opened.row.cardSetupId!), eq(cardRegistrations.integratorId, opened.row.integratorId)));
    expect(rows).toHaveLength(1);
  });

  it('a deleted registration is never activated by a late success; a card given before the link expired is still recorded', async () => {
    const deleted = await openRegistration();
    const removed = await call(server.url, 'DELETE', '/api/v1/card-registration', { token: OTHER_TOKEN, body: { reference: deleted.reference } });
    expect(removed.json.data.status_code).toBe('OK.11.20');
    await browserConfirmsSetup(fake, { setupId: deleted.row.cardSetupId!, clientSecret: deleted.clientSecret }, 'pm_card_visa', 'http://x.test/');
    const late = fake.event('setup_intent.succeeded', fake.setupIntent(deleted.row.cardSetupId!)!, { eventId: `evt_seti_deleted_${deleted.reference}` });
    expect((await sendEvent(late)).status).toBe(200);
    expect(await rowOf(deleted.reference)).toMatchObject({ status: 'deleted', cardToken: null });
    expect(await completedEvents(deleted.reference)).toHaveLength(0);

    const slow = await openRegistration();
    await browserConfirmsSetup(fake, { setupId: slow.row.cardSetupId!, clientSecret: slow.clientSecret }, 'pm_card_visa', 'http://x.test/');
    const started = clock.now();
    try {
      clock.advance(t.app.config.checkoutTtlSeconds + 60);
      expect((await fetch(slow.link)).status).toBe(410);
      expect((await fetch(`${server.url}/register/${slow.token}/return`, { redirect: 'manual' })).status).toBe(303);
      expect(await rowOf(slow.reference)).toMatchObject({ status: 'active', last4: '4242' });
      expect(await completedEvents(slow.reference)).toHaveLength(1);
    } finally {
      clock.set(started);
    }
  });
});
