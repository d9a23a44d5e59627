import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardRegistrations, links, outboxEvents, payments, scheduleRuns, schedules } from '../../../src/db/schema.ts';
import { payCheckout } from '../../../src/domain/checkout/pay.ts';
import { issueStaticTicket } from '../../../src/domain/checkout/sessions.ts';
import { runSchedulerTick } from '../../../src/domain/schedules/tick.ts';
import { cancelBySubscriber } from '../../../src/domain/subscriptions/portal.ts';
import { startLinkSubscription } from '../../../src/domain/subscriptions/start.ts';
import { createTestApp, defaultSeed, provision, type TestApp } from '../../support/app.ts';
import { CARD_EXPIRY } from '../../support/cards.ts';
import { testClock } from '../../support/schedules.ts';

/** Paying a subscription link starts the subscription: a registration and a schedule with its link, charged by the scheduler. */
const clock = testClock('2027-01-15T10:30:00Z');
let t: TestApp;
const seed = defaultSeed();
seed.integrators[0]!.links.push(
  {
    slug: 'gym',
    title: 'Gym',
    currency: 'PHP',
    amount: '1500.00',
    labels: {},
    fields: {},
    active: true,
    subscription: { interval: 'month', every: 1, cycles: 3, cancel: 'period_end' },
  },
  {
    slug: 'gym-trial',
    title: 'Gym trial',
    currency: 'PHP',
    amount: '1500.00',
    labels: {},
    fields: {},
    active: true,
    subscription: { interval: 'week', every: 1, cancel: 'immediately' },
  },
  { slug: 'plain', title: 'Plain', currency: 'PHP', amount: '10.00', labels: {}, fields: {}, active: true },
);
const customer = { 'customer.first_name': 'Ana', 'customer.last_name': 'Reyes', 'customer.contact.email': 'ana@example.com' };
const card = { number: '4242424242424242', expiry: CARD_EXPIRY, cvc: '123', name: 'Ana Reyes' };

const linkOf = async (slug: string) => (await t.app.db.select().from(links).where(eq(links.slug, slug)))[0]!;
const payLink = async (slug: string) => {
  const link = await linkOf(slug);
  return payCheckout(t.app, { slug, input: { session: issueStaticTicket(t.app, link.id), fields: customer, card } });
};

beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
  await provision(t, seed);
});
afterAll(async () => t?.close());

describe('subscriptions › started by paying a link', () => {
  it('a card payment on a subscription link registers the card and creates a schedule with the link, a month on', async () => {
    const outcome = await payLink('gym');
    expect(outcome.status).toBe('succeeded');
    const link = await linkOf('gym');
    const [schedule] = await t.app.db.select().from(schedules).where(eq(schedules.linkId, link.id));
    expect(schedule).toMatchObject({ status: 'active', amountMinor: 150000n, currency: 'PHP', cyclesLeft: 2, notifyUser: true, timeOffset: '+00:00' });
    expect(schedule!.nextRunAt?.toISOString()).toBe('2027-02-15T10:30:00.000Z');
    const [registration] = await t.app.db.select().from(cardRegistrations).where(eq(cardRegistrations.reference, schedule!.cardRegistrationReference));
    expect(registration).toMatchObject({ status: 'active', collection: 'saved_card', customerEmail: 'ana@example.com', last4: '4242' });
    const types = (await t.app.db.select({ type: outboxEvents.type }).from(outboxEvents)).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['payment.succeeded', 'card_registration.completed', 'schedule.created']));
  });

  it('charges each period and ends after the number of cycles (the first payment was the first)', async () => {
    const link = await linkOf('gym');
    const [schedule] = await t.app.db.select().from(schedules).where(eq(schedules.linkId, link.id));
    clock.set('2027-02-15T10:30:01Z');
    await runSchedulerTick(t.app);
    clock.set('2027-03-15T10:30:01Z');
    await runSchedulerTick(t.app);
    clock.set('2027-04-15T10:30:01Z');
    await runSchedulerTick(t.app);
    const runs = await t.app.db.select().from(scheduleRuns).where(eq(scheduleRuns.scheduleId, schedule!.id));
    expect(runs.map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    const [ended] = await t.app.db.select().from(schedules).where(eq(schedules.id, schedule!.id));
    expect(ended).toMatchObject({ cyclesLeft: 0, nextRunAt: null });
    const charged = await t.app.db.select().from(payments).where(eq(payments.cardRegistrationReference, schedule!.cardRegistrationReference));
    expect(charged).toHaveLength(2);
  });

  it('a trial charges nothing first: the card is verified and kept, and the first charge comes when the trial ends', async () => {
    clock.set('2027-05-01T08:00:00Z');
    const link = await linkOf('gym-trial');
    // The service itself, as the payment page's trial uses it (subscription-trial.test.ts covers the page).
    const trialLink = { ...link, subscription: { ...link.subscription!, trial_days: 7 } };
    const started = await startLinkSubscription(t.app, {
      link: trialLink,
      session: { id: 'cs_trial_test' },
      customerValues: customer,
      card: { number: card.number, expMonth: 12, expYear: 2035, cvc: '123', holderName: 'Ana Reyes' },
      at: clock.now(),
      paid: false,
    });
    if (!('schedule' in started)) throw new Error(`not started: ${started.skipped}`);
    expect(started.schedule.nextRunAt?.toISOString()).toBe('2027-05-08T08:00:00.000Z');
    expect(started.schedule.cyclesLeft).toBeNull();
    const again = await startLinkSubscription(t.app, {
      link: trialLink,
      session: { id: 'cs_trial_test' },
      customerValues: customer,
      at: clock.now(),
      paid: false,
    });
    expect('schedule' in again && again.schedule.id).toBe(started.schedule.id);
    clock.set('2027-05-08T08:00:01Z');
    await runSchedulerTick(t.app);
    const [run] = await t.app.db.select().from(scheduleRuns).where(eq(scheduleRuns.scheduleId, started.schedule.id));
    expect(run).toMatchObject({ status: 'succeeded' });
    const [next] = await t.app.db.select().from(schedules).where(eq(schedules.id, started.schedule.id));
    expect(next!.nextRunAt?.toISOString()).toBe('2027-05-15T08:00:00.000Z');
  });

  it('the customer cancels at the end of the period: no charge then, the schedule ends at its next occurrence', async () => {
    clock.set('2027-06-01T09:00:00Z');
    expect((await payLink('gym')).status).toBe('succeeded');
    const who = { integratorId: (await linkOf('gym')).integratorId, email: 'ana@example.com', expiresAt: clock.now() };
    const [schedule] = await t.app.db
      .select()
      .from(schedules)
      .where(eq(schedules.nextRunAt, new Date('2027-07-01T09:00:00Z')));
    const cancel = await cancelBySubscriber(t.app, who, schedule!.id);
    expect(cancel).toEqual({ ended: 'period_end', at: new Date('2027-07-01T09:00:00Z') });
    expect((await t.app.db.select().from(schedules).where(eq(schedules.id, schedule!.id)))[0]!.status).toBe('active');
    clock.set('2027-07-01T09:00:01Z');
    await runSchedulerTick(t.app);
    const [ended] = await t.app.db.select().from(schedules).where(eq(schedules.id, schedule!.id));
    expect(ended).toMatchObject({ status: 'cancelled', nextRunAt: null });
    expect(await t.app.db.select().from(scheduleRuns).where(eq(scheduleRuns.scheduleId, schedule!.id))).toHaveLength(0);
    expect(await cancelBySubscriber(t.app, who, schedule!.id)).toMatchObject({ ended: 'already' });
  });

  it('the customer cancels at once where the link says so; another address cannot cancel it', async () => {
    const who = { integratorId: (await linkOf('gym-trial')).integratorId, email: 'ana@example.com', expiresAt: clock.now() };
    const [schedule] = await t.app.db
      .select()
      .from(schedules)
      .where(eq(schedules.linkId, (await linkOf('gym-trial')).id));
    await expect(cancelBySubscriber(t.app, { ...who, email: 'someone@example.com' }, schedule!.id)).rejects.toMatchObject({ code: 'ER.07.01' });
    expect(await cancelBySubscriber(t.app, who, schedule!.id)).toMatchObject({ ended: 'now' });
    expect((await t.app.db.select().from(schedules).where(eq(schedules.id, schedule!.id)))[0]).toMatchObject({ status: 'cancelled' });
  });

  it('a payment the provider settled (QR Ph, e-wallet) starts a pay-by-link subscription: each period e-mails a payment link', async () => {
    clock.set('2027-08-10T12:00:00Z');
    const link = await linkOf('gym');
    // As settleProviderPayment starts it: no card typed on our form.
    const started = await startLinkSubscription(t.app, { link, session: { id: 'cs_qrph_test' }, customerValues: customer, at: clock.now(), paid: true });
    if (!('schedule' in started)) throw new Error(`not started: ${started.skipped}`);
    const [registration] = await t.app.db.select().from(cardRegistrations).where(eq(cardRegistrations.reference, started.registrationReference));
    expect(registration).toMatchObject({ collection: 'pay_link', status: 'active', cardToken: null, customerEmail: 'ana@example.com' });
    clock.set('2027-09-10T12:00:01Z');
    await runSchedulerTick(t.app);
    const [run] = await t.app.db.select().from(scheduleRuns).where(eq(scheduleRuns.scheduleId, started.schedule.id));
    expect(run).toMatchObject({ status: 'awaiting_customer' });
    const sent = await t.app.db.select().from(outboxEvents).where(eq(outboxEvents.type, 'schedule.payment_link_sent'));
    expect(sent.map((e) => e.emailTo)).toContain('ana@example.com');
    const noEmail = await startLinkSubscription(t.app, { link, session: { id: 'cs_qrph_noemail' }, customerValues: {}, at: clock.now(), paid: true });
    expect(noEmail).toEqual({ skipped: 'no_email' });
  });

  it('a payment on a plain link starts nothing', async () => {
    const before = (await t.app.db.select().from(schedules)).length;
    expect((await payLink('plain')).status).toBe('succeeded');
    expect(await t.app.db.select().from(schedules)).toHaveLength(before);
  });
});
