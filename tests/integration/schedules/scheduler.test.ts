import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { outboxEvents, payments, sandboxCharges, scheduleRuns, schedules } from '../../../src/db/schema.ts';
import { completeCardRegistration, createCardRegistration } from '../../../src/domain/cards/service.ts';
import { findIntegratorByToken } from '../../../src/domain/integrators/service.ts';
import { chargeClaim } from '../../../src/domain/schedules/charge.ts';
import { claimDueOccurrences } from '../../../src/domain/schedules/claim.ts';
import { recordClaimOutcome } from '../../../src/domain/schedules/record.ts';
import { cancelSchedule, createSchedule } from '../../../src/domain/schedules/service.ts';
import { runSchedulerTick } from '../../../src/domain/schedules/tick.ts';
import { createTestApp, provision, sandboxOf, TEST_TOKEN, type TestApp } from '../../support/app.ts';
import { CARD_EXP } from '../../support/cards.ts';
import { scheduleData, signSchedule, testClock } from '../../support/schedules.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const EVERY_MINUTE = { second: '0', minute: '*', hour: '*', day_of_month: '*', month: '*', day_of_week: '*' };
const YEARLY = { second: '0', minute: '0', hour: '0', day_of_month: '1', month: '1', day_of_week: '*' };

async function setup(start: string, env: Record<string, string> = {}) {
  const clock = testClock(start);
  t = await createTestApp({ now: clock.now, env: { PAYLINK_SCHEDULE_LEASE_SECONDS: '300', ...env } });
  await provision(t);
  const integrator = (await findIntegratorByToken(t.app.db, TEST_TOKEN))!;
  const app = t.app;
  const schedule = async (data: Record<string, unknown> = {}) =>
    (await createSchedule(app, integrator, await signSchedule(scheduleData(data), { iat: clock.now() }))).reference;
  /** A card registered through the hosted-page flow (domain calls), with the customer's e-mail. */
  const registerCard = async (number: string, email = 'ana@example.com') => {
    const created = await createCardRegistration(app, integrator, { customer: { name: 'Ana', email } });
    const token = created.link.split('/').pop()!;
    await completeCardRegistration(app, token, { number, ...CARD_EXP, cvc: '123' });
    return created.reference;
  };
  const runsOf = (id: string) => app.db.select().from(scheduleRuns).where(eq(scheduleRuns.scheduleId, id)).orderBy(scheduleRuns.dueAt);
  const scheduleRow = async (id: string) => (await app.db.select().from(schedules).where(eq(schedules.id, id)))[0]!;
  const count = async (table: typeof payments | typeof sandboxCharges) => Number((await app.db.select({ n: sql<number>`count(*)` }).from(table))[0]!.n);
  return { app, clock, integrator, schedule, registerCard, runsOf, scheduleRow, count };
}

describe('scheduler', () => {
  it('charges a due occurrence once, records it as a transaction and advances the next run', async () => {
    const s = await setup('2026-03-02T00:00:30.000Z');
    const id = await s.schedule({ schedule: EVERY_MINUTE });
    expect((await runSchedulerTick(s.app)).claimed).toBe(0);
    s.clock.set('2026-03-02T00:01:00.250Z');
    const tick = await runSchedulerTick(s.app);
    expect(tick.outcomes.succeeded).toBe(1);
    expect((await runSchedulerTick(s.app)).claimed).toBe(0);
    const runs = await s.runsOf(id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'succeeded', attempts: 1, dueAt: new Date('2026-03-02T00:01:00.000Z') });
    const [payment] = await s.app.db.select().from(payments).where(eq(payments.id, runs[0]!.paymentId!));
    expect(payment).toMatchObject({
      status: 'succeeded',
      amountMinor: 15000n,
      currency: 'PHP',
      scheduleRunId: runs[0]!.id,
      merchantReferenceId: 'order-1',
      idempotencyKey: `schedule-run:${runs[0]!.id}:1`,
    });
    expect((await s.scheduleRow(id)).nextRunAt).toEqual(new Date('2026-03-02T00:02:00.000Z'));
    const [event] = await s.app.db.select().from(outboxEvents).where(eq(outboxEvents.type, 'schedule.charge_succeeded'));
    expect(event!.data).toMatchObject({
      schedule_reference: id,
      transaction_id: payment!.id,
      run_id: runs[0]!.id,
      due_at: '2026-03-02T08:01:00.000+08:00',
      amount: '150.00',
    });
  });

  it('collapses occurrences missed during downtime into one charge due at the latest of them', async () => {
    const s = await setup('2026-03-02T00:00:30.000Z');
    const id = await s.schedule({ schedule: EVERY_MINUTE });
    s.clock.set('2026-03-02T03:10:20.000Z'); // 190 occurrences missed
    await runSchedulerTick(s.app);
    await runSchedulerTick(s.app);
    const runs = await s.runsOf(id);
    expect(runs.map((r) => [r.dueAt.toISOString(), r.status])).toEqual([['2026-03-02T03:10:00.000Z', 'succeeded']]);
    expect((await s.scheduleRow(id)).nextRunAt).toEqual(new Date('2026-03-02T03:11:00.000Z'));
    expect(await s.count(sandboxCharges)).toBe(1);
  });

  it('recovers a crash between claim and charge after the lease, with one charge', async () => {
    const s = await setup('2026-03-02T00:00:30.000Z');
    const id = await s.schedule({ schedule: YEARLY });
    s.clock.set('2027-01-01T00:00:01.000Z');
    const claimed = await claimDueOccurrences(s.app, { limit: 10 }); // …and the process dies here
    expect(claimed).toHaveLength(1);
    expect((await runSchedulerTick(s.app)).claimed).toBe(0); // still leased
    s.clock.advance(301);
    expect((await runSchedulerTick(s.app)).outcomes.succeeded).toBe(1);
    expect((await runSchedulerTick(s.app)).claimed).toBe(0);
    expect(await s.count(sandboxCharges)).toBe(1);
    expect(await s.count(payments)).toBe(1);
    expect((await s.runsOf(id)).map((r) => [r.status, r.attempts])).toEqual([['succeeded', 1]]);
  });

  it('recovers a crash between charge and record with the same idempotency key: the acquirer charges once', async () => {
    const s = await setup('2026-03-02T00:00:30.000Z');
    await s.schedule({ schedule: YEARLY });
    s.clock.set('2027-01-01T00:00:01.000Z');
    const [claim] = await claimDueOccurrences(s.app, { limit: 10 });
    const first = await chargeClaim(s.app, claim!); // money moved; the process dies before recording
    expect(first.status).toBe('succeeded');
    s.clock.advance(301);
    expect((await runSchedulerTick(s.app)).outcomes.succeeded).toBe(1);
    expect(await s.count(sandboxCharges)).toBe(1);
    const all = await s.app.db.select().from(payments);
    expect(all).toHaveLength(1);
    expect(all[0]!.acquirerReference).toBe(first.status === 'succeeded' ? first.chargeId : '');
  });

  it('records a charge once when two workers finish the same claim', async () => {
    const s = await setup('2026-03-02T00:00:30.000Z');
    await s.schedule({ schedule: YEARLY });
    s.clock.set('2027-01-01T00:00:01.000Z');
    const [claim] = await claimDueOccurrences(s.app, { limit: 10 });
    const [a, b] = await Promise.all([chargeClaim(s.app, claim!), chargeClaim(s.app, claim!)]);
    const outcomes = await Promise.all([recordClaimOutcome(s.app, claim!, a), recordClaimOutcome(s.app, claim!, b)]);
    expect(outcomes.sort()).toEqual(['already_recorded', 'succeeded']);
    expect(await s.count(sandboxCharges)).toBe(1);
    expect(await s.count(payments)).toBe(1);
  });

  it('retries a declined occurrence after 1 h, 6 h and 24 h, then fails it', async () => {
    const s = await setup('2026-03-02T00:00:30.000Z');
    const card = await s.registerCard('4000000000000341');
    const id = await s.schedule({ schedule: YEARLY, credit_card: { reference: card } });
    s.clock.set('2027-01-01T00:00:00.500Z');
    const seen: [string, number, string | null][] = [];
    for (const wait of [0, 3600, 21600, 86400]) {
      s.clock.advance(wait);
      expect((await runSchedulerTick(s.app)).claimed).toBe(1);
      const [run] = await s.runsOf(id);
      seen.push([run!.status, run!.attempts, run!.nextAttemptAt?.toISOString() ?? null]);
    }
    expect(seen).toEqual([
      ['retrying', 1, '2027-01-01T01:00:00.500Z'],
      ['retrying', 2, '2027-01-01T07:00:00.500Z'],
      ['retrying', 3, '2027-01-02T07:00:00.500Z'],
      ['failed', 4, null],
    ]);
    const failures = (await s.app.db.select().from(outboxEvents).where(eq(outboxEvents.type, 'schedule.charge_failed'))).map((e) => [
      e.data.attempt,
      e.data.will_retry,
      typeof e.data.transaction_id,
    ]);
    expect(failures).toEqual([
      [1, true, 'string'],
      [2, true, 'string'],
      [3, true, 'string'],
      [4, false, 'string'],
    ]);
    expect((await s.scheduleRow(id)).consecutiveFailures).toBe(1);
    expect(await s.count(sandboxCharges)).toBe(0);
  });

  it('does not retry early', async () => {
    const s = await setup('2026-03-02T00:00:30.000Z');
    const card = await s.registerCard('4000000000000341');
    await s.schedule({ schedule: YEARLY, credit_card: { reference: card } });
    s.clock.set('2027-01-01T00:00:00.500Z');
    await runSchedulerTick(s.app);
    s.clock.advance(3599);
    expect((await runSchedulerTick(s.app)).claimed).toBe(0);
    s.clock.advance(1);
    expect((await runSchedulerTick(s.app)).claimed).toBe(1);
  });

  it('suspends a schedule after 3 failed occurrences in a row and tells the integrator and the customer', async () => {
    const s = await setup('2026-03-02T00:00:30.000Z', { PAYLINK_SCHEDULE_RETRY_SECONDS: '60' });
    const card = await s.registerCard('4000000000000341', 'payer@example.com');
    const id = await s.schedule({ schedule: YEARLY, credit_card: { reference: card }, route: { callback_url: 'http://127.0.0.1:9/cb', notify_user: true } });
    for (const year of [2027, 2028, 2029]) {
      s.clock.set(`${year}-01-01T00:00:00.500Z`);
      await runSchedulerTick(s.app);
      s.clock.advance(60);
      await runSchedulerTick(s.app);
      const row = await s.scheduleRow(id);
      expect([row.status, row.consecutiveFailures]).toEqual([year < 2029 ? 'active' : 'suspended', year - 2026]);
    }
    const row = await s.scheduleRow(id);
    expect(row.nextRunAt).toBeNull();
    const [suspended] = await s.app.db.select().from(outboxEvents).where(eq(outboxEvents.type, 'schedule.suspended'));
    expect(suspended!.data).toMatchObject({ schedule_reference: id, consecutive_failed_runs: 3, transaction_id: expect.stringMatching(/^txn_/) });
    expect(suspended!.emailTo).toBe('payer@example.com');
    expect(suspended!.callbackUrl).toBe('http://127.0.0.1:9/cb');
    // The customer is away when a scheduled charge is declined: each failed charge is e-mailed too.
    const failed = await s.app.db.select().from(outboxEvents).where(eq(outboxEvents.type, 'schedule.charge_failed'));
    expect(failed).toHaveLength(6);
    expect(failed.every((e) => e.emailTo === 'payer@example.com')).toBe(true);
    s.clock.set('2030-01-01T00:00:00.500Z');
    expect((await runSchedulerTick(s.app)).claimed).toBe(0);
  });

  it('resets the count of failed occurrences after a success', async () => {
    const s = await setup('2026-03-02T00:00:30.000Z', { PAYLINK_SCHEDULE_RETRY_SECONDS: '60' });
    const id = await s.schedule({ schedule: YEARLY });
    await s.app.db.update(schedules).set({ consecutiveFailures: 2 }).where(eq(schedules.id, id));
    s.clock.set('2027-01-01T00:00:00.500Z');
    await runSchedulerTick(s.app);
    expect((await s.scheduleRow(id)).consecutiveFailures).toBe(0);
  });

  it('e-mails the customer on a successful charge when notify_user is true', async () => {
    const s = await setup('2026-03-02T00:00:30.000Z');
    const card = await s.registerCard('4242424242424242', 'payer@example.com');
    await s.schedule({ schedule: YEARLY, credit_card: { reference: card }, route: { notify_user: true } });
    s.clock.set('2027-01-01T00:00:00.500Z');
    await runSchedulerTick(s.app);
    const [event] = await s.app.db.select().from(outboxEvents).where(eq(outboxEvents.type, 'schedule.charge_succeeded'));
    expect(event!.emailTo).toBe('payer@example.com');
  });

  it('cancelling a schedule cancels the retry waiting for its next attempt', async () => {
    const s = await setup('2026-03-02T00:00:30.000Z');
    const card = await s.registerCard('4000000000000341');
    const id = await s.schedule({ schedule: YEARLY, credit_card: { reference: card } });
    s.clock.set('2027-01-01T00:00:00.500Z');
    await runSchedulerTick(s.app);
    await cancelSchedule(s.app, s.integrator, id);
    s.clock.advance(3600);
    expect((await runSchedulerTick(s.app)).claimed).toBe(0);
    expect((await s.runsOf(id)).map((r) => r.status)).toEqual(['cancelled']);
  });

  it('never charges a cancelled schedule', async () => {
    const s = await setup('2026-03-02T00:00:30.000Z');
    const id = await s.schedule({ schedule: EVERY_MINUTE });
    await cancelSchedule(s.app, s.integrator, id);
    s.clock.set('2026-03-02T00:05:00.000Z');
    expect((await runSchedulerTick(s.app)).claimed).toBe(0);
    expect(await s.runsOf(id)).toHaveLength(0);
  });

  it('charges many due schedules once each across several ticks', async () => {
    const s = await setup('2026-03-02T00:00:30.000Z');
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await s.schedule({ schedule: EVERY_MINUTE }));
    s.clock.set('2026-03-02T00:01:00.100Z');
    let charged = 0;
    for (let i = 0; i < 5; i++) charged += (await runSchedulerTick(s.app, { batchSize: 7 })).outcomes.succeeded;
    expect(charged).toBe(30);
    expect(await s.count(sandboxCharges)).toBe(30);
    const perSchedule = await s.app.db.select({ id: scheduleRuns.scheduleId, n: sql<number>`count(*)` }).from(scheduleRuns).groupBy(scheduleRuns.scheduleId);
    expect(perSchedule).toHaveLength(30);
    expect(perSchedule.every((r) => Number(r.n) === 1)).toBe(true);
  });
  it('charges a batch of the sandbox in one call, each card with its own outcome, and one at a time when the batch is refused', async () => {
    const s = await setup('2026-03-02T00:00:30.000Z');
    const good = await s.registerCard('4242424242424242');
    const declining = await s.registerCard('4000000000000341');
    const goodIds = [
      await s.schedule({ schedule: EVERY_MINUTE, credit_card: { reference: good } }),
      await s.schedule({ schedule: EVERY_MINUTE, credit_card: { reference: good } }),
    ];
    const declinedId = await s.schedule({ schedule: EVERY_MINUTE, credit_card: { reference: declining } });
    const batches: number[] = [];
    const batchCharge = sandboxOf(s.app).acquirer.chargeSavedCards.bind(sandboxOf(s.app).acquirer);
    sandboxOf(s.app).acquirer.chargeSavedCards = async (reqs) => {
      batches.push(reqs.length);
      return batchCharge(reqs);
    };
    s.clock.set('2026-03-02T00:01:00.100Z');
    const first = await runSchedulerTick(s.app);
    expect(batches).toEqual([3]);
    expect(first.outcomes).toMatchObject({ succeeded: 2, retrying: 1, error: 0 });
    for (const id of goodIds) expect((await s.runsOf(id)).map((r) => r.status)).toEqual(['succeeded']);
    expect((await s.runsOf(declinedId)).map((r) => [r.status, r.lastFailureCode])).toEqual([['retrying', 'card_declined']]);
    expect(await s.count(sandboxCharges)).toBe(2);

    // A batch the sandbox refuses as a whole (here: any error) is charged one claim at a time.
    sandboxOf(s.app).acquirer.chargeSavedCards = async () => {
      throw new Error('batch refused');
    };
    s.clock.set('2026-03-02T00:02:00.100Z');
    const second = await runSchedulerTick(s.app);
    expect(second.outcomes).toMatchObject({ succeeded: 2, retrying: 1, error: 0 });
    for (const id of goodIds) expect((await s.runsOf(id)).map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    expect(await s.count(sandboxCharges)).toBe(4);
  });
});
