import { lt } from 'drizzle-orm';
import { purgeExpiredKeys } from '../api/idempotency.ts';
import type { PaylinkApp } from '../app.ts';
import { rateLimits } from '../db/schema.ts';
import { pruneAudit } from '../domain/accounts/audit.ts';
import { purgeSessions } from '../domain/accounts/sessions.ts';
import { purgeOperatorSessions } from '../domain/operators/accounts.ts';
import { startCallbackLoop } from './callbacks.ts';
import { type Loop, startLoop } from './loop.ts';
import { startMailerLoop } from './mailer.ts';
import { startProviderReconcileLoop } from './provider-reconcile.ts';
import { startRefundRecoveryLoop } from './refund-recovery.ts';
import { startSchedulerLoops } from './scheduler.ts';

/**
 * The background workers of one process: each consumes work claimed in the database
 * (FOR UPDATE SKIP LOCKED), so any number of processes may run them side by side.
 * Add a worker by adding its loop here.
 */
export interface Workers {
  loops: Loop[];
  stop(): Promise<void>;
}

export function startWorkers(app: PaylinkApp): Workers {
  const log = app.log.child({ component: 'workers' });
  const loops: Loop[] = [
    startLoop({
      name: 'expired-keys-purge',
      intervalMs: 60 * 60 * 1000,
      log,
      tick: async () => {
        await purgeExpiredKeys(app.db, app.now());
        // Velocity-limit counters whose window has ended (PostgreSQL store; empty on PGlite).
        await app.db.delete(rateLimits).where(lt(rateLimits.expire, new Date()));
        // Console sessions past their idle timeout or lifetime (each is refused on use anyway).
        await purgeSessions(app);
        await purgeOperatorSessions(app);
        // Audit entries past their retention (PAYLINK_AUDIT_RETENTION_DAYS, at least a year).
        await pruneAudit(app.db, app.config.console.auditRetentionDays, app.now());
        return false;
      },
    }),
    startCallbackLoop(app, log),
    startMailerLoop(app, log),
    ...startSchedulerLoops(app, log),
    startRefundRecoveryLoop(app, log),
    startProviderReconcileLoop(app, log),
  ];
  return {
    loops,
    async stop() {
      await Promise.all(loops.map((loop) => loop.stop()));
    },
  };
}
