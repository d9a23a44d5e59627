import type { PaylinkApp } from '../app.ts';
import { retryCardForgets } from '../domain/cards/forget.ts';
import { reconcileProviderPayments } from '../domain/checkout/provider-pay.ts';
import { releaseAbandonedCodes } from '../domain/checkout/sale.ts';
import { recoverSubscriptionStarts } from '../domain/subscriptions/recovery.ts';
import type { Logger } from '../log.ts';
import { type Loop, startLoop } from './loop.ts';

const BATCH = 50;

/**
 * Payments at a real acquirer still processing after a minute (no webhook came, the customer did
 * not return): asked again with a sync and recorded when final (docs/acquirers.md). Pending
 * refunds at the acquirer are synced by the refund recovery loop. Deleted cards the acquirer has
 * not removed yet are asked again here too (src/domain/cards/forget.ts), and promotion codes held
 * by attempts abandoned unpaid are given back (src/domain/checkout/sale.ts), and subscriptions a
 * first payment left unstarted (a crash between the two) are started (src/domain/subscriptions/recovery.ts).
 */
export function startProviderReconcileLoop(app: PaylinkApp, log: Logger): Loop {
  return startLoop({
    name: 'provider-reconcile',
    intervalMs: 30_000,
    log,
    // Never "more work at once": attempts the provider cannot answer stay stuck, and must not be asked in a hot loop.
    tick: async () => {
      await reconcileProviderPayments(app, { olderThanSeconds: 60, limit: BATCH });
      await retryCardForgets(app, { limit: BATCH });
      await releaseAbandonedCodes(app, { limit: BATCH });
      await recoverSubscriptionStarts(app, { limit: BATCH });
      return false;
    },
  });
}
