import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { PaylinkApp } from '../src/app.ts';
import { payments, sandboxCharges, scheduleRuns, schedules } from '../src/db/schema.ts';
import { findIntegratorByToken } from '../src/domain/integrators/service.ts';
import { createSchedule } from '../src/domain/schedules/service.ts';
import { runSchedulerTick } from '../src/domain/schedules/tick.ts';
import { startSchedulerLoops } from '../src/workers/scheduler.ts';
import { createTestApp, provision, TEST_TOKEN } from '../tests/support/app.ts';
import { scheduleData, signSchedule } from '../tests/support/schedules.ts';
import { type BenchRow, benchDatabases, percentile, recordBench, round } from './support/report.ts';

/**
 * The scheduler, on PGlite in its data directory (as `npm start` opens it) and on PostgreSQL:
 * - a burst: 10,000 schedules due in the same second. How long until every one is charged, whether
 *   any occurrence was charged twice, and how late each charge was (recorded time − due time), with
 *   the loops a process runs (PGlite: one; PostgreSQL: PAYLINK_SCHEDULER_LOOPS). In a burst the
 *   lateness is the time to drain it: its p99 is close to 10,000 ÷ the charges per second.
 * - a steady stream: 1,000 schedules falling due every second for 20 seconds (PAYLINK_BENCH_SCHEDULE_RATE,
 *   PAYLINK_BENCH_SCHEDULE_SECONDS), charged by the worker's own loops (src/workers/scheduler.ts, as
 *   deployed: asleep until the next falls due): how late each charge is when the scheduler keeps up.
 */
const BURST = 10_000;
const RATE = Number(process.env.PAYLINK_BENCH_SCHEDULE_RATE ?? 1_000);
const STEADY_SECONDS = Number(process.env.PAYLINK_BENCH_SCHEDULE_SECONDS ?? 20);
const YEARLY = { second: '0', minute: '0', hour: '0', day_of_month: '1', month: '1', day_of_week: '*' };
const label = { pglite: 'PGlite (its data directory)', postgres: 'PostgreSQL' };
const rows: BenchRow[] = [];

afterAll(() => recordBench('scheduler: a burst of 10,000 schedules due in one second, and a steady stream', rows));

/** One schedule made through the API's service, the template every copy is made from. */
async function templateSchedule(app: PaylinkApp): Promise<string> {
  const integrator = (await findIntegratorByToken(app.db, TEST_TOKEN))!;
  const { reference } = await createSchedule(app, integrator, await signSchedule(scheduleData({ schedule: YEARLY, route: undefined }), { iat: app.now() }));
  return reference;
}

/** What was charged: lateness of each payment (ms), and occurrences charged twice (a run twice, or a sandbox charge too many). */
async function charged(app: PaylinkApp, expected: number) {
  const late = await app.db
    .select({ ms: sql<number>`extract(epoch from (${payments.createdAt} - ${scheduleRuns.dueAt})) * 1000` })
    .from(payments)
    .innerJoin(scheduleRuns, sql`${scheduleRuns.id} = ${payments.scheduleRunId}`);
  const lateness = late.map((r) => Number(r.ms));
  const [dupes] = await app.db.select({ n: sql<number>`count(*) - count(distinct (${scheduleRuns.scheduleId}, ${scheduleRuns.dueAt}))` }).from(scheduleRuns);
  const [acquirer] = await app.db.select({ n: sql<number>`count(*)` }).from(sandboxCharges);
  return { lateness, duplicates: Number(dupes!.n) + Math.max(0, Number(acquirer!.n) - expected) };
}

describe('scheduler bench', () => {
  for (const kind of benchDatabases) {
    it(`charges ${BURST} schedules due in one second (${kind})`, async () => {
      // The app's clock runs at real speed, shifted (below) so that the schedules' next occurrence
      // (1 January, 00:00) comes two seconds after the copies are made: the due time is a real
      // occurrence, as next_run_at always is, and lateness is the app's time of recording − due time.
      let shiftMs = 0;
      const t = await createTestApp({
        db: kind,
        pgliteOnDisk: true,
        env: { LOG_LEVEL: 'info', PAYLINK_PGLITE_SYNC: process.env.PAYLINK_PGLITE_SYNC ?? 'commit' },
        now: () => new Date(Date.now() + shiftMs),
      });
      try {
        await provision(t);
        const app = t.app;
        const reference = await templateSchedule(app);
        await app.db.execute(sql`
          insert into schedules (id, integrator_id, card_registration_reference, status, recurrence, cron_pattern, time_offset, amount_minor, currency,
            description, merchant_reference_id, other_references, notify_user, payload_hash, next_run_at, created_at)
          select 'sch_' || md5(${reference} || g::text), integrator_id, card_registration_reference, status, recurrence, cron_pattern, time_offset, amount_minor, currency,
            description, merchant_reference_id, other_references, notify_user, md5(payload_hash || g::text), next_run_at, created_at
          from schedules, generate_series(1, ${BURST - 1}) as g where id = ${reference}`);
        // All due at the same occurrence, which the app's clock reaches two seconds from now.
        const [first] = await app.db.select({ at: schedules.nextRunAt }).from(schedules).where(sql`${schedules.id} = ${reference}`);
        const dueAt = first!.at!;
        shiftMs = dueAt.getTime() - (Date.now() + 2000);
        while (app.now().getTime() < dueAt.getTime()) await new Promise((r) => setTimeout(r, 5));
        // As a process runs them (src/workers/scheduler.ts): PAYLINK_SCHEDULER_LOOPS loops with PostgreSQL, one with PGlite.
        const loops = kind === 'postgres' ? app.config.schedulerLoops : 1;
        let succeeded = 0;
        await Promise.all(
          Array.from({ length: loops }, async () => {
            for (let ticks = 0; ticks < 10_000 && succeeded < BURST; ticks++) {
              const tick = await runSchedulerTick(app);
              succeeded += tick.outcomes.succeeded;
              if (tick.claimed === 0) break;
            }
          }),
        );
        const done = app.now().getTime();
        const { lateness, duplicates } = await charged(app, BURST);
        rows.push({
          name: `burst, ${label[kind]}`,
          values: {
            schedules: BURST,
            charged: lateness.length,
            'all charged after s': round((done - dueAt.getTime()) / 1000, 2),
            'charges/s': Math.round(lateness.length / ((done - dueAt.getTime()) / 1000)),
            duplicates,
            'lateness p50 ms': Math.round(percentile(lateness, 50)),
            'lateness p99 ms': Math.round(percentile(lateness, 99)),
          },
          note: `all due at once; ${loops === 1 ? 'one scheduler loop' : `${loops} scheduler loops`}, batches of ${app.config.schedulerBatch}, the sandbox's charges of a batch in one call`,
        });
        expect(lateness.length).toBe(BURST);
        expect(duplicates).toBe(0);
      } finally {
        await t.close();
      }
    });

    it(`charges ${RATE} schedules falling due every second for ${STEADY_SECONDS} s (${kind})`, async () => {
      const total = RATE * STEADY_SECONDS;
      const t = await createTestApp({
        db: kind,
        pgliteOnDisk: true,
        env: { LOG_LEVEL: 'info', PAYLINK_PGLITE_SYNC: process.env.PAYLINK_PGLITE_SYNC ?? 'commit' },
      });
      try {
        await provision(t);
        const app = t.app;
        const reference = await templateSchedule(app);
        // Copy g falls due in second g ÷ RATE of the stream: its recurrence is that second (UTC), once a
        // year, so next_run_at is a real occurrence and the charge's next one is a year away.
        const start = new Date(Math.ceil((Date.now() + 3000) / 1000) * 1000);
        await app.db.execute(sql`
          insert into schedules (id, integrator_id, card_registration_reference, status, recurrence, cron_pattern, time_offset, amount_minor, currency,
            description, merchant_reference_id, other_references, notify_user, payload_hash, next_run_at, created_at)
          select 'sch_' || md5(${reference} || g::text), integrator_id, card_registration_reference, status, recurrence,
            concat_ws(' ', extract(second from u)::int, extract(minute from u)::int, extract(hour from u)::int, extract(day from u)::int, extract(month from u)::int, '*'),
            '+00:00', amount_minor, currency, description, merchant_reference_id, other_references, notify_user, md5(payload_hash || g::text), due, created_at
          from schedules, generate_series(0, ${total - 1}) as g,
            lateral (select ${start.toISOString()}::timestamptz + (g / ${RATE}) * interval '1 second' as due) d,
            lateral (select d.due at time zone 'UTC' as u) w
          where id = ${reference}`);
        // The template itself is not part of the stream.
        await app.db.update(schedules).set({ status: 'cancelled', nextRunAt: null }).where(sql`${schedules.id} = ${reference}`);
        const loops = startSchedulerLoops(app, app.log);
        const deadline = start.getTime() + STEADY_SECONDS * 1000 + 60_000;
        try {
          for (;;) {
            await new Promise((r) => setTimeout(r, 250));
            const [n] = await app.db.select({ n: sql<number>`count(*)` }).from(payments).where(sql`${payments.scheduleRunId} is not null`);
            if (Number(n!.n) >= total || Date.now() > deadline) break;
          }
        } finally {
          await Promise.all(loops.map((l) => l.stop()));
        }
        const { lateness, duplicates } = await charged(app, total);
        rows.push({
          name: `steady, ${label[kind]}`,
          values: {
            schedules: total,
            charged: lateness.length,
            'charges/s': RATE,
            duplicates,
            'lateness p50 ms': Math.round(percentile(lateness, 50)),
            'lateness p99 ms': Math.round(percentile(lateness, 99)),
            'lateness max ms': Math.round(Math.max(...lateness)),
          },
          note: `${RATE} falling due every second for ${STEADY_SECONDS} s; the worker's loops (${loops.length}), each asleep until the next falls due (at most ${app.config.workerPollMs} ms)`,
        });
        expect(lateness.length).toBe(total);
        expect(duplicates).toBe(0);
      } finally {
        await t.close();
      }
    }, 180_000);
  }
});
