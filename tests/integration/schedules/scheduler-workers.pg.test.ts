import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { scheduleRuns, schedules } from '../../../src/db/schema.ts';
import { type PaylinkProcess, startPaylink } from '../../support/process.ts';
import { expectExactlyOnce, fixture, recordedIn, seedDueSchedules, stop, until, workerEnv } from '../../support/scheduler-processes.ts';

/**
 * Two `npm run worker` processes sharing one PostgreSQL (the embedded database is one process only,
 * so this file runs in the integration-postgres project alone: *.pg.test.ts).
 */
describe('scheduler worker processes on one PostgreSQL', () => {
  it('two worker processes charge 1,000 due schedules with 1,000 charges and no duplicates', async () => {
    const count = 1000;
    const f = await fixture();
    const workers: PaylinkProcess[] = [];
    try {
      const setupApp = await f.open();
      // The schedules exist before the workers start but fall due only once both are running.
      await seedDueSchedules(setupApp, f.env.PAYLINK_DATA_DIR!, count, { dueNow: false });
      await setupApp.db.update(schedules).set({ nextRunAt: new Date('2999-01-01T00:00:00Z') });
      for (let i = 0; i < 2; i++) workers.push(startPaylink({ ...f.env, ...workerEnv, PAYLINK_SCHEDULE_LEASE_SECONDS: '30' }, ['--worker']));
      await Promise.all(workers.map((w) => w.ready));
      await setupApp.db.update(schedules).set({ nextRunAt: sql`now() - interval '1 second'` });
      const succeeded = async () =>
        Number((await setupApp.db.select({ n: sql<number>`count(*)` }).from(scheduleRuns).where(eq(scheduleRuns.status, 'succeeded')))[0]!.n);
      expect(await until(120_000, async () => (await succeeded()) >= count, 200)).toBe(true);
      await Promise.all(workers.map(stop));
      await expectExactlyOnce(setupApp, count);
      const perWorker = workers.map(recordedIn);
      expect(perWorker.reduce((a, b) => a + b, 0)).toBe(count);
      expect(perWorker.every((n) => n > 0)).toBe(true);
      await setupApp.database.close();
    } finally {
      await Promise.all(workers.map(stop));
      f.cleanup();
    }
  }, 180_000);
});
