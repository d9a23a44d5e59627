import type { CardRegistration, ScheduleRun } from '../../db/schema.ts';
import { formatMoney } from '../../domain/money.ts';
import type { ScheduleListRecord, ScheduleRecord } from '../../domain/schedules/service.ts';
import { cardBrandName } from '../../schemas/card-rules.ts';
import { consoleTime } from './console-payments.ts';

/** The console's words for schedules and card registrations (times in UTC, amounts for their currency). */
export interface ConsoleScheduleRow {
  reference: string;
  status: string;
  customer: string;
  amount: string;
  nextRun: string;
  createdAt: string;
  merchantReference: string | null;
  /** The subscription link it came from (its slug); null for a schedule an integrator signed. */
  link: string | null;
  /** A subscription's end in words: cycles left, or the end its customer asked for. */
  ending: string | null;
  /** A subscription still in its free trial: "Free trial until …, no payment yet"; null otherwise. */
  trial: string | null;
}

export function consoleScheduleRow({ schedule: s, customer, link }: ScheduleListRecord): ConsoleScheduleRow {
  return {
    reference: s.id,
    status: s.status,
    customer: [customer?.name, customer?.email].filter(Boolean).join(' · ') || '—',
    amount: formatMoney(s.amountMinor, s.currency),
    nextRun: s.status === 'active' ? consoleTime(s.nextRunAt) : '—',
    createdAt: consoleTime(s.createdAt),
    merchantReference: s.merchantReferenceId,
    link,
    ending: s.cancelAt
      ? `Cancelled by the customer: ends ${consoleTime(s.cancelAt)}`
      : s.cyclesLeft === null
        ? null
        : s.cyclesLeft === 0
          ? 'Completed: every payment made'
          : `${s.cyclesLeft} payment${s.cyclesLeft === 1 ? '' : 's'} left`,
    // Until the first charge is claimed the next run is the trial's end; after it, the next period.
    trial:
      s.status === 'active' && s.trialEndsAt && s.nextRunAt?.getTime() === s.trialEndsAt.getTime()
        ? `Free trial until ${consoleTime(s.trialEndsAt)}: no payment yet`
        : null,
  };
}

export interface ConsoleRunRow {
  id: string;
  dueAt: string;
  due: Date;
  /** The run's state as stored (the badge's colour). */
  status: string;
  /** The run's state in words. */
  statusLabel: string;
  attempts: number;
  transactionId: string | null;
  failure: string | null;
}

const runStatusWords: Record<ScheduleRun['status'], string> = {
  pending: 'Due',
  retrying: 'Will retry',
  awaiting_customer: 'Waiting for the customer',
  succeeded: 'Paid',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** A failure code in plain words: `card_declined` → "Card declined". */
const failureWords = (code: string) => {
  const words = code.replaceAll('_', ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export const consoleRunRows = (record: ScheduleRecord): ConsoleRunRow[] =>
  record.runs.map(({ run, payment }) => ({
    id: run.id,
    dueAt: consoleTime(run.dueAt),
    due: run.dueAt,
    status: run.status,
    statusLabel: runStatusWords[run.status],
    attempts: run.attempts,
    transactionId: payment?.id ?? null,
    failure: run.lastFailureCode ? failureWords(run.lastFailureCode) : null,
  }));

/**
 * Charges that failed in a row, newest first, as the runs show them: an occurrence that failed for
 * good, or one whose last attempt failed and that waits for its retry, counts; a paid one ends the
 * streak; one not yet tried is skipped. (The schedule's own counter counts only occurrences that
 * failed for good: it decides suspension, and a declined charge waiting for a retry is not in it.)
 */
export function failedInARow(runs: ScheduleRecord['runs']): { count: number; retrying: number } {
  let count = 0;
  let retrying = 0;
  for (const { run } of runs) {
    if (run.status === 'succeeded') break;
    const failed = run.status === 'failed' || (run.status === 'cancelled' && run.lastFailureCode !== null);
    const waitingRetry = run.status === 'retrying' && run.lastFailureCode !== null;
    if (failed || waitingRetry) count++;
    if (waitingRetry) retrying++;
  }
  return { count, retrying };
}

export interface ConsoleCardRow {
  reference: string;
  status: string;
  customer: string;
  card: string;
  createdAt: string;
}

export function consoleCardRow(r: CardRegistration): ConsoleCardRow {
  const card = r.brand || r.last4 ? `${r.brand ? cardBrandName(r.brand) : ''} ···· ${r.last4 ?? ''}`.trim() : '—';
  const expiry = r.expMonth && r.expYear ? ` (expires ${String(r.expMonth).padStart(2, '0')}/${r.expYear})` : '';
  return {
    reference: r.reference,
    status: r.status,
    customer: [r.customerName ?? r.holderName, r.customerEmail].filter(Boolean).join(' · ') || '—',
    // A pay-by-link registration keeps no card: its schedules e-mail a payment link each cycle.
    card: r.collection === 'pay_link' ? 'Pay by link (e-mailed each cycle)' : card === '—' ? card : `${card}${expiry}`,
    createdAt: consoleTime(r.createdAt),
  };
}
