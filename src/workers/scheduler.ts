import type { PaylinkApp } from '../app.ts';
import { nextSchedulerWorkAt, runSchedulerTick } from '../domain/schedules/tick.ts';
import type { Logger } from '../log.ts';
import { type Loop, startLoop } from './loop.ts';

/**
 * The scheduler loops: charge due schedule occurrences (see src/domain/schedules/tick.ts).
 * Work is claimed in the database (SKIP LOCKED), so several loops, in one process or several, share
 * it without charging anything twice. With PostgreSQL a process runs PAYLINK_SCHEDULER_LOOPS of
 * them (default 3): one loop waits on the database between its steps (claim, charge, record), and the
 * others overlap those waits (docs/schedules.md has the measurements).
 * PGlite is one connection, where a second loop would only queue: one loop.
 */
export function startSchedulerLoops(app: PaylinkApp, log: Logger): Loop[] {
  const count = app.database.kind === 'postgres' ? app.config.schedulerLoops : 1;
  return Array.from({ length: count }, (_, i) =>
    startLoop({
      name: count === 1 ? 'scheduler' : `scheduler-${i + 1}`,
      intervalMs: app.config.workerPollMs,
      log,
      // Idle, a loop sleeps until the next occurrence, retry or link expiry falls due (at most the
      // poll interval): a charge is late by its batch, not by up to a poll interval.
      tick: async () => {
        if ((await runSchedulerTick(app)).claimed > 0) return true;
        const next = await nextSchedulerWorkAt(app);
        return next ? { nextWorkInMs: next.getTime() - app.now().getTime() } : false;
      },
    }),
  );
}
