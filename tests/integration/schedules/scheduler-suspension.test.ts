import { eq, inArray } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { PaylinkApp } from '../../../src/app.ts';
import { payments, sandboxCharges, scheduleRuns, schedules } from '../../../src/db/schema.ts';
import { findIntegratorByToken } from '../../../src/domain/integrators/service.ts';
import { reactivateIntegrator, suspendIntegrator } from '../../../src/domain/integrators/suspension.ts';
import { createSchedule } from '../../../src/domain/schedules/service.ts';
import { nextSchedulerWorkAt, runSchedulerTick } from '../../../src/domain/schedules/tick.ts';
import { createTestApp, OTHER_SECRET, OTHER_TOKEN, provision, TEST_TOKEN, type TestApp } from '../../support/app.ts';
import { OTHER_CARD, scheduleData, signSchedule, testClock } from '../../support/schedules.ts';

/**
 * Schedules pause while their integrator is suspended (src/domain/integrators/suspension.ts): the
 * scheduler claims none of its occurrences, retries or recoveries, and sleeps past them. On
 * reactivation they are claimed as after downtime: the missed occurrences of a schedule collapse
 * into one charge, exactly once even with two loops at it. Another integrator's are not held up.
 */
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const operator = {
  operator: { id: null, email: 'operator@paylink.example', ip: null, userAgent: null },
  activity: { integratorId: null, userId: null, email: 'operator@paylink.example', ip: null, userAgent: null },
};

/** Two scheduler loops ticking at once until neither finds work. */
async function twoLoops(app: PaylinkApp): Promise<number> {
  let succeeded = 0;
  await Promise.all(
    [1, 2].map(async () => {
      for (;;) {
        const tick = await runSchedulerTick(app, { batchSize: 2 });
        succeeded += tick.outcomes.succeeded;
        if (tick.claimed === 0) return;
      }
    }),
  );
  return succeeded;
}

describe('scheduler › suspended integrator', () => {
  it('charges nothing of a suspended integrator; reactivated, each schedule is charged once for the missed occurrences', async () => {
    const clock = testClock('2026-03-02T00:00:30.000Z');
    t = await createTestApp({ now: clock.now });
    await provision(t);
    const app = t.app;
    const acme = (await findIntegratorByToken(app.db, TEST_TOKEN))!;
    const other = (await findIntegratorByToken(app.db, OTHER_TOKEN))!;
    const acmeSchedules: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { reference } = await createSchedule(
        app,
        acme,
        await signSchedule(scheduleData({ payment: { amount: 100 + i, currency: 'PHP' } }), { iat: clock.now() }),
      );
      acmeSchedules.push(reference);
    }
    await createSchedule(
      app,
      other,
      await signSchedule(scheduleData({ credit_card: { reference: OTHER_CARD }, payment: { amount: 5, currency: 'USD' } }), {
        iat: clock.now(),
        secret: OTHER_SECRET,
      }),
    );
    await suspendIntegrator(app, acme.id, 'KYC review', operator);

    // Three occurrences pass (00:01, 00:02, 00:03) while suspended.
    clock.set('2026-03-02T00:03:00.100Z');
    expect(await twoLoops(app)).toBe(1); // the other integrator's only
    const acmeRuns = async () => app.db.select().from(scheduleRuns).where(inArray(scheduleRuns.scheduleId, acmeSchedules));
    expect(await acmeRuns()).toEqual([]);
    // The loops sleep past the suspended schedules rather than spin on them.
    expect((await nextSchedulerWorkAt(app))?.toISOString()).toBe('2026-03-02T00:04:00.000Z');

    await reactivateIntegrator(app, acme.id, operator);
    expect((await nextSchedulerWorkAt(app))?.toISOString()).toBe('2026-03-02T00:01:00.000Z');
    expect(await twoLoops(app)).toBe(5);
    const runs = await acmeRuns();
    expect(runs).toHaveLength(5);
    // As after downtime: one charge per schedule, due at the latest missed occurrence.
    expect(new Set(runs.map((r) => r.dueAt.toISOString()))).toEqual(new Set(['2026-03-02T00:03:00.000Z']));
    expect(runs.every((r) => r.status === 'succeeded')).toBe(true);
    expect(await app.db.$count(sandboxCharges)).toBe(6);
    // Nothing more until the next occurrence.
    expect(await twoLoops(app)).toBe(0);
    const [next] = await app.db.select({ at: schedules.nextRunAt }).from(schedules).where(eq(schedules.id, acmeSchedules[0]!));
    expect(next!.at!.toISOString()).toBe('2026-03-02T00:04:00.000Z');
  });

  it('holds a retry and an interrupted run while suspended; reactivated, the interrupted one is charged again with its own key', async () => {
    const clock = testClock('2026-03-02T00:00:30.000Z');
    t = await createTestApp({ now: clock.now });
    await provision(t);
    const app = t.app;
    const acme = (await findIntegratorByToken(app.db, TEST_TOKEN))!;
    const { reference } = await createSchedule(app, acme, await signSchedule(scheduleData(), { iat: clock.now() }));
    const second = await createSchedule(app, acme, await signSchedule(scheduleData({ payment: { amount: 7, currency: 'PHP' } }), { iat: clock.now() }));
    // An interrupted attempt (its lease lapsed) and a declined one waiting for its retry.
    await app.db.insert(scheduleRuns).values([
      {
        id: 'run_interrupted',
        scheduleId: reference,
        dueAt: new Date('2026-03-02T00:00:00.000Z'),
        status: 'pending',
        attempts: 1,
        nextAttemptAt: new Date('2026-03-02T00:00:20.000Z'),
        lockedUntil: new Date('2026-03-02T00:00:20.000Z'),
        createdAt: clock.now(),
      },
      {
        id: 'run_retrying',
        scheduleId: second.reference,
        dueAt: new Date('2026-03-02T00:00:00.000Z'),
        status: 'retrying',
        attempts: 1,
        nextAttemptAt: new Date('2026-03-02T00:00:25.000Z'),
        createdAt: clock.now(),
      },
    ]);
    await app.db.update(schedules).set({ nextRunAt: new Date('2026-03-02T01:00:00.000Z') });
    await suspendIntegrator(app, acme.id, 'fraud review', operator);
    expect((await runSchedulerTick(app)).claimed).toBe(0);
    const held = await app.db.select({ id: scheduleRuns.id, status: scheduleRuns.status, attempts: scheduleRuns.attempts }).from(scheduleRuns);
    expect(held.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: 'run_interrupted', status: 'pending', attempts: 1 },
      { id: 'run_retrying', status: 'retrying', attempts: 1 },
    ]);
    expect(await app.db.$count(sandboxCharges)).toBe(0);

    await reactivateIntegrator(app, acme.id, operator);
    const tick = await runSchedulerTick(app);
    expect(tick.claimed).toBe(2);
    expect(tick.outcomes.succeeded).toBe(2);
    const charged = await app.db.select({ key: payments.idempotencyKey }).from(payments);
    // The interrupted attempt keeps its key (the acquirer would answer its first result); the retry is attempt 2.
    expect(charged.map((c) => c.key).sort()).toEqual(['schedule-run:run_interrupted:1', 'schedule-run:run_retrying:2']);
  });
});
