import { and, count, eq, isNotNull, lte, min, sql, sum } from 'drizzle-orm';
import { outboxEvents, payments, refunds, schedules } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';

/**
 * What an operator watches, read from the database at the moment of asking, so every process
 * reports the same figures whichever one is scraped (the database is the one shared state).
 * Each figure is one aggregate over an indexed or small set, except the payment and refund
 * totals, which read every row once (docs/operator-metrics.md says what a scrape costs).
 */
export interface OperationalFigures {
  payments: Array<{ status: string; method: string; currency: string; count: number; amountMinor: number }>;
  refunds: Array<{ status: string; method: string; currency: string; count: number; amountMinor: number }>;
  callbacks: { pending: number; failed: number; oldestPendingSeconds: number };
  emails: { pending: number; failed: number; oldestPendingSeconds: number };
  schedules: { due: number; latestSeconds: number };
}

const ageSeconds = (now: Date, oldest: Date | null | undefined) => (oldest ? Math.max(0, (now.getTime() - oldest.getTime()) / 1000) : 0);

export async function operationalFigures(app: Pick<DomainContext, 'db' | 'now'>): Promise<OperationalFigures> {
  const now = app.now();
  const [paymentRows, refundRows, callbackRows, emailRows, dueRows] = await Promise.all([
    app.db
      .select({ status: payments.status, method: payments.paymentMethod, currency: payments.currency, count: count(), amount: sum(payments.amountMinor) })
      .from(payments)
      .groupBy(payments.status, payments.paymentMethod, payments.currency),
    app.db
      .select({ status: refunds.status, method: payments.paymentMethod, currency: refunds.currency, count: count(), amount: sum(refunds.amountMinor) })
      .from(refunds)
      .innerJoin(payments, eq(payments.id, refunds.paymentId))
      .groupBy(refunds.status, payments.paymentMethod, refunds.currency),
    app.db
      .select({ state: outboxEvents.callbackState, count: count(), oldest: min(outboxEvents.createdAt) })
      .from(outboxEvents)
      .where(sql`${outboxEvents.callbackState} in ('pending', 'failed')`)
      .groupBy(outboxEvents.callbackState),
    app.db
      .select({ state: outboxEvents.emailState, count: count(), oldest: min(outboxEvents.createdAt) })
      .from(outboxEvents)
      .where(sql`${outboxEvents.emailState} in ('pending', 'failed')`)
      .groupBy(outboxEvents.emailState),
    app.db
      .select({ count: count(), earliest: min(schedules.nextRunAt) })
      .from(schedules)
      .where(and(eq(schedules.status, 'active'), isNotNull(schedules.nextRunAt), lte(schedules.nextRunAt, now))),
  ]);
  const state = (rows: ReadonlyArray<{ state: string; count: number; oldest: Date | null }>, name: string) => rows.find((r) => r.state === name);
  return {
    payments: paymentRows.map((r) => ({ status: r.status, method: r.method, currency: r.currency, count: r.count, amountMinor: Number(r.amount ?? 0) })),
    refunds: refundRows.map((r) => ({ status: r.status, method: r.method, currency: r.currency, count: r.count, amountMinor: Number(r.amount ?? 0) })),
    callbacks: {
      pending: state(callbackRows, 'pending')?.count ?? 0,
      failed: state(callbackRows, 'failed')?.count ?? 0,
      oldestPendingSeconds: ageSeconds(now, state(callbackRows, 'pending')?.oldest),
    },
    emails: {
      pending: state(emailRows, 'pending')?.count ?? 0,
      failed: state(emailRows, 'failed')?.count ?? 0,
      oldestPendingSeconds: ageSeconds(now, state(emailRows, 'pending')?.oldest),
    },
    schedules: { due: dueRows[0]?.count ?? 0, latestSeconds: ageSeconds(now, dueRows[0]?.earliest) },
  };
}
