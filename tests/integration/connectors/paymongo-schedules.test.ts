import { randomUUID } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StripeConnector } from '../../../src/acquirer/stripe/connector.ts';
import { cardRegistrations, checkoutSessions, integrators, links, outboxEvents, payments, scheduleRuns, schedules } from '../../../src/db/schema.ts';
import { PAY_LINK_EMAIL_REQUIRED } from '../../../src/domain/cards/pay-link.ts';
import { claimDueOccurrences } from '../../../src/domain/schedules/claim.ts';
import { sendPaymentLinks } from '../../../src/domain/schedules/pay-links.ts';
import { runSchedulerTick } from '../../../src/domain/schedules/tick.ts';
import { t as tr } from '../../../src/i18n/index.ts';
import { createMailer } from '../../../src/workers/mailer.ts';
import {
  CONSOLE_USERS,
  call,
  createTestApp,
  defaultSeed,
  OTHER_SECRET,
  OTHER_TOKEN,
  provision,
  startTestServer,
  TEST_TOKEN,
  type TestApp,
} from '../../support/app.ts';
import { CARD_EXP } from '../../support/cards.ts';
import { ConsoleClient, textOf } from '../../support/console.ts';
import { browserPays, type FakePaymongo, startFakePaymongo } from '../../support/fakes/paymongo.ts';
import { browserConfirms, type FakeStripe, startFakeStripe } from '../../support/fakes/stripe.ts';
import { acquirerSeed } from '../../support/provider-app.ts';
import { scheduleData, signSchedule, testClock } from '../../support/schedules.ts';
import { startSmtpPeer } from '../../support/smtp-peer.ts';

/**
 * A PayMongo merchant's schedules, paid by a link e-mailed each cycle (docs/acquirers.md,
 * "Schedules"): the registration keeps no card, each due occurrence becomes a checkout e-mailed
 * exactly once, paying it settles the run, an unpaid link expires as a missed occurrence, and a
 * cancelled schedule sends no more links.
 */
let t: TestApp;
let fake: FakePaymongo;
let stripe: FakeStripe;
let peer: Awaited<ReturnType<typeof startSmtpPeer>>;
let server: { url: string; close(): Promise<void> };
// Monday 2 March 2026, 00:30 UTC: the daily 09:00 +08:00 occurrence is at 01:00Z.
const clock = testClock('2026-03-02T00:30:00.000Z');
let acmeId = '';
let otherId = '';

beforeAll(async () => {
  fake = await startFakePaymongo();
  stripe = await startFakeStripe();
  peer = await startSmtpPeer();
  t = await createTestApp({ now: clock.now, env: { SMTP_URL: peer.url, PAYLINK_SCHEDULE_MAX_FAILED_RUNS: '2' } });
  const seed = defaultSeed();
  seed.integrators[0]!.acquirer = acquirerSeed('paymongo', fake);
  // The other integrator takes cards through Stripe (native off-session charges).
  seed.integrators[1]!.acquirer = acquirerSeed('stripe', stripe);
  await provision(t, seed);
  server = await startTestServer(t.app);
  const [acme] = await t.app.db.select().from(integrators).where(eq(integrators.name, 'Acme Books'));
  acmeId = acme!.id;
  const [other] = await t.app.db.select().from(integrators).where(eq(integrators.name, 'Other Shop'));
  otherId = other!.id;
});
afterAll(async () => {
  await server?.close();
  await t?.close();
  await fake?.close();
  await stripe?.close();
  await peer?.close();
});

const daily = { second: '0', minute: '0', hour: '9', day_of_month: '*', month: '*', day_of_week: '*' };

async function sendMail() {
  const mailer = createMailer(t.app, { random: () => 0.5 });
  try {
    return await mailer.sendDue();
  } finally {
    await mailer.close();
  }
}

const eventsOf = (type: string, integratorId = acmeId) =>
  t.app.db
    .select()
    .from(outboxEvents)
    .where(and(eq(outboxEvents.integratorId, integratorId), eq(outboxEvents.type, type)))
    .orderBy(outboxEvents.createdAt, outboxEvents.id);
const runsOf = (scheduleId: string) => t.app.db.select().from(scheduleRuns).where(eq(scheduleRuns.scheduleId, scheduleId)).orderBy(scheduleRuns.dueAt);
const registrationCount = async () => (await t.app.db.select({ n: count() }).from(cardRegistrations))[0]!.n;

/** A pay-by-link registration confirmed on its page (in `lang`), and its reference and page token. */
async function confirmedRegistration(lang: 'en' | 'es' = 'es') {
  const created = await call(server.url, 'POST', '/api/v1/card-registrations', {
    body: { customer: { name: 'Ana Maria Reyes', email: 'ana@example.com' }, return_url: 'https://shop.example/done', callback_url: 'http://127.0.0.1:9/cb' },
  });
  expect(created.status, created.text).toBe(200);
  const reference = created.json.data.reference as string;
  const token = new URL(created.json.data.link).pathname.split('/')[2]!;
  const confirmed = await fetch(`${server.url}/register/${token}/confirm?lang=${lang}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: server.url },
  });
  expect(confirmed.status).toBe(303);
  return { reference, token };
}

async function createSchedule(reference: string, opts: { currency?: string; token?: string; secret?: string } = {}) {
  const res = await call(server.url, 'POST', '/api/v1/schedule', {
    token: opts.token,
    body: {
      payload: await signSchedule(
        scheduleData({
          credit_card: { reference },
          schedule: daily,
          route: { callback_url: 'http://127.0.0.1:9/callback', notify_user: true },
          payment: { description: 'Coffee plan', amount: 150, currency: opts.currency ?? 'PHP', merchant_reference_id: 'sub-42' },
        }),
        { iat: clock.now(), secret: opts.secret },
      ),
    },
  });
  expect(res.status, res.text).toBe(200);
  expect(res.json.data.status_code).toBe('OK.12.00');
  return res.json.data.reference as string;
}

/** The customer pays the e-mailed checkout through PayMongo (the island's two steps, then the return page). */
async function payLink(url: string) {
  const token = new URL(url).pathname.split('/')[2]!;
  const start = await call(server.url, 'POST', `/checkout/${token}/provider`, {
    token: null,
    body: { fields: { 'customer.first_name': 'Ana Maria', 'customer.last_name': 'Reyes', 'customer.contact.email': 'ana@example.com' } },
  });
  expect(start.status, start.text).toBe(200);
  const started = start.json.data as { provider_payment_id: string; client_key: string; public_key: string; api_base_url: string; return_url: string };
  const attached = (await browserPays(
    { url: started.api_base_url, publicKey: started.public_key },
    { providerPaymentId: started.provider_payment_id, clientKey: started.client_key },
    { number: '4343434343434345', cvc: '123', ...CARD_EXP },
    started.return_url,
  )) as { data: { attributes: { status: string } } };
  expect(attached.data.attributes.status).toBe('succeeded');
  const back = await fetch(started.return_url, { redirect: 'manual' });
  expect(back.status).toBe(303);
}

describe('paymongo › schedules paid by a link e-mailed each cycle', () => {
  it('a registration without the customer’s e-mail is refused (422, customer.email) and creates nothing', async () => {
    const before = await registrationCount();
    const res = await call(server.url, 'POST', '/api/v1/card-registrations', { body: { customer: { name: 'Ana Reyes' } } });
    expect(res.status).toBe(422);
    expect(res.json.data.status_code).toBe('ER.02.30');
    expect(res.json.messages).toEqual({ 'customer.email': [PAY_LINK_EMAIL_REQUIRED] });
    expect(await registrationCount()).toBe(before);
  });

  it('the hosted page asks no card: it explains the e-mailed links in the customer’s language, and Confirm (a plain form) activates it', async () => {
    const created = await call(server.url, 'POST', '/api/v1/card-registrations', { body: { customer: { name: 'Ana Reyes', email: 'ana@example.com' } } });
    expect(created.status, created.text).toBe(200);
    const { reference } = created.json.data;
    const token = new URL(created.json.data.link).pathname.split('/')[2]!;
    const view = await call(server.url, 'GET', `/api/v1/card-registrations/${reference}`);
    expect(view.json.data.card_registration).toMatchObject({ status: 'pending', collection: 'pay_link', card: null });

    const page = await fetch(`${server.url}/register/${token}?lang=fil`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`<h1>${tr('fil', 'register.pay_link.title')}</h1>`);
    expect(html).toContain(tr('fil', 'register.pay_link.intro', { merchant: 'Acme Books' }));
    expect(html).toContain(`action="/register/${token}/confirm?lang=fil"`);
    expect(html).toContain(`>${tr('fil', 'register.pay_link.button')}</button>`);
    expect(html).not.toContain('astro-island');
    expect(html).not.toContain(tr('fil', 'card.legend'));

    // A card posted to it anyway goes nowhere.
    const card = await call(server.url, 'POST', `/register/${token}/card`, {
      token: null,
      headers: { origin: server.url },
      body: { card: { number: '4343434343434345', expiry: '12/34', cvc: '123', name: 'Ana' } },
    });
    expect(card.status).toBe(422);
    // From another site: refused, nothing changes.
    const forged = await fetch(`${server.url}/register/${token}/confirm`, { method: 'POST', redirect: 'manual', headers: { origin: 'https://evil.example' } });
    expect(forged.status).toBe(403);
    const crossSite = await fetch(`${server.url}/register/${token}/confirm`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    expect((await fetch(`${server.url}/register/${token}/confirm`)).status).toBe(405);
    expect((await t.app.db.select().from(cardRegistrations).where(eq(cardRegistrations.reference, reference)))[0]!.status).toBe('pending');

    const confirmed = await fetch(`${server.url}/register/${token}/confirm?lang=fil`, { method: 'POST', redirect: 'manual', headers: { origin: server.url } });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe(`/register/${token}`);
    const [row] = await t.app.db.select().from(cardRegistrations).where(eq(cardRegistrations.reference, reference));
    expect(row).toMatchObject({ status: 'active', collection: 'pay_link', cardToken: null, brand: null, last4: null, locale: 'fil', activatedAt: clock.now() });
    const done = await (await fetch(`${server.url}/register/${token}?lang=fil`)).text();
    expect(done).toContain(tr('fil', 'register.pay_link.done.body', { merchant: 'Acme Books' }));
    // Confirming again changes nothing.
    await fetch(`${server.url}/register/${token}/confirm`, { method: 'POST', redirect: 'manual', headers: { origin: server.url } });
    const completed = (await eventsOf('card_registration.completed')).filter((e) => e.data.reference === reference);
    expect(completed.map((e) => e.data)).toEqual([
      {
        reference,
        status: 'active',
        collection: 'pay_link',
        customer: expect.objectContaining({ name: 'Ana Reyes', email: 'ana@example.com' }),
        card: { brand: null, last4: null, exp_month: null, exp_year: null },
      },
    ]);
  });

  it('schedule accepted → one e-mailed link per occurrence even with two runners at once → paid through PayMongo → the run is paid; an unpaid link expires as missed; cancelling stops the links', async () => {
    const { reference } = await confirmedRegistration('es');
    const scheduleId = await createSchedule(reference);
    const mailBefore = peer.messages.length;

    // Due at 01:00Z: two runners at once, then another: one link, one e-mail.
    clock.set('2026-03-02T01:00:05.000Z');
    const ticks = [...(await Promise.all([runSchedulerTick(t.app), runSchedulerTick(t.app)])), await runSchedulerTick(t.app)];
    expect(ticks.reduce((n, tick) => n + tick.outcomes.awaiting_customer, 0)).toBe(1);
    let runs = await runsOf(scheduleId);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      status: 'awaiting_customer',
      dueAt: new Date('2026-03-02T01:00:00.000Z'),
      nextAttemptAt: new Date('2026-03-03T01:00:00.000Z'),
    });
    const sent = (await eventsOf('schedule.payment_link_sent')).filter((e) => e.data.schedule_reference === scheduleId);
    expect(sent).toHaveLength(1);
    const url = sent[0]!.data.payment_url as string;
    expect(url).toMatch(new RegExp(`^${t.app.origin()}/checkout/[A-Za-z0-9_-]{43}$`));
    expect(sent[0]!.data).toEqual({
      schedule_reference: scheduleId,
      run_id: runs[0]!.id,
      due_at: '2026-03-02T09:00:00.000+08:00',
      amount: '150.00',
      currency: 'PHP',
      description: 'Coffee plan',
      merchant_reference_id: 'sub-42',
      payment_url: url,
      expires_at: '2026-03-03T09:00:00.000+08:00',
      reason: 'pay_by_link',
      failure_code: null,
      failure_message: null,
    });
    expect(sent[0]).toMatchObject({ emailTo: 'ana@example.com', callbackUrl: 'http://127.0.0.1:9/callback' });
    // The console shows the registration as pay-by-link and the run waiting for the customer.
    const owner = new ConsoleClient(server.url);
    expect((await owner.signIn(CONSOLE_USERS.acmeOwner.email, CONSOLE_USERS.acmeOwner.password)).status).toBe(303);
    expect(textOf((await owner.get('/console/card-registrations')).html)).toContain('Pay by link (e-mailed each cycle)');
    expect((await owner.get(`/console/schedules/${scheduleId}`)).html).toContain(
      '<span class="badge status-awaiting_customer">Waiting for the customer</span>',
    );

    expect(await sendMail()).toBeGreaterThanOrEqual(1);
    expect(await sendMail()).toBe(0);
    const mails = peer.messages.slice(mailBefore).filter((m) => m.parsed.text?.includes(url));
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.envelopeTo).toEqual(['ana@example.com']);
    // In the language the customer confirmed in (Spanish).
    expect(mail.parsed.subject).toBe('Pago pendiente: 150,00\u00a0PHP — Acme Books');
    expect(mail.parsed.text).toContain(tr('es', 'email.pay_link_text', { url }));
    expect(mail.parsed.html).toContain(`href="${url}"`);
    expect(mail.parsed.html).toContain(tr('es', 'email.pay_button', { amount: '150,00\u00a0PHP' }));

    // The link works: the PayMongo card form for exactly the occurrence's amount.
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('data-acquirer="paymongo"');
    expect(html).toContain('ana@example.com');

    await payLink(url);
    runs = await runsOf(scheduleId);
    expect(runs[0]!.status).toBe('succeeded');
    const [paid] = await t.app.db.select().from(payments).where(eq(payments.id, runs[0]!.paymentId!));
    expect(paid).toMatchObject({
      status: 'succeeded',
      amountMinor: 15_000n,
      currency: 'PHP',
      scheduleRunId: runs[0]!.id,
      cardRegistrationReference: reference,
      merchantReferenceId: 'sub-42',
    });
    const charged = (await eventsOf('schedule.charge_succeeded')).filter((e) => e.data.schedule_reference === scheduleId);
    expect(charged.map((e) => [e.data.transaction_id, e.data.run_id, e.data.due_at])).toEqual([[paid!.id, runs[0]!.id, '2026-03-02T09:00:00.000+08:00']]);
    expect((await eventsOf('payment.succeeded')).filter((e) => e.data.transaction_id === paid!.id)).toHaveLength(0);

    // Next day: a new link, left unpaid; the day after, it has expired (missed) and the next one goes out.
    clock.set('2026-03-03T01:00:05.000Z');
    expect((await runSchedulerTick(t.app)).outcomes.awaiting_customer).toBe(1);
    clock.set('2026-03-04T01:00:05.000Z');
    const tick = await runSchedulerTick(t.app);
    expect(tick.outcomes).toMatchObject({ missed: 1, awaiting_customer: 1, suspended: 0 });
    runs = await runsOf(scheduleId);
    expect(runs.map((r) => [r.status, r.lastFailureCode])).toEqual([
      ['succeeded', null],
      ['failed', 'payment_link_expired'],
      ['awaiting_customer', null],
    ]);
    const expired = (await eventsOf('schedule.payment_link_expired')).filter((e) => e.data.schedule_reference === scheduleId);
    expect(expired.map((e) => e.data)).toEqual([
      {
        schedule_reference: scheduleId,
        run_id: runs[1]!.id,
        due_at: '2026-03-03T09:00:00.000+08:00',
        failure_code: 'payment_link_expired',
        failure_message: 'The customer did not pay the payment link before it expired.',
      },
    ]);
    const [expiredSession] = await t.app.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, runs[1]!.checkoutSessionId!));
    expect(expiredSession!.status).toBe('open'); // never paid; its page says it expired
    expect((await t.app.db.select().from(schedules).where(eq(schedules.id, scheduleId)))[0]!.consecutiveFailures).toBe(1);

    // Cancelled: the waiting link closes, and no more links go out.
    const cancelled = await call(server.url, 'DELETE', '/api/v1/schedule', { body: { reference: scheduleId } });
    expect(cancelled.json.data.status_code).toBe('OK.12.20');
    runs = await runsOf(scheduleId);
    expect(runs[2]!.status).toBe('cancelled');
    const [closed] = await t.app.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, runs[2]!.checkoutSessionId!));
    expect(closed!.expiresAt).toEqual(clock.now());
    const sentBefore = (await eventsOf('schedule.payment_link_sent')).length;
    clock.set('2026-03-05T01:00:05.000Z');
    expect((await runSchedulerTick(t.app)).outcomes).toMatchObject({ awaiting_customer: 0, missed: 0 });
    expect(await runsOf(scheduleId)).toHaveLength(3);
    expect((await eventsOf('schedule.payment_link_sent')).length).toBe(sentBefore);
  });

  it('links expiring unpaid count as failed occurrences: PAYLINK_SCHEDULE_MAX_FAILED_RUNS of them in a row suspend the schedule', async () => {
    const { reference } = await confirmedRegistration('en');
    clock.set('2026-03-10T00:30:00.000Z');
    const scheduleId = await createSchedule(reference);
    for (const day of ['10', '11', '12']) {
      clock.set(`2026-03-${day}T01:00:05.000Z`);
      await runSchedulerTick(t.app);
    }
    const [schedule] = await t.app.db.select().from(schedules).where(eq(schedules.id, scheduleId));
    expect(schedule).toMatchObject({ status: 'suspended', consecutiveFailures: 2, nextRunAt: null });
    const suspended = (await eventsOf('schedule.suspended')).filter((e) => e.data.schedule_reference === scheduleId);
    expect(suspended.map((e) => e.data)).toEqual([
      {
        schedule_reference: scheduleId,
        transaction_id: null,
        consecutive_failed_runs: 2,
        failure_code: 'payment_link_expired',
        failure_message: 'The customer did not pay the payment link before it expired.',
      },
    ]);
  });

  it('a crash after the claim sends the link once its lease lapses; a second sender of the same claim sends nothing', async () => {
    const { reference } = await confirmedRegistration('en');
    clock.set('2026-03-15T00:30:00.000Z');
    const scheduleId = await createSchedule(reference);
    clock.set('2026-03-15T01:00:05.000Z');
    const claims = (await claimDueOccurrences(t.app, { limit: 10 })).filter((c) => c.scheduleId === scheduleId);
    expect(claims.map((c) => c.collection)).toEqual(['pay_link']);
    // The process dies here: nothing was sent. Within the lease nobody sends it either.
    expect((await runSchedulerTick(t.app)).outcomes.awaiting_customer).toBe(0);
    clock.advance(t.app.config.scheduleLeaseSeconds + 1);
    expect((await runSchedulerTick(t.app)).outcomes.awaiting_customer).toBe(1);
    // The dead process's sender, had it come back: already sent.
    expect(await sendPaymentLinks(t.app, [{ claim: claims[0]!, reason: 'pay_by_link' }])).toEqual(['already_recorded']);
    const sent = (await eventsOf('schedule.payment_link_sent')).filter((e) => e.data.schedule_reference === scheduleId);
    expect(sent).toHaveLength(1);
    expect(await runsOf(scheduleId)).toMatchObject([{ id: claims[0]!.runId, status: 'awaiting_customer', attempts: 1 }]);
    await call(server.url, 'DELETE', '/api/v1/schedule', { body: { reference: scheduleId } });
  });

  it('Stripe: an off-session charge the bank wants authenticated (authentication_required) e-mails the occurrence’s link instead of a plain decline', async () => {
    const connector = (await t.app.connectors.forIntegrator(otherId)) as StripeConnector;
    // A card saved after 3-D Secure on-session; later charges the bank still wants confirmed.
    const returnUrl = 'http://paylink.test/return';
    const created = await connector.createPayment(
      { amountMinor: 1000n, currency: 'USD', reference: 'sca', returnUrl, saveCard: true },
      { idempotencyKey: `sca:${randomUUID()}` },
    );
    if (created.status !== 'requires_payment_method') throw new Error(created.status);
    await browserConfirms(stripe, { providerPaymentId: created.providerPaymentId, clientKey: created.clientKey! }, 'pm_card_authenticationRequired', returnUrl);
    const action = await connector.syncPayment(created.providerPaymentId);
    if (action.status !== 'requires_action') throw new Error(action.status);
    await fetch(`${action.redirectUrl}?answer=approve`, { redirect: 'manual' });
    for (let i = 0; i < 3 && (await connector.syncPayment(created.providerPaymentId)).status === 'processing'; i++);
    const saved = await connector.savedCardOf(created.providerPaymentId);
    const reference = randomUUID();
    await t.app.db.insert(cardRegistrations).values({
      reference,
      integratorId: otherId,
      status: 'active',
      cardToken: saved!.token,
      brand: 'visa',
      last4: '3184',
      customerName: 'Maria Santos',
      customerEmail: 'maria@example.com',
      locale: 'en',
      createdAt: clock.now(),
      activatedAt: clock.now(),
    });
    clock.set('2026-03-20T00:30:00.000Z');
    const scheduleId = await createSchedule(reference, { currency: 'USD', token: OTHER_TOKEN, secret: OTHER_SECRET });
    const mailBefore = peer.messages.length;
    clock.set('2026-03-20T01:00:05.000Z');
    const tick = await runSchedulerTick(t.app);
    expect(tick.outcomes).toMatchObject({ awaiting_customer: 1, failed: 0, retrying: 0, error: 0 });
    const runs = await runsOf(scheduleId);
    expect(runs).toMatchObject([{ status: 'awaiting_customer', lastFailureCode: 'authentication_required', paymentId: null }]);
    // No plain decline: no failed payment, no charge_failed event.
    expect(await t.app.db.select().from(payments).where(eq(payments.scheduleRunId, runs[0]!.id))).toEqual([]);
    expect((await eventsOf('schedule.charge_failed', otherId)).filter((e) => e.data.schedule_reference === scheduleId)).toEqual([]);
    const sent = (await eventsOf('schedule.payment_link_sent', otherId)).filter((e) => e.data.schedule_reference === scheduleId);
    expect(sent.map((e) => [e.emailTo, e.data.reason, e.data.failure_code, e.data.amount, e.data.currency])).toEqual([
      ['maria@example.com', 'authentication_required', 'authentication_required', '150.00', 'USD'],
    ]);
    await sendMail();
    const mails = peer.messages.slice(mailBefore).filter((m) => m.envelopeTo.includes('maria@example.com'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.parsed.subject).toBe('Payment due: $150.00 — Other Shop');
    expect(mails[0]!.parsed.text).toContain(tr('en', 'email.reason.authenticate'));
    expect(mails[0]!.parsed.text).toContain(sent[0]!.data.payment_url as string);
    const page = await fetch(sent[0]!.data.payment_url as string);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('data-acquirer="stripe"');
  });

  it("the scheduled payments link is a system link: not among the merchant's links (API, console), not editable, never paid at its own address; its personal links pay", async () => {
    const { reference } = await confirmedRegistration('en');
    clock.set('2026-04-01T00:30:00.000Z');
    const scheduleId = await createSchedule(reference);
    clock.set('2026-04-01T01:00:05.000Z');
    await runSchedulerTick(t.app);
    const [sent] = (await eventsOf('schedule.payment_link_sent')).filter((e) => e.data.schedule_reference === scheduleId);
    const url = sent!.data.payment_url as string;
    const [run] = await runsOf(scheduleId);
    const [session] = await t.app.db.select().from(checkoutSessions).where(eq(checkoutSessions.scheduleRunId, run!.id));
    const [link] = await t.app.db.select().from(links).where(eq(links.id, session!.linkId));
    expect(link).toMatchObject({ system: true, active: true, title: 'Scheduled payment', integratorId: acmeId });
    expect(link!.slug).toMatch(/^scheduled-payments-[0-9a-f]{16}$/);

    // The API: not listed, not found by its slug, not editable (deactivating it is a 404 and changes nothing).
    const listed = await call(server.url, 'GET', '/api/v1/links?limit=100');
    expect(listed.status).toBe(200);
    expect((listed.json.data.items as Array<{ slug: string }>).map((l) => l.slug)).not.toContain(link!.slug);
    expect(listed.json.data.items.length).toBeGreaterThan(0);
    const shown = await call(server.url, 'GET', `/api/v1/links/${link!.slug}`);
    expect([shown.status, shown.json.data.status_code]).toEqual([404, 'ER.02.30']);
    const off = await call(server.url, 'PATCH', `/api/v1/links/${link!.slug}`, { body: { active: false } });
    expect([off.status, off.json.data.status_code]).toEqual([404, 'ER.02.30']);
    expect((await t.app.db.select().from(links).where(eq(links.id, link!.id)))[0]).toMatchObject({ active: true, system: true });
    // No merchant link can take the prefix.
    const squat = await call(server.url, 'POST', '/api/v1/links', {
      body: { slug: 'scheduled-payments-0000000000000000', title: 'Mine', currency: 'PHP', amount: 100 },
    });
    expect(squat.status, squat.text).toBe(422);
    expect(squat.json.messages.slug).toEqual(["must not start with scheduled-payments- (kept for paylink's own links)"]);

    // The console: not in the links list, its page is not found.
    const owner = new ConsoleClient(server.url);
    expect((await owner.signIn(CONSOLE_USERS.acmeOwner.email, CONSOLE_USERS.acmeOwner.password)).status).toBe(303);
    const list = await owner.get('/console/links');
    expect(list.status).toBe(200);
    expect(list.html).not.toContain(link!.slug);
    expect(textOf(list.html)).not.toContain('Scheduled payment');
    expect((await owner.get(`/console/links/${link!.slug}`)).status).toBe(404);

    // Its own address takes no payment: the page sends the customer to their personal link, the static
    // submit and the integrator's dynamic POST are refused, and it has no QR code.
    const page = await fetch(`${server.url}/pay/${link!.slug}`);
    expect(page.status).toBe(404);
    const submit = await call(server.url, 'POST', `/pay/${link!.slug}/pay`, { token: null, body: { fields: {}, session: 'x' } });
    expect([submit.status, submit.json.data.status_code]).toEqual([404, 'ER.03.10']);
    const dynamic = await call(server.url, 'POST', `/pay/${link!.slug}`, {
      token: null,
      body: { key: TEST_TOKEN, payment: { amount: 10, currency: 'PHP' }, customer: { contact: { email: 'x@example.com' } } },
    });
    expect([dynamic.status, dynamic.json.data.status_code]).toEqual([404, 'ER.03.10']);
    expect((await fetch(`${server.url}/pay/${link!.slug}/qr.svg`)).status).toBe(404);

    // The personal link e-mailed for the occurrence pays.
    await payLink(url);
    const [paid] = await runsOf(scheduleId);
    expect(paid).toMatchObject({ status: 'succeeded' });
    // Its payments still name it, so the integrator finds them by it.
    const found = await call(server.url, 'GET', `/api/v1/transactions?link=${link!.slug}`);
    expect(found.status, found.text).toBe(200);
    // (The earlier journey paid through the same link: both are listed.)
    const items = found.json.data.items as Array<{ transaction_id: string; link: string }>;
    expect(items.find((i) => i.transaction_id === paid!.paymentId)?.link).toBe(link!.slug);
    expect(items.every((i) => i.link === link!.slug)).toBe(true);
  });

  it('refusals stay clear where neither works: a connector that charges saved cards but cannot keep one for paylink (ER.11.31)', async () => {
    const connector = await t.app.connectors.forIntegrator(otherId);
    const saved = connector.capabilities;
    // An acquirer with native off-session charges whose cards paylink cannot collect (no vault, no provider element).
    Object.defineProperty(connector, 'capabilities', { value: { ...saved, cardCollection: 'server_vault' }, configurable: true, writable: true });
    try {
      const before = await registrationCount();
      const res = await call(server.url, 'POST', '/api/v1/card-registrations', { token: OTHER_TOKEN, body: { customer: { email: 'maria@example.com' } } });
      expect(res.status).toBe(409);
      expect(res.json.data.status_code).toBe('ER.11.31');
      expect(await registrationCount()).toBe(before);
    } finally {
      Object.defineProperty(connector, 'capabilities', { value: saved, configurable: true, writable: true });
    }
  });
});
