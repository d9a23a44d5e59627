import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createApp, type PaylinkApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { payments, sandboxCharges, scheduleRuns, schedules } from '../../src/db/schema.ts';
import { applyProvisioning } from '../../src/domain/integrators/provisioning.ts';
import { findIntegratorByToken } from '../../src/domain/integrators/service.ts';
import { createSchedule } from '../../src/domain/schedules/service.ts';
import { createLogger } from '../../src/log.ts';
import { createTestDatabaseUrl, defaultSeed, testDb, TEST_TOKEN } from '../support/app.ts';
import { type PaylinkProcess, startPaylink } from '../support/process.ts';
import { scheduleData, signSchedule } from '../support/schedules.ts';

import {
  YEARLY,
  PAST,
  recordedIn,
  type Fixture,
  fixture,
  seedDueSchedules,
  until,
  stop,
  expectExactlyOnce,
  workerEnv,
} from '../support/scheduler-processes.ts';

/** Exactly-once with real processes: a server killed with SIGKILL mid-burst, then restarted. */
describe('scheduler processes', () => {
  it('charges every occurrence exactly once when the server is killed with SIGKILL during a burst and restarted', async () => {
    const count = 300;
    const f = await fixture();
    try {
      const setupApp = await f.open();
      await seedDueSchedules(setupApp, f.env.PAYLINK_DATA_DIR!, count);
      await setupApp.database.close();

      const first = startPaylink({ ...f.env, ...workerEnv });
      await first.ready;
      await until(60_000, () => recordedIn(first) >= count / 5, 5);
      first.child.kill('SIGKILL');
      await first.exited;
      const beforeKill = recordedIn(first);
      expect(beforeKill).toBeGreaterThan(0);
      expect(beforeKill).toBeLessThan(count);

      const second = startPaylink({ ...f.env, ...workerEnv });
      await second.ready;
      await until(90_000, () => recordedIn(first) + recordedIn(second) >= count);
      await stop(second);

      const app = await f.open();
      try {
        await expectExactlyOnce(app, count);
      } finally {
        await app.database.close();
      }
    } finally {
      f.cleanup();
    }
  }, 180_000);
});
