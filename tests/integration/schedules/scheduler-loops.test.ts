import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { payments, sandboxCharges, scheduleRuns, schedules } from '../../../src/db/schema.ts';
import { findIntegratorByToken } from '../../../src/domain/integrators/service.ts';
import { createSchedule } from '../../../src/domain/schedules/service.ts';
import { nextSchedulerWorkAt, runSchedulerTick } from '../../../src/domain/schedules/tick.ts';
import { startWorkers } from '../../../src/workers/index.ts';
import { createTestApp, provision, TEST_TOKEN, type TestApp } from '../../support/app.ts';
import { scheduleData, signSchedule, testClock } from '../../support/schedules.ts';

/**
 * PAYLINK_SCHEDULER_LOOPS: with PostgreSQL a process runs that many scheduler loops (default 3),
 * which share the due work through the database without charging anything twice; PGlite runs one.
 */
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const EVERY_MINUTE = { second: '0', minute: '*', hour: '*', day_of_month: '*', month: '*', day_of_week: '*' };

describe('scheduler loops', () => {
  it('runs PAYLINK_SCHEDULER_LOOPS loops with PostgreSQL and one with PGlite', async () => {
    t = await createTestApp({ env: { PAYLINK_SCHEDULER_LOOPS: '3' } });
    const workers = startWorkers(t.app);
    try {
      const names = workers.loops.map((l) => l.name).filter((n) => n.startsWith('scheduler'));
      expect(names).toEqual(t.app.database.kind === 'postgres' ? ['scheduler-1', 'scheduler-2', 'scheduler-3'] : ['scheduler']);
    } finally {
      await workers.stop();
    }
  });

  it('refuses a loop count out of range', async () => {
    await expect(createTestApp({ env: { PAYLINK_SCHEDULER_LOOPS: '0' } })).rejects.toThrow(/PAYLINK_SCHEDULER_LOOPS/);
  });

  it('loops ticking at once charge each due occurrence once', async () => {
    const clock = testClock('2026-03-02T00:00:30.000Z');
    t = await createTestApp({ now: clock.now });
    await provision(t);
    const app = t.app;
    const integrator = (await findIntegratorByToken(app.db, TEST_TOKEN))!;
    for (let i = 0; i < 40; i++) {
      await createSchedule(
        app,
        integrator,
        await signSchedule(scheduleData({ schedule: EVERY_MINUTE, payment: { amount: 10 + i, currency: 'PHP' } }), { iat: clock.now() }),
      );
    }
    clock.set('2026-03-02T00:01:00.100Z');
    let charged = 0;
    await Promise.all(
      [1, 2, 3].map(async () => {
        for (;;) {
          const tick = await runSchedulerTick(app, { batchSize: 6 });
          charged += tick.outcomes.succeeded;
          if (tick.claimed === 0) return;
        }
      }),
    );
    expect(charged).toBe(40);
    const count = async (table: typeof scheduleRuns | typeof sandboxCharges) => Number((await app.db.select({ n: sql<number>`count(*)` }).from(table))[0]!.n);
    expect(await count(scheduleRuns)).toBe(40);
    expect(await count(sandboxCharges)).toBe(40);
  });

  it('knows when its next work falls due: the earliest active occurrence, open run or awaiting link', async () => {
    const clock = testClock('2026-03-02T00:00:30.000Z');
    t = await createTestApp({ now: clock.now });
    await provision(t);
    const app = t.app;
    expect(await nextSchedulerWorkAt(app)).toBeUndefined();
    const integrator = (await findIntegratorByToken(app.db, TEST_TOKEN))!;
    const { reference } = await createSchedule(app, integrator, await signSchedule(scheduleData({ schedule: EVERY_MINUTE }), { iat: clock.now() }));
    expect((await nextSchedulerWorkAt(app))?.toISOString()).toBe('2026-03-02T00:01:00.000Z');
    // A retry waiting for an earlier moment comes first; a cancelled schedule's occurrence counts no more.
    await app.db.insert(scheduleRuns).values({
      id: 'run_retry',
      scheduleId: reference,
      dueAt: new Date('2026-03-02T00:00:00.000Z'),
      status: 'retrying',
      attempts: 1,
      nextAttemptAt: new Date('2026-03-02T00:00:45.000Z'),
      createdAt: clock.now(),
    });
    expect((await nextSchedulerWorkAt(app))?.toISOString()).toBe('2026-03-02T00:00:45.000Z');
    await app.db.update(scheduleRuns).set({ status: 'awaiting_customer', nextAttemptAt: new Date('2026-03-02T00:00:50.000Z') });
    expect((await nextSchedulerWorkAt(app))?.toISOString()).toBe('2026-03-02T00:00:50.000Z');
    await app.db.update(scheduleRuns).set({ status: 'succeeded', nextAttemptAt: null });
    await app.db.update(schedules).set({ status: 'cancelled', nextRunAt: null });
    expect(await nextSchedulerWorkAt(app)).toBeUndefined();
  });

  it('an idle loop wakes when the next occurrence falls due, not a poll interval later', async () => {
    // Polling once a minute: only the wake at the due time can charge within the test's few seconds.
    t = await createTestApp({ env: { PAYLINK_WORKER_POLL_MS: '60000' } });
    await provision(t);
    const app = t.app;
    const integrator = (await findIntegratorByToken(app.db, TEST_TOKEN))!;
    // Every minute at the second two seconds from now (UTC offset so the second is the clock's own).
    const second = (new Date().getUTCSeconds() + 2) % 60;
    const { reference } = await createSchedule(
      app,
      integrator,
      await signSchedule(scheduleData({ schedule: { ...EVERY_MINUTE, second: String(second) }, time_offset: '+00:00' }), { iat: app.now() }),
    );
    const [{ nextRunAt }] = (await app.db.select({ nextRunAt: schedules.nextRunAt }).from(schedules).where(sql`${schedules.id} = ${reference}`)) as [
      { nextRunAt: Date },
    ];
    const workers = startWorkers(app);
    try {
      await expect
        .poll(async () => (await app.db.select({ at: payments.createdAt }).from(payments).where(sql`${payments.scheduleRunId} is not null`))[0]?.at, {
          timeout: 8_000,
          interval: 50,
        })
        .toBeDefined();
    } finally {
      await workers.stop();
    }
    const [paid] = await app.db.select({ at: payments.createdAt }).from(payments).where(sql`${payments.scheduleRunId} is not null`);
    // Charged within a second of its due time (the first tick found it not yet due and slept until then).
    expect(paid!.at.getTime() - nextRunAt.getTime()).toBeGreaterThanOrEqual(0);
    expect(paid!.at.getTime() - nextRunAt.getTime()).toBeLessThan(1_000);
  });
});
