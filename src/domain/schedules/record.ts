import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ChargeResult } from '../../acquirer/acquirer.ts';
import type { Tx } from '../../db/client.ts';
import { scheduleRuns, schedules } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { recordEvent } from '../notifications/domain-events.ts';
import { type Payment, recordCharges } from '../payments/record.ts';
import { type ClaimedCharge, chargeKey } from './claim.ts';
import { parseTimeOffset } from './recurrence.ts';
import { lockPendingRuns } from './run-locks.ts';

export type RecordOutcome = 'succeeded' | 'retrying' | 'failed' | 'suspended' | 'already_recorded';

/** Step 3 (tx2): records the payment and closes (or reschedules) the run, once. */
export async function recordClaimOutcome(app: DomainContext, claim: ClaimedCharge, result: ChargeResult): Promise<RecordOutcome> {
  const [outcome] = await recordClaimOutcomes(app, [{ claim, result }]);
  return outcome!;
}

/**
 * Step 3 for a batch, in one transaction: the runs are locked and each is checked to still be
 * pending at its attempt (a second recorder records nothing); the payments and their events are
 * written with one insert each, the runs closed or rescheduled with one update. Failed occurrences
 * count towards suspending their schedule.
 */
export async function recordClaimOutcomes(app: DomainContext, items: Array<{ claim: ClaimedCharge; result: ChargeResult }>): Promise<RecordOutcome[]> {
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
  app: DomainContext,
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
