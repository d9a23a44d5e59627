import { describe, expect, it } from 'vitest';
import { startPaylink } from '../../support/process.ts';
import { expectExactlyOnce, fixture, recordedIn, seedDueSchedules, stop, until, workerEnv } from '../../support/scheduler-processes.ts';

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
