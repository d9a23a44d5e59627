import { formatDecimal } from '../../domain/money.ts';
import { formatInOffset, parseTimeOffset } from '../../domain/schedules/recurrence.ts';
import type { ScheduleCancellation, ScheduleRecord } from '../../domain/schedules/service.ts';
import type { ScheduleCancelled, ScheduleView } from '../../schemas/schedule.ts';
import type { StatusCode } from '../../status-codes.ts';

/** DELETE /schedule with a schedule reference: OK.12.20, or OK.12.21 when it was cancelled before. */
export function presentCancellation(c: ScheduleCancellation): { code: StatusCode; data: ScheduleCancelled } {
  return { code: c.cancelledNow ? 'OK.12.20' : 'OK.12.21', data: { reference: c.reference, timestamp: c.at.toISOString() } };
}

/** GET /schedules/{reference}: state, the recurrence as given, the next run and the runs, in the schedule's own UTC offset. */
export function scheduleView({ schedule: row, runs }: ScheduleRecord): ScheduleView {
  const offset = parseTimeOffset(row.timeOffset) ?? 0;
  const at = (d: Date | null) => (d ? formatInOffset(d, offset) : null);
  return {
    reference: row.id,
    status: row.status,
    card_registration_reference: row.cardRegistrationReference,
    recurrence: row.recurrence,
    time_offset: row.timeOffset,
    amount: formatDecimal(row.amountMinor, row.currency),
    currency: row.currency,
    description: row.description,
    merchant_reference_id: row.merchantReferenceId,
    other_references: row.otherReferences,
    notify_user: row.notifyUser,
    next_run_at: row.status === 'active' ? at(row.nextRunAt) : null,
    consecutive_failures: row.consecutiveFailures,
    created_at: at(row.createdAt),
    cancelled_at: at(row.cancelledAt),
    suspended_at: at(row.suspendedAt),
    runs: runs.map(({ run, payment }) => ({
      id: run.id,
      due_at: at(run.dueAt),
      status: run.status,
      attempts: run.attempts,
      next_attempt_at: run.status === 'retrying' ? at(run.nextAttemptAt) : null,
      transaction_id: payment?.id ?? null,
      transaction_status: payment?.status ?? null,
      refunded_amount: payment ? formatDecimal(payment.refundedMinor, row.currency) : null,
      failure_code: run.lastFailureCode,
      failure_message: run.lastFailureMessage,
      completed_at: at(run.completedAt),
    })),
  };
}
