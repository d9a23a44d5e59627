import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import pMap from 'p-map';
import type { ChargeResult } from '../../acquirer/acquirer.ts';
import type { Connector } from '../../acquirer/connector.ts';
import type { PaylinkApp } from '../../app.ts';
import { newId } from '../../crypto.ts';
import type { Tx } from '../../db/client.ts';
import { cardRegistrations, scheduleRuns, schedules } from '../../db/schema.ts';
import { insertRows, rowsOf } from '../../db/statements.ts';
import { DomainError, notFound } from '../errors.ts';
import { recordEvent } from '../notifications/domain-events.ts';
import { type Payment, recordCharges } from '../payments/record.ts';
import { cancelSchedulesTx } from './cancel.ts';
import { expireUnpaidLinks, type PayLinkItem, sendPaymentLinks, wantsCustomer } from './pay-links.ts';
import { latestOccurrenceAtOrBefore, nextOccurrence, parseTimeOffset } from './recurrence.ts';
import { lockPendingRuns } from './run-locks.ts';

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
 * a row suspend the schedule.
 *
 * A pay-by-link registration's occurrence (and one whose off-session charge the bank wants the
 * customer to authenticate) is not charged: step 3 writes its checkout and the e-mail carrying the
 * link instead, with the same checks (pay-links.ts).
 */
export interface ClaimedCharge {
  runId: string;
  attempt: number;
  dueAt: Date;
  scheduleId: string;
  integratorId: string;
  amountMinor: bigint;
  currency: string;
  cardToken: string;
  /** The acquirer's customer the card is saved on (Stripe), null for the sandbox vault. */
  cardCustomer: string | null;
  cardRegistrationReference: string;
  customerEmail: string | null;
  customerName: string | null;
  description: string | null;
  merchantReferenceId: string | null;
  otherReferences: string[];
  callbackUrl: string | null;
  notifyUser: boolean;
  timeOffset: string;
  cronPattern: string;
  /** `pay_link`: the occurrence is collected by a payment link e-mailed to the customer (pay-links.ts), never charged. */
  collection: 'saved_card' | 'pay_link';
}

export const chargeKey = (claim: Pick<ClaimedCharge, 'runId' | 'attempt'>) => `schedule-run:${claim.runId}:${claim.attempt}`;

// Literal predicates (not bound parameters) so the planner can use the partial indexes
// schedules_due_idx and schedule_runs_pending_idx.
const DUE_SCHEDULE = sql`${schedules.status} = 'active'`;
const OPEN_RUN = sql`${scheduleRuns.status} in ('pending', 'retrying')`;
const AWAITING_RUN = sql`${scheduleRuns.status} = 'awaiting_customer'`;

const leaseEnd = (app: PaylinkApp, now: Date) => new Date(now.getTime() + app.config.scheduleLeaseSeconds * 1000);

const scheduleColumns = {
  scheduleId: schedules.id,
  integratorId: schedules.integratorId,
  status: schedules.status,
  cronPattern: schedules.cronPattern,
  timeOffset: schedules.timeOffset,
  nextRunAt: schedules.nextRunAt,
  amountMinor: schedules.amountMinor,
  currency: schedules.currency,
  description: schedules.description,
  merchantReferenceId: schedules.merchantReferenceId,
  otherReferences: schedules.otherReferences,
  callbackUrl: schedules.callbackUrl,
  notifyUser: schedules.notifyUser,
  cardRegistrationReference: schedules.cardRegistrationReference,
  cardStatus: cardRegistrations.status,
  cardToken: cardRegistrations.cardToken,
  cardCustomer: cardRegistrations.cardCustomer,
  collection: cardRegistrations.collection,
  customerEmail: cardRegistrations.customerEmail,
  // The name given at registration, or else the card holder's.
  customerName: sql<string | null>`coalesce(${cardRegistrations.customerName}, ${cardRegistrations.holderName})`,
};

/** What charging one attempt of one occurrence needs, from the schedule and its card. */
function toClaim(
  s: Omit<ClaimedCharge, 'runId' | 'attempt' | 'dueAt' | 'cardToken'>,
  cardToken: string,
  run: Pick<ClaimedCharge, 'runId' | 'attempt' | 'dueAt'>,
): ClaimedCharge {
  return {
    ...run,
    scheduleId: s.scheduleId,
    integratorId: s.integratorId,
    amountMinor: s.amountMinor,
    currency: s.currency,
    cardToken,
    cardCustomer: s.cardCustomer,
    cardRegistrationReference: s.cardRegistrationReference,
    customerEmail: s.customerEmail,
    customerName: s.customerName,
    description: s.description,
    merchantReferenceId: s.merchantReferenceId,
    otherReferences: s.otherReferences,
    callbackUrl: s.callbackUrl,
    notifyUser: s.notifyUser,
    timeOffset: s.timeOffset,
    cronPattern: s.cronPattern,
    collection: s.collection,
  };
}

/** The token a claim charges: the saved card's, or none for a pay-by-link registration (null: nothing to collect with). */
const collectingToken = (s: { cardToken: string | null; collection: 'saved_card' | 'pay_link' }) =>
  s.collection === 'pay_link' ? (s.cardToken ?? '') : s.cardToken;

/** tx1 for new occurrences: claims up to `limit` due schedules and records one occurrence each. */
export async function claimDueOccurrences(app: PaylinkApp, opts: { limit: number }): Promise<ClaimedCharge[]> {
  const now = app.now();
  const lease = leaseEnd(app, now);
  return app.db.transaction(async (tx) => {
    const due = await tx
      .select(scheduleColumns)
      .from(schedules)
      .innerJoin(cardRegistrations, eq(cardRegistrations.reference, schedules.cardRegistrationReference))
      .where(and(DUE_SCHEDULE, lte(schedules.nextRunAt, now)))
      .orderBy(schedules.nextRunAt)
      .limit(opts.limit)
      .for('update', { of: schedules, skipLocked: true });
    const claims: ClaimedCharge[] = [];
    const advance: { id: string; next: string | null }[] = [];
    for (const s of due) {
      const token = collectingToken(s);
      if (s.cardStatus !== 'active' || token === null) {
        await cancelSchedulesTx(app, tx, { integratorId: s.integratorId, scheduleId: s.scheduleId, now, reason: 'card_registration_deleted' });
        continue;
      }
      const rec = { cronPattern: s.cronPattern, offsetMinutes: parseTimeOffset(s.timeOffset) ?? 0 };
      // Catch-up: every missed occurrence up to now collapses into one, due at the latest. next_run_at
      // is itself an occurrence at or before now, so the latest is never earlier than it.
      const dueAt = latestOccurrenceAtOrBefore(rec, now) ?? s.nextRunAt!;
      const next = nextOccurrence(rec, now);
      advance.push({ id: s.scheduleId, next: next?.toISOString() ?? null });
      claims.push(toClaim(s, token, { runId: newId('run'), attempt: 1, dueAt }));
    }
    if (claims.length === 0) return [];
    const inserted = await insertRows(
      tx,
      scheduleRuns,
      claims.map((c) => ({
        id: c.runId,
        scheduleId: c.scheduleId,
        dueAt: c.dueAt,
        status: 'pending' as const,
        attempts: 1,
        nextAttemptAt: lease,
        lockedUntil: lease,
        createdAt: now,
      })),
      { onConflictDoNothing: [scheduleRuns.scheduleId, scheduleRuns.dueAt] },
    );
    await advanceNextRuns(tx, advance);
    const recorded = new Set(inserted.map((r) => r.id));
    return claims.filter((c) => recorded.has(c.runId));
  });
}

/** Called with one row per claim, never with none (claimDueOccurrences returns before when it claimed nothing). */
async function advanceNextRuns(tx: Tx, rows: { id: string; next: string | null }[]) {
  const values = sql.join(
    rows.map((r) => sql`(${r.id}, ${r.next}::timestamptz)`),
    sql`, `,
  );
  await tx.execute(sql`update schedules set next_run_at = v.next from (values ${values}) as v(id, next) where schedules.id = v.id`);
}

/**
 * tx1 for attempts of existing occurrences: retries whose time has come, and pending runs whose
 * lease lapsed (a crash between claim and record). A retry is a new attempt (new key); a
 * recovery re-issues the interrupted attempt with the same key.
 */
export async function claimDueAttempts(app: PaylinkApp, opts: { limit: number }): Promise<ClaimedCharge[]> {
  const now = app.now();
  const lease = leaseEnd(app, now);
  return app.db.transaction(async (tx) => {
    const due = await tx
      .select({ run: scheduleRuns, ...scheduleColumns })
      .from(scheduleRuns)
      .innerJoin(schedules, eq(schedules.id, scheduleRuns.scheduleId))
      .innerJoin(cardRegistrations, eq(cardRegistrations.reference, schedules.cardRegistrationReference))
      .where(and(OPEN_RUN, lte(scheduleRuns.nextAttemptAt, now)))
      .orderBy(scheduleRuns.nextAttemptAt)
      .limit(opts.limit)
      .for('update', { of: scheduleRuns, skipLocked: true });
    const claims: ClaimedCharge[] = [];
    for (const row of due) {
      const { run } = row;
      const retry = run.status === 'retrying';
      const token = collectingToken(row);
      if (retry && (row.status !== 'active' || row.cardStatus !== 'active' || token === null)) {
        await tx.update(scheduleRuns).set({ status: 'cancelled', nextAttemptAt: null, completedAt: now }).where(eq(scheduleRuns.id, run.id));
        continue;
      }
      if (token === null) continue; // never happens: a pending run was claimed with an active card, and tokens are kept
      const attempt = retry ? run.attempts + 1 : run.attempts;
      await tx.update(scheduleRuns).set({ status: 'pending', attempts: attempt, nextAttemptAt: lease, lockedUntil: lease }).where(eq(scheduleRuns.id, run.id));
      claims.push(toClaim(row, token, { runId: run.id, attempt, dueAt: run.dueAt }));
    }
    return claims;
  });
}

/**
 * Step 2: the acquirer call, outside any transaction. A connector with a card vault charges its
 * vaulted token directly; another connector charges the saved card off-session (a saved card is scheduled only with
 * connectors with native off-session charges: POST /schedule refuses the others; pay-by-link
 * occurrences never come here). An answer that is not
 * final is thrown, so the run is retried under the same key like any call without an answer.
 */
export async function chargeClaim(app: PaylinkApp, claim: ClaimedCharge): Promise<ChargeResult> {
  const connector = await app.connectors.forIntegrator(claim.integratorId);
  if (connector.vault) {
    return connector.vault.charge(
      { source: { token: claim.cardToken }, amountMinor: claim.amountMinor, currency: claim.currency, description: claim.description ?? undefined },
      { idempotencyKey: chargeKey(claim) },
    );
  }
  const state = await connector.chargeSavedCard(
    {
      token: claim.cardToken,
      ...(claim.cardCustomer ? { customer: claim.cardCustomer } : {}),
      amountMinor: claim.amountMinor,
      currency: claim.currency,
      description: claim.description ?? undefined,
      reference: claim.runId,
    },
    { idempotencyKey: chargeKey(claim) },
  );
  if (state.status === 'succeeded') return { ...state, status: 'succeeded' } as ChargeResult;
  if (state.status === 'declined') return { ...state, status: 'declined' } as ChargeResult;
  // The bank wants the customer (3-D Secure) for an off-session charge: a decline they can act on
  // (runSchedulerTick e-mails them the occurrence's payment link, as for Stripe's authentication_required).
  if (state.status === 'requires_action') {
    return {
      status: 'declined',
      code: 'card_declined',
      message: 'The bank asked the customer to confirm this charge.',
      customerAction: 'authenticate',
    } as ChargeResult;
  }
  throw new Error(`${connector.name}: the off-session charge is still ${state.status}`);
}

export type RecordOutcome = 'succeeded' | 'retrying' | 'failed' | 'suspended' | 'already_recorded';

/** What the tick did with a pay-by-link occurrence: its link e-mailed (the run awaits the customer), or a link that expired unpaid. */
export type LinkOutcome = 'awaiting_customer' | 'missed';

/** Step 3 (tx2): records the payment and closes (or reschedules) the run, once. */
export async function recordClaimOutcome(app: PaylinkApp, claim: ClaimedCharge, result: ChargeResult): Promise<RecordOutcome> {
  const [outcome] = await recordClaimOutcomes(app, [{ claim, result }]);
  return outcome!;
}

/**
 * Step 3 for a batch, in one transaction: the runs are locked and each is checked to still be
 * pending at its attempt (a second recorder records nothing); the payments and their events are
 * written with one insert each, the runs closed or rescheduled with one update. Failed occurrences
 * count towards suspending their schedule.
 */
export async function recordClaimOutcomes(app: PaylinkApp, items: Array<{ claim: ClaimedCharge; result: ChargeResult }>): Promise<RecordOutcome[]> {
  if (items.length === 0) return [];
  const now = app.now();
  const retries = app.config.scheduleRetrySeconds;
  return app.db.transaction(async (tx) => {
    const open = await lockPendingRuns(
      tx,
      items.map((i) => i.claim.runId),
    );
    const outcomes: RecordOutcome[] = items.map(() => 'already_recorded');
    const toRecord: Array<{ n: number; claim: ClaimedCharge; result: ChargeResult; nextAttemptAt: Date | null }> = [];
    for (const [n, { claim, result }] of items.entries()) {
      if (open.get(claim.runId) !== claim.attempt) continue;
      open.delete(claim.runId); // the same run twice in one batch is recorded once
      const succeeded = result.status === 'succeeded';
      const willRetry = !succeeded && claim.attempt <= retries.length;
      toRecord.push({ n, claim, result, nextAttemptAt: willRetry ? new Date(now.getTime() + retries[claim.attempt - 1]! * 1000) : null });
      outcomes[n] = succeeded ? 'succeeded' : willRetry ? 'retrying' : 'failed';
    }
    if (toRecord.length === 0) return outcomes;

    const paid = await recordCharges(
      app,
      tx,
      toRecord.map(({ claim, result, nextAttemptAt }) => ({
        integratorId: claim.integratorId,
        result,
        amountMinor: claim.amountMinor,
        currency: claim.currency,
        idempotencyKey: chargeKey(claim),
        scheduleRunId: claim.runId,
        cardRegistrationReference: claim.cardRegistrationReference,
        description: claim.description,
        merchantReferenceId: claim.merchantReferenceId,
        otherReferences: claim.otherReferences,
        customer: claim.customerName ? { 'customer.name': claim.customerName } : ({} as Record<string, string>),
        customerEmail: claim.customerEmail,
        callbackUrl: claim.callbackUrl,
        notifyUser: claim.notifyUser,
        run: {
          scheduleId: claim.scheduleId,
          runId: claim.runId,
          dueAt: claim.dueAt,
          offsetMinutes: parseTimeOffset(claim.timeOffset) ?? 0,
          attempt: claim.attempt,
          retry: result.status === 'succeeded' ? undefined : { willRetry: nextAttemptAt !== null, nextAttemptAt },
        },
        now,
      })),
    );

    // Every recorded run at once: closed (succeeded, failed) or waiting for its retry.
    const runValues = sql.join(
      toRecord.map(({ n, claim, result, nextAttemptAt }, i) => {
        const declined = result.status === 'declined' ? result : undefined;
        const status = outcomes[n] as 'succeeded' | 'retrying' | 'failed';
        return sql`(${claim.runId}::text, ${status}::text, ${paid[i]!.id}::text, ${nextAttemptAt?.toISOString() ?? null}::timestamptz, ${status === 'retrying' ? null : now.toISOString()}::timestamptz, ${declined !== undefined}::boolean, ${declined?.code ?? null}::text, ${declined?.message ?? null}::text)`;
      }),
      sql`, `,
    );
    await tx.execute(sql`update ${scheduleRuns} set status = v.status, payment_id = v.payment_id, locked_until = null,
      next_attempt_at = v.next_attempt_at, completed_at = v.completed_at,
      last_failure_code = case when v.declined then v.code else ${scheduleRuns.lastFailureCode} end,
      last_failure_message = case when v.declined then v.message else ${scheduleRuns.lastFailureMessage} end
      from (values ${runValues}) as v(id, status, payment_id, next_attempt_at, completed_at, declined, code, message)
      where ${scheduleRuns.id} = v.id`);

    const succeededSchedules = toRecord.filter(({ n }) => outcomes[n] === 'succeeded').map(({ claim }) => claim.scheduleId);
    if (succeededSchedules.length > 0) {
      await tx
        .update(schedules)
        .set({ consecutiveFailures: 0 })
        .where(and(inArray(schedules.id, succeededSchedules), sql`${schedules.consecutiveFailures} <> 0`));
    }
    for (const [i, { n, claim }] of toRecord.entries()) {
      if (outcomes[n] === 'failed' && (await countFailedOccurrence(app, tx, claim, { payment: paid[i]! }, now))) outcomes[n] = 'suspended';
    }
    return outcomes;
  });
}

/** A failed occurrence: one more in a row; PAYLINK_SCHEDULE_MAX_FAILED_RUNS of them suspend the schedule (true). */
export async function countFailedOccurrence(
  app: PaylinkApp,
  tx: Tx,
  claim: Pick<ClaimedCharge, 'scheduleId' | 'integratorId' | 'callbackUrl' | 'notifyUser' | 'customerEmail'>,
  failed: { payment: Payment } | { payment: null; failure: { code: string; message: string } },
  now: Date,
): Promise<boolean> {
  // One row: the schedule exists (its runs reference it, and schedules are never deleted).
  const schedule = (
    await tx
      .update(schedules)
      .set({ consecutiveFailures: sql`${schedules.consecutiveFailures} + 1` })
      .where(eq(schedules.id, claim.scheduleId))
      .returning({ failures: schedules.consecutiveFailures, status: schedules.status })
  )[0]!;
  if (schedule.status !== 'active' || schedule.failures < app.config.scheduleMaxFailedRuns) return false;
  await tx.update(schedules).set({ status: 'suspended', suspendedAt: now, nextRunAt: null }).where(eq(schedules.id, claim.scheduleId));
  await tx
    .update(scheduleRuns)
    .set({ status: 'cancelled', nextAttemptAt: null, completedAt: now })
    .where(and(eq(scheduleRuns.scheduleId, claim.scheduleId), eq(scheduleRuns.status, 'retrying')));
  await recordEvent(app.presentEvent, tx, {
    integratorId: claim.integratorId,
    event: { type: 'schedule.suspended', scheduleId: claim.scheduleId, ...failed, consecutiveFailedRuns: schedule.failures },
    callbackUrl: claim.callbackUrl,
    emailTo: claim.notifyUser ? claim.customerEmail : null,
    now,
  });
  return true;
}

export interface TickResult {
  claimed: number;
  outcomes: Record<RecordOutcome | LinkOutcome | 'error', number>;
}

/**
 * One pass: claims due attempts (retries, recoveries) and due occurrences, charges and records
 * them. The worker loop calls it again at once while it finds work; tests call it directly.
 */
export async function runSchedulerTick(app: PaylinkApp, opts: { batchSize?: number; concurrency?: number } = {}): Promise<TickResult> {
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
  // A connector that offers a batch charge (the sandbox) takes its share of the claims in one call;
  // other connectors, or a batch refused as a whole, one charge at a time.
  const { batches, others } = await byBatchConnector(
    app,
    claims.filter((c) => c.collection !== 'pay_link'),
  );
  for (const [connector, batch] of batches) {
    try {
      const results = await connector.chargeSavedCards!(
        batch.map((claim) => ({ token: claim.cardToken, amountMinor: claim.amountMinor, currency: claim.currency, idempotencyKey: chargeKey(claim) })),
      );
      for (const [n, claim] of batch.entries()) answered(claim, results[n]!);
    } catch (error) {
      log.warn('scheduled charges not taken as a batch; charging them one at a time', { runs: batch.length, error });
      others.push(...batch);
    }
  }
  await pMap(
    others,
    async (claim) => {
      try {
        answered(claim, await chargeClaim(app, claim));
      } catch (error) {
        // The run stays pending; when its lease lapses it is charged again with the same key.
        outcomes.error++;
        log.error('scheduled charge interrupted; it will be recovered', { run: claim.runId, schedule: claim.scheduleId, error });
      }
    },
    { concurrency },
  );
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
export async function nextSchedulerWorkAt(app: PaylinkApp): Promise<Date | undefined> {
  // As milliseconds since the epoch: one number on both drivers (timestamps come back as text in their own formats).
  const [row] = rowsOf<{ next_ms: string | number | null }>(
    await app.db.execute(sql`select (extract(epoch from least(
      (select min(${schedules.nextRunAt}) from ${schedules} where ${DUE_SCHEDULE}),
      (select min(${scheduleRuns.nextAttemptAt}) from ${scheduleRuns} where ${OPEN_RUN}),
      (select min(${scheduleRuns.nextAttemptAt}) from ${scheduleRuns} where ${AWAITING_RUN}))) * 1000)::float8 as next_ms`),
  );
  return row?.next_ms == null ? undefined : new Date(Number(row.next_ms));
}

/** Claims grouped by a connector that charges saved cards in a batch, and the rest. */
async function byBatchConnector(app: PaylinkApp, claims: ClaimedCharge[]): Promise<{ batches: Map<Connector, ClaimedCharge[]>; others: ClaimedCharge[] }> {
  const batches = new Map<Connector, ClaimedCharge[]>();
  const others: ClaimedCharge[] = [];
  for (const claim of claims) {
    const connector = await app.connectors.forIntegrator(claim.integratorId);
    if (!connector.chargeSavedCards) others.push(claim);
    else if (batches.has(connector)) batches.get(connector)!.push(claim);
    else batches.set(connector, [claim]);
  }
  return { batches, others };
}

/** What POST /schedules/{reference}/run did: the occurrence charged now and how it ended. */
export interface RunNowResult {
  runId: string;
  dueAt: Date;
  outcome: RecordOutcome;
  paymentId: string | null;
  nextRunAt: Date | null;
  timeOffset: string;
}

/**
 * Sandbox only (like a test clock): charges the schedule's next occurrence now, through the
 * scheduler's own path: the occurrence is inserted (unique per schedule and due time) in the
 * transaction that advances next_run_at, then charged with the run's key and recorded once, with
 * the usual events. The acquirer says whether it allows this (`capabilities.runSchedulesNow`).
 */
export async function runScheduleNow(app: PaylinkApp, integrator: { id: string }, reference: string): Promise<RunNowResult> {
  const connector = await app.connectors.forIntegrator(integrator.id);
  if (!connector.capabilities.runSchedulesNow) {
    throw new DomainError('ER.12.32', 'Only the sandbox acquirer can run a schedule now', {
      messages: { reference: [`the ${connector.name} acquirer charges schedules only when they are due`] },
    });
  }
  const now = app.now();
  const lease = leaseEnd(app, now);
  const claim = await app.db.transaction(async (tx) => {
    const [s] = await tx
      .select(scheduleColumns)
      .from(schedules)
      .innerJoin(cardRegistrations, eq(cardRegistrations.reference, schedules.cardRegistrationReference))
      .where(and(eq(schedules.id, reference), eq(schedules.integratorId, integrator.id)))
      .for('update', { of: schedules });
    if (!s) throw notFound('reference', 'Schedule');
    const notRunnable = (detail: string) => new DomainError('ER.12.33', 'Schedule is not active', { messages: { reference: [detail] } });
    if (s.status !== 'active') throw notRunnable(`the schedule is ${s.status}; only an active schedule can run`);
    if (!s.nextRunAt) throw notRunnable('its recurrence has no occurrence left to charge');
    if (s.cardStatus !== 'active') throw notRunnable('its card registration is no longer active; register the card again and create a new schedule');
    if (!s.cardToken) throw notRunnable('its card registration keeps no card (the customer pays each occurrence by a link); it runs only when due');
    const rec = { cronPattern: s.cronPattern, offsetMinutes: parseTimeOffset(s.timeOffset) ?? 0 };
    const c = toClaim(s, s.cardToken, { runId: newId('run'), attempt: 1, dueAt: s.nextRunAt });
    const inserted = await tx
      .insert(scheduleRuns)
      .values({
        id: c.runId,
        scheduleId: c.scheduleId,
        dueAt: c.dueAt,
        status: 'pending',
        attempts: 1,
        nextAttemptAt: lease,
        lockedUntil: lease,
        createdAt: now,
      })
      .onConflictDoNothing({ target: [scheduleRuns.scheduleId, scheduleRuns.dueAt] })
      .returning({ id: scheduleRuns.id });
    if (inserted.length === 0) throw notRunnable('its next occurrence is already being charged; try again shortly');
    const next = nextOccurrence(rec, c.dueAt);
    await tx.update(schedules).set({ nextRunAt: next }).where(eq(schedules.id, c.scheduleId));
    return { claim: c, next };
  });
  const outcome = await recordClaimOutcome(app, claim.claim, await chargeClaim(app, claim.claim));
  const [run] = await app.db.select({ paymentId: scheduleRuns.paymentId }).from(scheduleRuns).where(eq(scheduleRuns.id, claim.claim.runId));
  return {
    runId: claim.claim.runId,
    dueAt: claim.claim.dueAt,
    outcome,
    paymentId: run!.paymentId,
    nextRunAt: claim.next,
    timeOffset: claim.claim.timeOffset,
  };
}
