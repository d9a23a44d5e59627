import type { PaylinkApp } from '../app.ts';
import { recoverPendingRefunds } from '../domain/refunds/recovery.ts';
import type { Logger } from '../log.ts';
import { type Loop, startLoop } from './loop.ts';

const BATCH = 50;

/** Finishes refunds a crashed process left pending (docs/refunds.md, "Interrupted refunds"). */
export function startRefundRecoveryLoop(app: PaylinkApp, log: Logger): Loop {
  return startLoop({
    name: 'refund-recovery',
    intervalMs: Math.max(1000, (app.config.refundRecoverySeconds * 1000) / 2),
    log,
    tick: async () => (await recoverPendingRefunds(app, { limit: BATCH })) === BATCH,
  });
}
