import type { PaylinkApp } from '../app.ts';
import { runSchedulerTick } from '../domain/schedules/runner.ts';
import type { Logger } from '../log.ts';
import { type Loop, startLoop } from './loop.ts';

/**
 * The scheduler loop: charges due schedule occurrences (see src/domain/schedules/runner.ts).
 * Work is claimed in the database, so several processes may run it against one PostgreSQL.
 */
export function startSchedulerLoop(app: PaylinkApp, log: Logger): Loop {
  return startLoop({
    name: 'scheduler',
    intervalMs: app.config.workerPollMs,
    log,
    tick: async () => (await runSchedulerTick(app)).claimed > 0,
  });
}
