import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cardRegistrations, integrators, outboxEvents, payments, sandboxCharges, scheduleRuns, schedules } from '../../../src/db/schema.ts';
import { completeCardRegistration, createCardRegistration } from '../../../src/domain/cards/service.ts';
import { findIntegratorByToken } from '../../../src/domain/integrators/service.ts';
import { runScheduleNow } from '../../../src/domain/schedules/run-now.ts';
import { cancelSchedule, createSchedule } from '../../../src/domain/schedules/service.ts';
import { createTestApp, defaultSeed, OTHER_TOKEN, provision, TEST_TOKEN, type TestApp } from '../../support/app.ts';
import { CARD_EXP } from '../../support/cards.ts';
import { type FakeStripe, startFakeStripe } from '../../support/fakes/stripe.ts';
import { acquirerSeed } from '../../support/provider-app.ts';
import { scheduleData, signSchedule, testClock } from '../../support/schedules.ts';

/**
 * POST /schedules/{reference}/run as the domain call (runScheduleNow): the sandbox's test clock
 * for schedules. The next occurrence is inserted and next_run_at moved in one transaction, then
 * charged with the run's key and recorded like a due occurrence; every refusal says why.
 */
let t: TestApp | undefined;
let stripe: FakeStripe;
beforeAll(async () => {
  stripe = await startFakeStripe();
});
afterAll(async () => {
  await stripe?.close();
});
afterEach(async () => {
  await t?.close();
  t = undefined;
});

// Every day at 09:00 +08:00 (01:00Z).
const DAILY_NINE = { second: '0', minute: '0', hour: '9', day_of_month: '*', month: '*', day_of_week: '*' };

async function setup(opts: { stripeForOther?: boolean } = {}) {
  const clock = testClock('2026-03-02T00:00:30.000Z');
  t = await createTestApp({ now: clock.now, env: { PAYLINK_SCHEDULE_LEASE_SECONDS: '300' } });
  const seed = defaultSeed();
  if (opts.stripeForOther) {
    seed.integrators[1]!.acquirer = acquirerSeed('stripe', stripe);
  }
  await provision(t, seed);
  const app = t.app;
  const integrator = (await findIntegratorByToken(app.db, TEST_TOKEN))!;
  const schedule = async (data: Record<string, unknown> = {}) =>
    (await createSchedule(app, integrator, await signSchedule(scheduleData({ schedule: DAILY_NINE, ...data }), { iat: clock.now() }))).reference;
  const registerCard = async (number: string) => {
    const created = await createCardRegistration(app, integrator, { customer: { name: 'Ana', email: 'ana@example.com' } });
    await completeCardRegistration(app, created.link.split('/').pop()!, { number, ...CARD_EXP, cvc: '123' });
    return created.reference;
  };
  const runsOf = (id: string) => app.db.select().from(scheduleRuns).where(eq(scheduleRuns.scheduleId, id)).orderBy(scheduleRuns.dueAt);
  const scheduleRow = async (id: string) => (await app.db.select().from(schedules).where(eq(schedules.id, id)))[0]!;
  const chargeCount = async () => Number((await app.db.select({ n: sql<number>`count(*)` }).from(sandboxCharges))[0]!.n);
  return { app, clock, integrator, schedule, registerCard, runsOf, scheduleRow, chargeCount };
}

describe('schedules › run now (domain)', () => {
  it('charges the next occurrence now, records it once with its event, and moves next_run_at to the occurrence after it', async () => {
    const s = await setup();
    const id = await s.schedule();
    expect((await s.scheduleRow(id)).nextRunAt).toEqual(new Date('2026-03-02T01:00:00.000Z'));

    const result = await runScheduleNow(s.app, s.integrator, id);
    const [run] = await s.runsOf(id);
    expect(result).toEqual({
      runId: run!.id,
      dueAt: new Date('2026-03-02T01:00:00.000Z'),
      outcome: 'succeeded',
      paymentId: run!.paymentId,
      nextRunAt: new Date('2026-03-03T01:00:00.000Z'),
      timeOffset: '+08:00',
    });
    expect(result.runId).toMatch(/^run_/);
    expect(run).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      dueAt: new Date('2026-03-02T01:00:00.000Z'),
      nextAttemptAt: null,
      lockedUntil: null,
      lastFailureCode: null,
      createdAt: new Date('2026-03-02T00:00:30.000Z'),
      completedAt: new Date('2026-03-02T00:00:30.000Z'),
    });
    const [payment] = await s.app.db.select().from(payments).where(eq(payments.id, result.paymentId!));
    expect(payment).toMatchObject({
      status: 'succeeded',
      amountMinor: 15000n,
      currency: 'PHP',
      scheduleRunId: run!.id,
      idempotencyKey: `schedule-run:${run!.id}:1`,
      description: 'Monthly plan',
      merchantReferenceId: 'order-1',
      otherReferences: ['inv-1'],
      customer: { 'customer.name': 'Juan Dela Cruz' },
      cardBrand: 'visa',
      cardLast4: '4242',
    });
    expect(await s.chargeCount()).toBe(1);
    expect((await s.scheduleRow(id)).nextRunAt).toEqual(new Date('2026-03-03T01:00:00.000Z'));
    const events = await s.app.db.select().from(outboxEvents).where(eq(outboxEvents.type, 'schedule.charge_succeeded'));
    expect(events.map((e) => [e.data.schedule_reference, e.data.run_id, e.data.transaction_id, e.data.due_at, e.data.amount])).toEqual([
      [id, run!.id, payment!.id, '2026-03-02T09:00:00.000+08:00', '150.00'],
    ]);

    // Again: the following occurrence, a day later, another charge.
    const again = await runScheduleNow(s.app, s.integrator, id);
    expect([again.dueAt, again.nextRunAt, again.outcome]).toEqual([new Date('2026-03-03T01:00:00.000Z'), new Date('2026-03-04T01:00:00.000Z'), 'succeeded']);
    expect((await s.runsOf(id)).map((r) => [r.dueAt.toISOString(), r.status])).toEqual([
      ['2026-03-02T01:00:00.000Z', 'succeeded'],
      ['2026-03-03T01:00:00.000Z', 'succeeded'],
    ]);
    expect(await s.chargeCount()).toBe(2);
  });

  it('records a declined occurrence as the scheduler does: a failed transaction, the run waiting for its retry', async () => {
    const s = await setup();
    const card = await s.registerCard('4000000000000341');
    const id = await s.schedule({ credit_card: { reference: card } });
    const result = await runScheduleNow(s.app, s.integrator, id);
    expect(result.outcome).toBe('retrying');
    const [run] = await s.runsOf(id);
    expect(run).toMatchObject({
      id: result.runId,
      status: 'retrying',
      attempts: 1,
      paymentId: result.paymentId,
      nextAttemptAt: new Date('2026-03-02T01:00:30.000Z'),
      lockedUntil: null,
      completedAt: null,
      lastFailureCode: 'card_declined',
    });
    const [payment] = await s.app.db.select().from(payments).where(eq(payments.id, result.paymentId!));
    expect(payment).toMatchObject({ status: 'failed', failureCode: 'card_declined', idempotencyKey: `schedule-run:${result.runId}:1` });
    expect(await s.chargeCount()).toBe(0);
  });

  it('two calls at once charge two occurrences, one after the other (the schedule is locked while its occurrence is inserted)', async () => {
    const s = await setup();
    const id = await s.schedule();
    const both = await Promise.all([runScheduleNow(s.app, s.integrator, id), runScheduleNow(s.app, s.integrator, id)]);
    expect(both.map((r) => [r.dueAt.toISOString(), r.outcome]).sort()).toEqual([
      ['2026-03-02T01:00:00.000Z', 'succeeded'],
      ['2026-03-03T01:00:00.000Z', 'succeeded'],
    ]);
    expect((await s.scheduleRow(id)).nextRunAt).toEqual(new Date('2026-03-04T01:00:00.000Z'));
    expect(await s.chargeCount()).toBe(2);
  });

  it('refuses a schedule that is not active, saying which state it is in; nothing is charged', async () => {
    const s = await setup();
    const cancelled = await s.schedule();
    await cancelSchedule(s.app, s.integrator, cancelled);
    await expect(runScheduleNow(s.app, s.integrator, cancelled)).rejects.toMatchObject({
      code: 'ER.12.33',
      message: 'Schedule is not active',
      messages: { reference: ['the schedule is cancelled; only an active schedule can run'] },
    });
    const suspended = await s.schedule();
    await s.app.db.update(schedules).set({ status: 'suspended', nextRunAt: null }).where(eq(schedules.id, suspended));
    await expect(runScheduleNow(s.app, s.integrator, suspended)).rejects.toMatchObject({
      code: 'ER.12.33',
      messages: { reference: ['the schedule is suspended; only an active schedule can run'] },
    });
    expect([...(await s.runsOf(cancelled)), ...(await s.runsOf(suspended))]).toEqual([]);
    expect(await s.chargeCount()).toBe(0);
  });

  it('refuses an active schedule whose card registration is gone, and says so (not that the schedule is inactive)', async () => {
    const s = await setup();
    const card = await s.registerCard('4242424242424242');
    const id = await s.schedule({ credit_card: { reference: card } });
    // The registration deleted without its schedules being cancelled (the scheduler cancels such a schedule when it is due).
    await s.app.db.update(cardRegistrations).set({ status: 'deleted' }).where(eq(cardRegistrations.reference, card));
    await expect(runScheduleNow(s.app, s.integrator, id)).rejects.toMatchObject({
      code: 'ER.12.33',
      message: 'Schedule is not active',
      messages: { reference: ['its card registration is no longer active; register the card again and create a new schedule'] },
    });
    // A registration with no card to charge (a pay-by-link one, made while the integrator was on another acquirer).
    await s.app.db.update(cardRegistrations).set({ status: 'active', collection: 'pay_link', cardToken: null }).where(eq(cardRegistrations.reference, card));
    await expect(runScheduleNow(s.app, s.integrator, id)).rejects.toMatchObject({
      code: 'ER.12.33',
      messages: { reference: ['its card registration keeps no card (the customer pays each occurrence by a link); it runs only when due'] },
    });
    // An active schedule with no next occurrence.
    await s.app.db.update(cardRegistrations).set({ collection: 'saved_card', cardToken: 'tok_any' }).where(eq(cardRegistrations.reference, card));
    await s.app.db.update(schedules).set({ nextRunAt: null }).where(eq(schedules.id, id));
    await expect(runScheduleNow(s.app, s.integrator, id)).rejects.toMatchObject({
      code: 'ER.12.33',
      messages: { reference: ['its recurrence has no occurrence left to charge'] },
    });
    expect(await s.runsOf(id)).toEqual([]);
  });

  it('refuses when the next occurrence already has a run (being charged), and leaves next_run_at as it was', async () => {
    const s = await setup();
    const id = await s.schedule();
    const dueAt = new Date('2026-03-02T01:00:00.000Z');
    await s.app.db.insert(scheduleRuns).values({ id: 'run_inflight', scheduleId: id, dueAt, status: 'pending', attempts: 1, createdAt: s.clock.now() });
    await expect(runScheduleNow(s.app, s.integrator, id)).rejects.toMatchObject({
      code: 'ER.12.33',
      message: 'Schedule is not active',
      messages: { reference: ['its next occurrence is already being charged; try again shortly'] },
    });
    expect((await s.runsOf(id)).map((r) => r.id)).toEqual(['run_inflight']);
    expect((await s.scheduleRow(id)).nextRunAt).toEqual(dueAt);
    expect(await s.chargeCount()).toBe(0);
  });

  it("another integrator's schedule, or an unknown reference, does not exist", async () => {
    const s = await setup();
    const id = await s.schedule();
    const other = (await findIntegratorByToken(s.app.db, OTHER_TOKEN))!;
    const notFound = { code: 'ER.02.30', httpStatus: 404, message: 'Schedule does not exist', messages: { reference: ['Schedule does not exist'] } };
    await expect(runScheduleNow(s.app, other, id)).rejects.toMatchObject(notFound);
    await expect(runScheduleNow(s.app, s.integrator, 'sch_unknown')).rejects.toMatchObject(notFound);
    expect(await s.runsOf(id)).toEqual([]);
  });

  it('refuses any acquirer but the sandbox, naming it (real charges happen only when due)', async () => {
    const s = await setup({ stripeForOther: true });
    const [other] = await s.app.db.select().from(integrators).where(eq(integrators.name, 'Other Shop'));
    const before = stripe.requests.length;
    await expect(runScheduleNow(s.app, other!, 'sch_any')).rejects.toMatchObject({
      code: 'ER.12.32',
      message: 'Only the sandbox acquirer can run a schedule now',
      messages: { reference: ['the stripe acquirer charges schedules only when they are due'] },
    });
    expect(stripe.requests.length).toBe(before);
  });
});
