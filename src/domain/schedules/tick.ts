import { sql } from 'drizzle-orm';
import type { ChargeResult } from '../../acquirer/acquirer.ts';
import { scheduleRuns, schedules } from '../../db/schema.ts';
import { rowsOf } from '../../db/statements.ts';
import type { DomainContext } from '../context.ts';
import { chargeClaims } from './charge.ts';
import { AWAITING_RUN, type ClaimedCharge, claimDueAttempts, claimDueOccurrences, DUE_SCHEDULE, INTEGRATOR_ACTIVE, OPEN_RUN } from './claim.ts';
import { expireUnpaidLinks, type PayLinkItem, sendPaymentLinks, wantsCustomer } from './pay-links.ts';
import { type RecordOutcome, recordClaimOutcomes } from './record.ts';

/**
 * The scheduler: every occurrence is charged exactly once.
 *
 * 1. claim (tx1): due schedules are locked FOR UPDATE SKIP LOCKED; the occurrence is inserted
 *    (unique per schedule and due time) in the same transaction that advances next_run_at.
 *    The run is `pending` with a lease (next_attempt_at = locked_until = now + lease).
 * 2. charge: outside any transaction, with idempotency key `schedule-run:<run id>:<attempt>`.
 * 3. record (tx2): the run row is locked and checked to still be pending at this attempt; only
 *    then is the payment recorded (its idempotency_key is the same key, and unique) and the
 *    run closed. A second recorder finds the run already closed and records nothing.
 *
 * A crash between 1 and 3 leaves the run pending; when its lease lapses it is claimed again
 * and charged with the SAME key, so the acquirer returns the first result instead of charging
 * twice. After downtime, missed occurrences collapse into one charge due at the latest missed
 * occurrence. A declined attempt is retried after PAYLINK_SCHEDULE_RETRY_SECONDS; after the
 * last retry the occurrence fails, and PAYLINK_SCHEDULE_MAX_FAILED_RUNS failed occurrences in
 * a row suspend the schedule. A suspended integrator's schedules are not claimed at all
 * (claim.ts INTEGRATOR_ACTIVE) until it is reactivated.
 *
 * A pay-by-link registration's occurrence (and one whose off-session charge the bank wants the
 * customer to authenticate) is not charged: step 3 writes its checkout and the e-mail carrying the
 * link instead, with the same checks (pay-links.ts).
 *
 * Each step has its file (claim.ts, charge.ts, record.ts); this one runs a pass of them, and
 * run-now.ts runs them for one occurrence on request.
 */

/** What the tick did with a pay-by-link occurrence: its link e-mailed (the run awaits the customer), or a link that expired unpaid. */
export type LinkOutcome = 'awaiting_customer' | 'missed';

export interface TickResult {
  claimed: number;
  outcomes: Record<RecordOutcome | LinkOutcome | 'error', number>;
}

/**
 * One pass: claims due attempts (retries, recoveries) and due occurrences, charges and records
 * them. The worker loop calls it again at once while it finds work; tests call it directly.
 */
export async function runSchedulerTick(app: DomainContext, opts: { batchSize?: number; concurrency?: number } = {}): Promise<TickResult> {
  const batchSize = opts.batchSize ?? app.config.schedulerBatch;
  // PGlite is one connection: concurrent charges would only queue behind each other.
  const concurrency = opts.concurrency ?? (app.database.kind === 'pglite' ? 1 : Math.max(1, Math.min(8, app.config.databasePoolSize - 2)));
  // Links that expired unpaid first: their occurrences are missed (they count like failed ones), and
  // a schedule they suspend gets no new occurrence below.
  const expired = await expireUnpaidLinks(app, { limit: batchSize });
  const claims = [...(await claimDueAttempts(app, { limit: batchSize })), ...(await claimDueOccurrences(app, { limit: batchSize }))];
  const outcomes: TickResult['outcomes'] = {
    succeeded: 0,
    retrying: 0,
    failed: 0,
    suspended: 0,
    already_recorded: 0,
    awaiting_customer: 0,
    missed: 0,
    error: 0,
  };
  const log = app.log.child({ component: 'scheduler' });
  outcomes.missed += expired.missed;
  outcomes.suspended += expired.suspended;
  const charged: Array<{ claim: ClaimedCharge; result: ChargeResult }> = [];
  // Pay-by-link occurrences are not charged: the customer is e-mailed a link (below), as is one
  // whose off-session charge the bank wants them to authenticate.
  const toLink: PayLinkItem[] = claims.filter((c) => c.collection === 'pay_link').map((claim) => ({ claim, reason: 'pay_by_link' }));
  const answered = (claim: ClaimedCharge, result: ChargeResult) => {
    if (result.status === 'declined' && wantsCustomer(result) && claim.customerEmail) {
      toLink.push({ claim, reason: 'authentication_required', failure: { code: 'authentication_required', message: result.message } });
    } else charged.push({ claim, result });
  };
  const { interrupted } = await chargeClaims(
    app,
    claims.filter((c) => c.collection !== 'pay_link'),
    { concurrency, log, answered },
  );
  outcomes.error += interrupted;
  // The batch's outcomes are recorded together (one transaction, a few statements in all). If it
  // fails, every run stays pending and is charged again with its same key, which returns the first result.
  try {
    const recorded = await recordClaimOutcomes(app, charged);
    for (const [n, outcome] of recorded.entries()) {
      outcomes[outcome]++;
      const { claim } = charged[n]!;
      log.debug('scheduled charge recorded', { run: claim.runId, schedule: claim.scheduleId, attempt: claim.attempt, outcome });
    }
  } catch (error) {
    outcomes.error += charged.length;
    log.error('scheduled charges not recorded; they will be recovered', { runs: charged.length, error });
  }
  // The payment links, in one transaction: a failure leaves the runs pending, sent again after their lease.
  try {
    for (const outcome of await sendPaymentLinks(app, toLink)) outcomes[outcome]++;
  } catch (error) {
    outcomes.error += toLink.length;
    log.error('payment links not sent; they will be recovered', { runs: toLink.length, error });
  }
  return { claimed: claims.length + expired.missed, outcomes };
}

/**
 * When the scheduler next has work by the clock: the earliest due occurrence, retry or lease end of
 * an open run, or expiry of a payment link awaiting its customer; undefined when nothing is scheduled.
 * Each part is the first entry of its partial index.
 */
export async function nextSchedulerWorkAt(app: DomainContext): Promise<Date | undefined> {
  // As milliseconds since the epoch: one number on both drivers (timestamps come back as text in their own formats).
  const [row] = rowsOf<{ next_ms: string | number | null }>(
    await app.db.execute(sql`select (extract(epoch from least(
      (select min(${schedules.nextRunAt}) from ${schedules} where ${DUE_SCHEDULE} and ${INTEGRATOR_ACTIVE}),
      (select min(${scheduleRuns.nextAttemptAt}) from ${scheduleRuns} join ${schedules} on ${schedules.id} = ${scheduleRuns.scheduleId} where ${OPEN_RUN} and ${INTEGRATOR_ACTIVE}),
      (select min(${scheduleRuns.nextAttemptAt}) from ${scheduleRuns} join ${schedules} on ${schedules.id} = ${scheduleRuns.scheduleId} where ${AWAITING_RUN} and ${INTEGRATOR_ACTIVE}))) * 1000)::float8 as next_ms`),
  );
  return row?.next_ms == null ? undefined : new Date(Number(row.next_ms));
}
