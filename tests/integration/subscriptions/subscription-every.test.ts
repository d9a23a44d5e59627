import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { links, scheduleRuns, schedules } from '../../../src/db/schema.ts';
import { payCheckout } from '../../../src/domain/checkout/pay.ts';
import { issueStaticTicket } from '../../../src/domain/checkout/sessions.ts';
import { resumeSchedule } from '../../../src/domain/schedules/resume.ts';
import { runSchedulerTick } from '../../../src/domain/schedules/tick.ts';
import type { SubscriptionConfig } from '../../../src/schemas/subscription.ts';
import { createTestApp, defaultSeed, provision, type TestApp } from '../../support/app.ts';
import { CARD_EXPIRY } from '../../support/cards.ts';
import { testClock } from '../../support/schedules.ts';

/** A plan every N weeks or months: the schedule runs on one occurrence in N, counted from the first payment. */
const clock = testClock('2027-01-07T10:30:00Z'); // a Thursday
let t: TestApp;
const seed = defaultSeed();
const plan = (slug: string, subscription: Omit<SubscriptionConfig, 'cancel'>) => ({
  slug,
  title: slug,
  currency: 'PHP',
  amount: '500.00',
  labels: {},
  fields: {},
  active: true,
  subscription: { cancel: 'period_end' as const, ...subscription },
});
seed.integrators[0]!.links.push(
  plan('fortnightly', { interval: 'week', every: 2 }),
  plan('five-months', { interval: 'month', every: 5, cycles: 3 }),
  plan('monthly', { interval: 'month', every: 1 }),
);
const customer = { 'customer.first_name': 'Ana', 'customer.last_name': 'Reyes', 'customer.contact.email': 'ana@example.com' };
const card = { number: '4242424242424242', expiry: CARD_EXPIRY, cvc: '123', name: 'Ana Reyes' };

const scheduleOf = async (slug: string) => {
  const [link] = await t.app.db.select().from(links).where(eq(links.slug, slug));
  const [schedule] = await t.app.db.select().from(schedules).where(eq(schedules.linkId, link!.id));
  return schedule!;
};
const pay = async (slug: string) => {
  const [link] = await t.app.db.select().from(links).where(eq(links.slug, slug));
  const outcome = await payCheckout(t.app, { slug, input: { session: issueStaticTicket(t.app, link!.id), fields: customer, card } });
  expect(outcome.status).toBe('succeeded');
  return scheduleOf(slug);
};
const runsOf = async (id: string) =>
  (await t.app.db.select().from(scheduleRuns).where(eq(scheduleRuns.scheduleId, id)))
    .map((r) => ({ due: r.dueAt.toISOString(), status: r.status }))
    .sort((a, b) => a.due.localeCompare(b.due));
const tickAt = async (iso: string) => {
  clock.set(iso);
  await runSchedulerTick(t.app);
};

beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
  await provision(t, seed);
});
afterAll(async () => t?.close());

describe('subscriptions › every N periods', () => {
  it('every 2 weeks charges on day 14 and day 28, never on day 7 or 21', async () => {
    const schedule = await pay('fortnightly');
    expect(schedule).toMatchObject({ every: 2, cronPattern: '0 30 10 * * 4' });
    expect(schedule.anchorAt?.toISOString()).toBe('2027-01-07T10:30:00.000Z');
    expect(schedule.nextRunAt?.toISOString()).toBe('2027-01-21T10:30:00.000Z');
    await tickAt('2027-01-14T10:30:01Z'); // day 7: not a run
    expect(await runsOf(schedule.id)).toEqual([]);
    await tickAt('2027-01-21T10:30:01Z'); // day 14
    await tickAt('2027-01-28T10:30:01Z'); // day 21: not a run
    await tickAt('2027-02-04T10:30:01Z'); // day 28
    expect(await runsOf(schedule.id)).toEqual([
      { due: '2027-01-21T10:30:00.000Z', status: 'succeeded' },
      { due: '2027-02-04T10:30:00.000Z', status: 'succeeded' },
    ]);
    expect((await scheduleOf('fortnightly')).nextRunAt?.toISOString()).toBe('2027-02-18T10:30:00.000Z');
  });

  it('after downtime the missed runs collapse into the latest on the count, and the count goes on', async () => {
    const schedule = await scheduleOf('fortnightly');
    // Down from 4 February until 10 March: 18 February and 4 March were missed; 4 March is charged.
    await tickAt('2027-03-10T00:00:00Z');
    const runs = await runsOf(schedule.id);
    expect(runs.at(-1)).toEqual({ due: '2027-03-04T10:30:00.000Z', status: 'succeeded' });
    expect((await scheduleOf('fortnightly')).nextRunAt?.toISOString()).toBe('2027-03-18T10:30:00.000Z');
  });

  it('a resumed schedule keeps the count: its next run is on the period, not the next weekday', async () => {
    const schedule = await scheduleOf('fortnightly');
    await t.app.db.update(schedules).set({ status: 'suspended', suspendedAt: clock.now(), nextRunAt: null }).where(eq(schedules.id, schedule.id));
    clock.set('2027-03-19T00:00:00Z'); // the Thursday after is 25 March, not a run
    const integrator = { id: schedule.integratorId } as Parameters<typeof resumeSchedule>[1];
    const resumed = await resumeSchedule(t.app, integrator, schedule.id);
    expect(resumed.nextRunAt.toISOString()).toBe('2027-04-01T10:30:00.000Z');
  });

  it('every 5 months from 31 January: 30 June, then 30 November, and it ends after its cycles', async () => {
    clock.set('2027-01-31T08:00:00Z');
    const schedule = await pay('five-months');
    expect(schedule).toMatchObject({ every: 5, cronPattern: '0 0 8 L * *', cyclesLeft: 2 });
    expect(schedule.nextRunAt?.toISOString()).toBe('2027-06-30T08:00:00.000Z');
    await tickAt('2027-02-28T08:00:01Z'); // the last day of a month, but not a run
    await tickAt('2027-06-30T08:00:01Z');
    await tickAt('2027-11-30T08:00:01Z');
    expect(await runsOf(schedule.id)).toEqual([
      { due: '2027-06-30T08:00:00.000Z', status: 'succeeded' },
      { due: '2027-11-30T08:00:00.000Z', status: 'succeeded' },
    ]);
    expect(await scheduleOf('five-months')).toMatchObject({ cyclesLeft: 0, nextRunAt: null });
  });

  it('a plan whose last cycle has passed is never resumed: suspended on its last cycle, it charges nothing more', async () => {
    const schedule = await scheduleOf('five-months');
    // Its last cycle failed for good and the scheduler suspended it: the plan of 3 is over all the same.
    await t.app.db.update(schedules).set({ status: 'suspended', suspendedAt: clock.now(), consecutiveFailures: 3 }).where(eq(schedules.id, schedule.id));
    clock.set('2027-12-01T00:00:00Z');
    const integrator = { id: schedule.integratorId } as Parameters<typeof resumeSchedule>[1];
    await expect(resumeSchedule(t.app, integrator, schedule.id)).rejects.toMatchObject({
      code: 'ER.12.34',
      messages: { reference: [expect.stringContaining('its last cycle')] },
    });
    await tickAt('2028-04-30T08:00:01Z');
    expect(await runsOf(schedule.id)).toHaveLength(2);
    expect(await scheduleOf('five-months')).toMatchObject({ status: 'suspended', cyclesLeft: 0, nextRunAt: null });
  });

  it('monthly, paid on 30 March: the period counts from that month’s last day, so the next charge is 30 April, not 31 March', async () => {
    clock.set('2027-03-30T08:00:00.250Z');
    const schedule = await pay('monthly');
    expect(schedule).toMatchObject({ every: 1, anchorAt: null, cronPattern: '0 0 8 L * *' });
    expect(schedule.nextRunAt?.toISOString()).toBe('2027-04-30T08:00:00.000Z');
  });
});
