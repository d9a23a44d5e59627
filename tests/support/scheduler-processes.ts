import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { createApp, type PaylinkApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { payments, sandboxCharges, scheduleRuns, schedules } from '../../src/db/schema.ts';
import { applyProvisioning } from '../../src/domain/integrators/provisioning.ts';
import { findIntegratorByToken } from '../../src/domain/integrators/service.ts';
import { createSchedule } from '../../src/domain/schedules/service.ts';
import { createLogger } from '../../src/log.ts';
import { createTestDatabaseUrl, defaultSeed, TEST_TOKEN, testDb } from './app.ts';
import type { PaylinkProcess } from './process.ts';
import { scheduleData, signSchedule } from './schedules.ts';

/**
 * Exactly-once with real processes (dist/paylink/server.mjs): a server killed with SIGKILL in
 * the middle of a burst of due charges, then restarted; and two worker processes sharing one
 * PostgreSQL. Each waits with a deadline and stops its processes itself.
 */
export const YEARLY = { second: '0', minute: '0', hour: '0', day_of_month: '1', month: '1', day_of_week: '*' };
export const PAST = new Date('2020-06-01T00:00:00.000Z');
export const RECORDED = /"msg":"scheduled charge recorded"[^\n]*"outcome":"succeeded"/g;
export const recordedIn = (p: PaylinkProcess) => (p.output().match(RECORDED) ?? []).length;

export interface Fixture {
  env: Record<string, string>;
  open(): Promise<PaylinkApp>;
  cleanup(): void;
}

export async function fixture(): Promise<Fixture> {
  const dataDir = mkdtempSync(join(tmpdir(), 'paylink-sched-proc-'));
  const databaseUrl = testDb === 'postgres' ? await createTestDatabaseUrl() : undefined;
  const env: Record<string, string> = {
    PAYLINK_DATA_DIR: dataDir,
    PAYLINK_MASTER_KEY: randomBytes(32).toString('base64'),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  return {
    env,
    open: () => createApp({ config: loadConfig({ ...env, LOG_LEVEL: 'silent' }), log: createLogger('silent'), now: () => PAST }),
    cleanup: () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** `count` yearly schedules on the seeded card, all due now (their first run was in 2021). */
export async function seedDueSchedules(app: PaylinkApp, dataDir: string, count: number, opts: { dueNow?: boolean } = {}) {
  const seedPath = join(dataDir, 'seed.json');
  writeFileSync(seedPath, JSON.stringify(defaultSeed()));
  await applyProvisioning(app, seedPath);
  const integrator = (await findIntegratorByToken(app.db, TEST_TOKEN))!;
  const { reference } = await createSchedule(app, integrator, await signSchedule(scheduleData({ schedule: YEARLY, route: undefined }), { iat: PAST }));
  // Copies of the first schedule, inserted in one statement (one commit: all due at the same moment).
  await app.db.execute(sql`
    insert into schedules (id, integrator_id, card_registration_reference, status, recurrence, cron_pattern, time_offset, amount_minor, currency,
      description, merchant_reference_id, other_references, notify_user, payload_hash, next_run_at, created_at)
    select 'sch_' || md5(${reference} || g::text), integrator_id, card_registration_reference, status, recurrence, cron_pattern, time_offset, amount_minor, currency,
      description, merchant_reference_id, other_references, notify_user, md5(payload_hash || g::text), ${opts.dueNow ? sql`now() - interval '1 second'` : sql`next_run_at`}, created_at
    from schedules, generate_series(1, ${count - 1}) as g where id = ${reference}`);
  if (opts.dueNow) await app.db.update(schedules).set({ nextRunAt: sql`now() - interval '1 second'` }).where(eq(schedules.id, reference));
}

export async function until(deadlineMs: number, done: () => boolean | Promise<boolean>, pollMs = 100): Promise<boolean> {
  const end = Date.now() + deadlineMs;
  while (Date.now() < end) {
    if (await done()) return true;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  return done();
}

export async function stop(p: PaylinkProcess) {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
  await p.exited;
}

/** Every occurrence charged once at the acquirer and recorded once; nothing pending. */
export async function expectExactlyOnce(app: PaylinkApp, count: number) {
  const runs = await app.db.select({ status: scheduleRuns.status, n: sql<number>`count(*)` }).from(scheduleRuns).groupBy(scheduleRuns.status);
  expect(Object.fromEntries(runs.map((r) => [r.status, Number(r.n)]))).toEqual({ succeeded: count });
  const perSchedule = await app.db.execute(sql`select count(*) as n from (select schedule_id from schedule_runs group by schedule_id having count(*) > 1) d`);
  expect(Number((perSchedule as unknown as { rows: { n: number }[] }).rows[0]!.n)).toBe(0);
  const [paid] = await app.db.select({ n: sql<number>`count(*)`, runs: sql<number>`count(distinct ${payments.scheduleRunId})` }).from(payments);
  expect([Number(paid!.n), Number(paid!.runs)]).toEqual([count, count]);
  const [charged] = await app.db.select({ n: sql<number>`count(*)` }).from(sandboxCharges);
  expect(Number(charged!.n)).toBe(count);
  const orphans = await app.db.execute(
    sql`select count(*) as n from sandbox_charges c where not exists (select 1 from payments p where p.acquirer_reference = c.id)`,
  );
  expect(Number((orphans as unknown as { rows: { n: number }[] }).rows[0]!.n)).toBe(0);
}

// Batches of 50, so a burst of a few hundred is recorded in several batches and a kill can fall between them.
export const workerEnv = {
  LOG_LEVEL: 'debug',
  PAYLINK_WORKER_POLL_MS: '50',
  PAYLINK_SCHEDULE_LEASE_SECONDS: '2',
  PAYLINK_WORKERS: '1',
  PAYLINK_SCHEDULER_BATCH: '50',
};
