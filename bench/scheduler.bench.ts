import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { payments, sandboxCharges, scheduleRuns, schedules } from '../src/db/schema.ts';
import { findIntegratorByToken } from '../src/domain/integrators/service.ts';
import { runSchedulerTick } from '../src/domain/schedules/runner.ts';
import { createSchedule } from '../src/domain/schedules/service.ts';
import { createTestApp, provision, TEST_TOKEN } from '../tests/support/app.ts';
import { scheduleData, signSchedule } from '../tests/support/schedules.ts';
import { type BenchRow, percentile, recordBench, round } from './support/report.ts';

/**
 * 10,000 schedules due in the same second: how long until every one is charged, whether any
 * occurrence was charged twice, and how late each charge was (recorded time − due time), with
 * one scheduler loop as a server process runs it (PGlite: one connection; PostgreSQL: 8 charges
 * in flight).
 */
const COUNT = 10_000;
const YEARLY = { second: '0', minute: '0', hour: '0', day_of_month: '1', month: '1', day_of_week: '*' };
const rows: BenchRow[] = [];

afterAll(() => recordBench('scheduler: 10,000 schedules due in one second', rows));

const kinds: ('pglite' | 'postgres')[] = ['pglite', ...(process.env.DATABASE_URL ? (['postgres'] as const) : [])];

describe('scheduler bench', () => {
  for (const kind of kinds) {
    it(`charges ${COUNT} schedules due in one second (${kind})`, async () => {
      // The app's clock runs at real speed, shifted (below) so that the schedules' next occurrence
      // (1 January, 00:00) comes two seconds after the copies are made: the due time is a real
      // occurrence, as next_run_at always is, and lateness is the app's time of recording − due time.
      let shiftMs = 0;
      const t = await createTestApp({ db: kind, env: { LOG_LEVEL: 'info' }, now: () => new Date(Date.now() + shiftMs) });
      try {
        await provision(t);
        const app = t.app;
        const integrator = (await findIntegratorByToken(app.db, TEST_TOKEN))!;
        const { reference } = await createSchedule(
          app,
          integrator,
          await signSchedule(scheduleData({ schedule: YEARLY, route: undefined }), { iat: app.now() }),
        );
        await app.db.execute(sql`
          insert into schedules (id, integrator_id, card_registration_reference, status, recurrence, cron_pattern, time_offset, amount_minor, currency,
            description, merchant_reference_id, other_references, notify_user, payload_hash, next_run_at, created_at)
          select 'sch_' || md5(${reference} || g::text), integrator_id, card_registration_reference, status, recurrence, cron_pattern, time_offset, amount_minor, currency,
            description, merchant_reference_id, other_references, notify_user, md5(payload_hash || g::text), next_run_at, created_at
          from schedules, generate_series(1, ${COUNT - 1}) as g where id = ${reference}`);
        // All due at the same occurrence, which the app's clock reaches two seconds from now.
        const [first] = await app.db.select({ at: schedules.nextRunAt }).from(schedules).where(sql`${schedules.id} = ${reference}`);
        const dueAt = first!.at!;
        shiftMs = dueAt.getTime() - (Date.now() + 2000);
        while (app.now().getTime() < dueAt.getTime()) await new Promise((r) => setTimeout(r, 5));
        // As a process runs them (src/workers/scheduler.ts): PAYLINK_SCHEDULER_LOOPS loops with PostgreSQL, one with PGlite.
        const loops = kind === 'postgres' ? app.config.schedulerLoops : 1;
        let charged = 0;
        await Promise.all(
          Array.from({ length: loops }, async () => {
            for (let ticks = 0; ticks < 10_000 && charged < COUNT; ticks++) {
              const tick = await runSchedulerTick(app);
              charged += tick.outcomes.succeeded;
              if (tick.claimed === 0) break;
            }
          }),
        );
        const done = app.now().getTime();
        const late = await app.db
          .select({ ms: sql<number>`extract(epoch from (${payments.createdAt} - ${scheduleRuns.dueAt})) * 1000` })
          .from(payments)
          .innerJoin(scheduleRuns, sql`${scheduleRuns.id} = ${payments.scheduleRunId}`);
        const lateness = late.map((r) => Number(r.ms));
        const [dupes] = await app.db.select({ n: sql<number>`count(*) - count(distinct ${scheduleRuns.scheduleId})` }).from(scheduleRuns);
        const [acquirer] = await app.db.select({ n: sql<number>`count(*)` }).from(sandboxCharges);
        const duplicates = Number(dupes!.n) + (Number(acquirer!.n) - COUNT);
        rows.push({
          name: kind === 'pglite' ? 'PGlite (embedded)' : 'PostgreSQL',
          values: {
            schedules: COUNT,
            charged: lateness.length,
            'all charged after s': round((done - dueAt.getTime()) / 1000, 2),
            'charges/s': Math.round(lateness.length / ((done - dueAt.getTime()) / 1000)),
            duplicates,
            'lateness p50 ms': Math.round(percentile(lateness, 50)),
            'lateness p99 ms': Math.round(percentile(lateness, 99)),
          },
          note: `${loops === 1 ? 'one scheduler loop' : `${loops} scheduler loops`}, batches of ${app.config.schedulerBatch}, the sandbox's charges of a batch in one call`,
        });
        expect(lateness.length).toBe(COUNT);
        expect(duplicates).toBe(0);
      } finally {
        await t.close();
      }
    });
  }
});
