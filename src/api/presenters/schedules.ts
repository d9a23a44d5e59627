import { formatDecimal } from '../../domain/money.ts';
import type { Page } from '../../domain/pagination.ts';
import { formatInOffset, parseTimeOffset } from '../../domain/schedules/recurrence.ts';
import type { ScheduleResumption } from '../../domain/schedules/resume.ts';
import type { RunNowResult } from '../../domain/schedules/run-now.ts';
import type { ScheduleCancellation, ScheduleListRecord, ScheduleRecord } from '../../domain/schedules/service.ts';
import type { PageView } from '../../schemas/pagination.ts';
import type { ScheduleCancelled, ScheduleListItem, ScheduleResumedView, ScheduleRunNowView, ScheduleView } from '../../schemas/schedule.ts';
import type { StatusCode } from '../../status-codes.ts';
import { customerView } from './customers.ts';
import { pageView } from './pagination.ts';

/** DELETE /schedule with a schedule reference: OK.12.20, or OK.12.21 when it was cancelled before. */
export function presentCancellation(c: ScheduleCancellation): { code: StatusCode; data: ScheduleCancelled } {
  return { code: c.cancelledNow ? 'OK.12.20' : 'OK.12.21', data: { reference: c.reference, timestamp: c.at.toISOString() } };
}

/** The schedule's own UTC offset, in which every instant of its views is written. */
const inScheduleOffset = (timeOffset: string) => {
  const offset = parseTimeOffset(timeOffset) ?? 0;
  return (d: Date | null) => (d ? formatInOffset(d, offset) : null);
};

/** A schedule as GET /api/v1/schedules lists it: terms and state, the card's customer, no runs. */
export function scheduleListItemView({ schedule: row, customer, link }: ScheduleListRecord): ScheduleListItem {
  const at = inScheduleOffset(row.timeOffset);
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
    customer: customer ? customerView(customer.name ? { 'customer.name': customer.name } : {}, customer.email) : null,
    link,
    cycles_left: row.cyclesLeft,
    every: row.every,
    trial_ends_at: at(row.trialEndsAt),
    cancel_at: at(row.cancelAt),
    next_run_at: row.status === 'active' ? at(row.nextRunAt) : null,
    consecutive_failures: row.consecutiveFailures,
    created_at: at(row.createdAt),
    cancelled_at: at(row.cancelledAt),
    suspended_at: at(row.suspendedAt),
  };
}

/** GET /schedules/{reference}: the list item's terms and state plus the runs, in the schedule's own UTC offset. */
export function scheduleView(record: ScheduleRecord): ScheduleView {
  const { schedule: row, runs } = record;
  const at = inScheduleOffset(row.timeOffset);
  return {
    ...scheduleListItemView(record),
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

export const schedulePageView = (page: Page<ScheduleListRecord>): PageView<ScheduleListItem> => pageView(page, scheduleListItemView, (r) => r.schedule.id);

/** POST /schedules/{reference}/run: the occurrence charged now, in the schedule's offset. */
export function presentRunNow(reference: string, r: RunNowResult): { code: 'OK.12.10'; data: ScheduleRunNowView } {
  const offset = parseTimeOffset(r.timeOffset) ?? 0;
  return {
    code: 'OK.12.10',
    data: {
      reference,
      run_id: r.runId,
      due_at: formatInOffset(r.dueAt, offset),
      outcome: r.outcome,
      transaction_id: r.paymentId,
      next_run_at: r.nextRunAt ? formatInOffset(r.nextRunAt, offset) : null,
    },
  };
}

/** POST /schedules/{reference}/resume: OK.12.11 with the next occurrence, in the schedule's offset. */
export function presentResumption(r: ScheduleResumption): { code: 'OK.12.11'; data: ScheduleResumedView } {
  return {
    code: 'OK.12.11',
    data: {
      reference: r.reference,
      status: 'active',
      next_run_at: formatInOffset(r.nextRunAt, parseTimeOffset(r.timeOffset) ?? 0),
      timestamp: r.at.toISOString(),
    },
  };
}
