import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { cardRegistrations, checkoutSessions, links, payments, scheduleRuns, schedules } from '../../../src/db/schema.ts';
import { issueStaticTicket } from '../../../src/domain/checkout/sessions.ts';
import { runSchedulerTick } from '../../../src/domain/schedules/tick.ts';
import { recoverSubscriptionStarts } from '../../../src/domain/subscriptions/recovery.ts';
import { sessionHash } from '../../../src/domain/subscriptions/start.ts';
import { call, OTHER_TOKEN, type TestApp } from '../../support/app.ts';
import { browserConfirmsSetup, type FakeStripe } from '../../support/fakes/stripe.ts';
import { useProviderApp } from '../../support/provider-app.ts';
import { testClock } from '../../support/schedules.ts';

/**
 * A free trial on a subscription link of a merchant on Stripe (docs/subscriptions.md §2, "Trials"):
 * the page's start makes a SetupIntent (never a PaymentIntent), Stripe's form saves the card, and
 * the return or the `setup_intent.succeeded` webhook, whichever comes first, starts the trial once:
 * a saved-card registration with Stripe's payment method and customer, a schedule whose first charge
 * is the trial's end, no payment. A refused card starts nothing and the form takes another.
 */
let t: TestApp;
let fake: FakeStripe;
let server: { url: string; close(): Promise<void> };
let webhookPath = '';
// Starts at the real time (Stripe signatures are checked against paylink's clock), at a minute's start.
const clock = testClock(new Date(Math.floor(Date.now() / 60_000) * 60_000 + 30_000));
const provider = useProviderApp('stripe', { integrator: 1, now: clock.now });
const api = (method: string, path: string, body?: unknown) => call(server.url, method, path, { token: OTHER_TOKEN, body });
const customer = (email: string) => ({ 'customer.first_name': 'Ana', 'customer.last_name': 'Reyes', 'customer.contact.email': email });
const sendEvent = (event: { rawBody: string; headers: Headers }) =>
  call(server.url, 'POST', webhookPath, { token: null, raw: event.rawBody, headers: Object.fromEntries(event.headers) });

beforeAll(async () => {
  ({ fake, t, server, webhookPath } = provider);
  const made = await api('POST', '/api/v1/links', {
    slug: 'yoga-trial',
    title: 'Yoga',
    currency: 'USD',
    amount: '12.00',
    subscription: { interval: 'month', trial_days: 7, cycles: 6 },
  });
  expect(made.status, made.text).toBe(200);
});

const linkOf = async () => (await t.app.db.select().from(links).where(eq(links.slug, 'yoga-trial')))[0]!;
const sessionOf = async (id: string) => (await t.app.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)))[0]!;
const trialSchedule = async (sessionId: string) =>
  (
    await t.app.db
      .select()
      .from(schedules)
      .where(eq(schedules.payloadHash, sessionHash(sessionId)))
  )[0];

/** The customer submits the page: paylink answers with a SetupIntent's client secret. */
async function start(email: string) {
  const link = await linkOf();
  const res = await call(server.url, 'POST', '/pay/yoga-trial/provider', {
    token: null,
    body: { session: issueStaticTicket(t.app, link.id), fields: customer(email) },
  });
  expect(res.status, res.text).toBe(200);
  const started = res.json.data as { provider_payment_id: string; client_key: string; return_url: string; mode?: string };
  return { started, sessionId: sessionIdOf(started.provider_payment_id) };
}

/** Stripe.js confirms the setup with a test card, in the browser. */
const confirm = (started: { provider_payment_id: string; client_key: string; return_url: string }, paymentMethod: string) =>
  browserConfirmsSetup(fake, { setupId: started.provider_payment_id, clientSecret: started.client_key }, paymentMethod, started.return_url);

/** The checkout session a setup was made for: its reference, kept by Stripe in the setup's metadata. */
const sessionIdOf = (setupId: string) => String((fake.setupIntent(setupId)!.metadata as Record<string, string>).paylink_registration);

describe('subscriptions › a free trial with Stripe', () => {
  it('the page offers it: Stripe’s form, the trial’s words, and its button', async () => {
    const page = await call(server.url, 'GET', '/pay/yoga-trial', { token: null });
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-testid="trial-offer"');
    expect(page.text).toContain('Start free trial');
    expect(page.text).toContain('&quot;trial&quot;:[0,true]');
  });

  it('saved by a SetupIntent and started on the return: no PaymentIntent, no payment, first charge at the trial’s end', async () => {
    const before = fake.requests.length;
    const { started } = await start('ana@example.com');
    expect(started.mode).toBe('setup');
    expect(started.provider_payment_id).toMatch(/^seti_/);
    expect(fake.requests.slice(before).some((r) => r.path.startsWith('/v1/payment_intents'))).toBe(false);
    const [session] = await t.app.db.select().from(checkoutSessions).where(eq(checkoutSessions.providerPaymentId, started.provider_payment_id));
    expect(session).toBeUndefined(); // a setup is no payment: the payment reconciler never asks about it
    const confirmed = await confirm(started, 'pm_card_visa');
    expect(confirmed.json.status).toBe('succeeded');
    const back = await fetch(started.return_url, { redirect: 'manual' });
    expect(back.status).toBe(303);
    const page = await fetch(new URL(back.headers.get('location')!, server.url));
    const html = await page.text();
    expect(html).toContain('Your free trial has started');
    expect(html).toContain('•••• 4242');

    const [schedule] = await t.app.db
      .select()
      .from(schedules)
      .where(eq(schedules.linkId, (await linkOf()).id));
    expect(schedule).toMatchObject({ status: 'active', cyclesLeft: 6, amountMinor: 1200n, currency: 'USD' });
    expect(schedule!.nextRunAt?.getTime()).toBe(clock.now().getTime() + 7 * 86_400_000);
    expect(schedule!.trialEndsAt?.getTime()).toBe(schedule!.nextRunAt?.getTime());
    const [registration] = await t.app.db.select().from(cardRegistrations).where(eq(cardRegistrations.reference, schedule!.cardRegistrationReference));
    expect(registration).toMatchObject({ status: 'active', collection: 'saved_card', last4: '4242', customerEmail: 'ana@example.com' });
    expect(registration!.cardToken).toMatch(/^pm_/);
    expect(fake.paymentMethodCustomer(registration!.cardToken!)).toBe(registration!.cardCustomer);
    expect(await t.app.db.select().from(payments).where(eq(payments.linkId, schedule!.linkId!))).toHaveLength(0);

    // A second return, and Stripe's webhook after it, start nothing more.
    expect((await fetch(started.return_url, { redirect: 'manual' })).status).toBe(303);
    const event = fake.event('setup_intent.succeeded', fake.setupIntent(started.provider_payment_id)!, { eventId: `evt_trial_${started.provider_payment_id}` });
    expect((await sendEvent(event)).json.data.outcome).toBe('applied');
    expect(await t.app.db.select().from(schedules).where(eq(schedules.linkId, schedule!.linkId!))).toHaveLength(1);
  });

  it('started by the webhook when the customer never comes back from Stripe’s form', async () => {
    const { started, sessionId } = await start('ben@example.com');
    await confirm(started, 'pm_card_mastercard');
    const event = fake.event('setup_intent.succeeded', fake.setupIntent(started.provider_payment_id)!, { eventId: `evt_trial_${started.provider_payment_id}` });
    expect((await sendEvent(event)).json.data.outcome).toBe('applied');
    expect(await trialSchedule(sessionId)).toBeDefined();
    expect((await sessionOf(sessionId)).status).toBe('paid');
  });

  it('a declined card starts nothing; the same page then takes another card', async () => {
    const { started, sessionId } = await start('cai@example.com');
    const refused = await confirm(started, 'pm_card_chargeDeclined');
    expect(refused.json.status).toBe('requires_payment_method');
    expect((await fetch(started.return_url, { redirect: 'manual' })).status).toBe(303);
    expect(await trialSchedule(sessionId)).toBeUndefined();
    const session = await sessionOf(sessionId);
    expect(session).toMatchObject({ status: 'open', processingAt: null, attempts: 1 });
  });

  it('a process stopped between closing the session and starting the trial: the loop starts it from the setup', async () => {
    const { started, sessionId } = await start('dee@example.com');
    await confirm(started, 'pm_card_visa');
    // What the return's first step leaves when the process stops right after it: closed, the trial owed.
    await t.app.db
      .update(checkoutSessions)
      .set({ status: 'paid', paidAt: clock.now(), processingAt: null, subscriptionPendingAt: clock.now() })
      .where(eq(checkoutSessions.id, sessionId));
    expect((await fetch(started.return_url, { redirect: 'manual' })).status).toBe(303);
    expect(await trialSchedule(sessionId)).toBeUndefined();
    clock.advance(121);
    expect(await recoverSubscriptionStarts(t.app, { limit: 10 })).toBe(1);
    const schedule = await trialSchedule(sessionId);
    expect(schedule).toMatchObject({ status: 'active', cyclesLeft: 6 });
    expect(schedule!.trialEndsAt).not.toBeNull();
    expect((await sessionOf(sessionId)).subscriptionPendingAt).toBeNull();
  });

  it('at the trial’s end the scheduler charges the saved card off-session: the first payment', async () => {
    const [schedule] = await t.app.db
      .select()
      .from(schedules)
      .where(eq(schedules.linkId, (await linkOf()).id))
      .orderBy(schedules.createdAt)
      .limit(1);
    const before = fake.requests.length;
    clock.advance(7 * 86_400 + 1);
    await runSchedulerTick(t.app);
    const runs = await t.app.db.select().from(scheduleRuns).where(eq(scheduleRuns.scheduleId, schedule!.id));
    expect(runs.map((r) => r.status)).toEqual(['succeeded']);
    expect(fake.requests.slice(before).filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents').length).toBeGreaterThan(0);
    expect((await t.app.db.select().from(schedules).where(eq(schedules.id, schedule!.id)))[0]).toMatchObject({ cyclesLeft: 5 });
  });
});
