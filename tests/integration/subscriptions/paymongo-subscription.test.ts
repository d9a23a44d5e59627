import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardRegistrations, checkoutSessions, links, outboxEvents, payments, scheduleRuns, schedules } from '../../../src/db/schema.ts';
import { issueStaticTicket } from '../../../src/domain/checkout/sessions.ts';
import { runSchedulerTick } from '../../../src/domain/schedules/tick.ts';
import { call, createTestApp, defaultSeed, provision, startTestServer, type TestApp } from '../../support/app.ts';
import { type FakePaymongo, startFakePaymongo } from '../../support/fakes/paymongo.ts';
import { acquirerSeed } from '../../support/provider-app.ts';
import { testClock } from '../../support/schedules.ts';

/**
 * A subscription link on PayMongo paid by GCash: PayMongo keeps no card, so the subscription is paid
 * by a link each period. The scheduler's next cycle e-mails the customer a checkout for that
 * occurrence, and paying it by GCash through PayMongo records the cycle's payment on the schedule.
 */
const clock = testClock('2027-03-10T02:00:00.000Z');
let t: TestApp;
let fake: FakePaymongo;
let server: { url: string; close(): Promise<void> };
const customer = { 'customer.first_name': 'Ana', 'customer.last_name': 'Reyes', 'customer.contact.email': 'ana@example.com' };

beforeAll(async () => {
  fake = await startFakePaymongo();
  t = await createTestApp({ now: clock.now });
  const seed = defaultSeed();
  seed.integrators[0]!.acquirer = acquirerSeed('paymongo', fake);
  seed.integrators[0]!.links.push({
    slug: 'coffee-club',
    title: 'Coffee club',
    currency: 'PHP',
    amount: '450.00',
    labels: {},
    fields: {},
    active: true,
    payment_methods: ['gcash', 'qrph', 'card'],
    subscription: { interval: 'week', every: 2, cycles: 3, cancel: 'period_end' },
  });
  await provision(t, seed);
  server = await startTestServer(t.app);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
  await fake?.close();
});

/** GCash through PayMongo: the start, the customer's authorisation on PayMongo's page, then the return page. */
async function payByGcash(startPath: string, body: Record<string, unknown>) {
  const started = await call(server.url, 'POST', startPath, { token: null, body: { method: 'gcash', fields: customer, ...body } });
  expect(started.status, started.text).toBe(200);
  expect(started.json.data).toMatchObject({ status_code: 'OK.03.01', method: 'gcash' });
  const authorise = new URL(started.json.data.next_action_url as string);
  const authorised = await fetch(`${authorise.origin}${authorise.pathname}?answer=authorize`, { redirect: 'manual' });
  expect(authorised.status).toBeLessThan(400);
  const back = authorised.headers.get('location');
  if (back) await fetch(new URL(back, server.url), { redirect: 'manual' });
}

describe('subscriptions › a PayMongo link paid by GCash, every 2 weeks by a link', () => {
  it('the first payment starts a pay-by-link subscription; the next cycle e-mails a checkout; paying it by GCash records the cycle', async () => {
    const [link] = await t.app.db.select().from(links).where(eq(links.slug, 'coffee-club'));
    await payByGcash('/pay/coffee-club/method', { session: issueStaticTicket(t.app, link!.id) });
    const [first] = await t.app.db.select().from(payments).where(eq(payments.linkId, link!.id));
    expect(first).toMatchObject({ status: 'succeeded', paymentMethod: 'gcash', amountMinor: 45_000n });
    const [schedule] = await t.app.db.select().from(schedules).where(eq(schedules.linkId, link!.id));
    expect(schedule).toMatchObject({ status: 'active', every: 2, cyclesLeft: 2 });
    expect(schedule!.nextRunAt?.toISOString()).toBe('2027-03-24T02:00:00.000Z');
    const [registration] = await t.app.db.select().from(cardRegistrations).where(eq(cardRegistrations.reference, schedule!.cardRegistrationReference));
    expect(registration).toMatchObject({ collection: 'pay_link', status: 'active', customerEmail: 'ana@example.com' });

    // A week on: not a run. Two weeks on: the cycle's checkout, e-mailed.
    clock.set('2027-03-17T02:00:05.000Z');
    await runSchedulerTick(t.app);
    expect(await t.app.db.select().from(scheduleRuns).where(eq(scheduleRuns.scheduleId, schedule!.id))).toHaveLength(0);
    clock.set('2027-03-24T02:00:05.000Z');
    expect((await runSchedulerTick(t.app)).outcomes.awaiting_customer).toBe(1);
    const [run] = await t.app.db.select().from(scheduleRuns).where(eq(scheduleRuns.scheduleId, schedule!.id));
    expect(run).toMatchObject({ status: 'awaiting_customer', dueAt: new Date('2027-03-24T02:00:00.000Z') });
    const [sent] = await t.app.db
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.type, 'schedule.payment_link_sent'), eq(outboxEvents.integratorId, link!.integratorId)));
    expect(sent).toMatchObject({ emailTo: 'ana@example.com' });
    const url = sent!.emailView!.payLink!.url;
    // Open until the schedule's next run (7 April), capped at 7 days.
    expect(sent!.emailView!.payLink!.expiresAt).toBe('2027-03-31T02:00:05.000Z');

    const token = new URL(url).pathname.split('/')[2]!;
    await payByGcash(`/checkout/${token}/method`, {});
    const [paidRun] = await t.app.db.select().from(scheduleRuns).where(eq(scheduleRuns.scheduleId, schedule!.id));
    expect(paidRun).toMatchObject({ status: 'succeeded' });
    const [paid] = await t.app.db.select().from(payments).where(eq(payments.id, paidRun!.paymentId!));
    expect(paid).toMatchObject({
      status: 'succeeded',
      paymentMethod: 'gcash',
      amountMinor: 45_000n,
      scheduleRunId: paidRun!.id,
      cardRegistrationReference: schedule!.cardRegistrationReference,
    });
    const [session] = await t.app.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, paid!.checkoutSessionId!));
    expect(session).toMatchObject({ status: 'paid' });
    expect((await t.app.db.select().from(schedules).where(eq(schedules.id, schedule!.id)))[0]!.nextRunAt?.toISOString()).toBe('2027-04-07T02:00:00.000Z');
  });
});
