import { and, eq, gte, sql } from 'drizzle-orm';
import { payments, refunds } from '../../db/schema.ts';
import type { PaymentMethod } from '../../schemas/payment-method.ts';
import type { DomainContext } from '../context.ts';

/**
 * The console's Home figures: succeeded payments and refunds of the last 30 days (today
 * included, UTC days), per currency and per day, and the payments split by how they were paid.
 * Two aggregate queries, each a range over the (integrator_id, created_at) index of its table;
 * amounts stay bigint minor units.
 */
export const SUMMARY_DAYS = 30;

export interface DayFigures {
  /** YYYY-MM-DD (UTC). */
  day: string;
  paidMinor: bigint;
  paidCount: number;
  refundedMinor: bigint;
  refundCount: number;
}

/** One payment method's succeeded payments over the window, in one currency. */
export interface MethodFigures {
  method: PaymentMethod;
  paidMinor: bigint;
  paidCount: number;
}

export interface CurrencySummary {
  currency: string;
  today: DayFigures;
  total: Omit<DayFigures, 'day'>;
  /** The window's payments by method, largest amount first (ties: more payments, then the method's id). */
  methods: MethodFigures[];
  /** Every day of the window, oldest first, zeros included. */
  days: DayFigures[];
}

export interface PaymentSummary {
  from: string;
  to: string;
  currencies: CurrencySummary[];
}

const dayOf = (d: Date) => d.toISOString().slice(0, 10);

export async function paymentSummary(app: DomainContext, integratorId: string): Promise<PaymentSummary> {
  const now = app.now();
  const today = new Date(`${dayOf(now)}T00:00:00Z`);
  const start = new Date(today.getTime() - (SUMMARY_DAYS - 1) * 86_400_000);
  const days = Array.from({ length: SUMMARY_DAYS }, (_, i) => dayOf(new Date(start.getTime() + i * 86_400_000)));
  const bucket = (column: typeof payments.createdAt | typeof refunds.createdAt) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;

  const paid = await app.db
    .select({
      day: bucket(payments.createdAt),
      currency: payments.currency,
      method: payments.paymentMethod,
      minor: sql<string>`sum(${payments.amountMinor})::text`,
      n: sql<number>`count(*)::int`,
    })
    .from(payments)
    .where(and(eq(payments.integratorId, integratorId), gte(payments.createdAt, start), eq(payments.status, 'succeeded')))
    .groupBy(sql`1`, payments.currency, payments.paymentMethod);
  const refunded = await app.db
    .select({
      day: bucket(refunds.createdAt),
      currency: refunds.currency,
      minor: sql<string>`sum(${refunds.amountMinor})::text`,
      n: sql<number>`count(*)::int`,
    })
    .from(refunds)
    .where(and(eq(refunds.integratorId, integratorId), gte(refunds.createdAt, start), eq(refunds.status, 'succeeded')))
    .groupBy(sql`1`, refunds.currency);

  const byCurrency = new Map<string, Map<string, DayFigures>>();
  const cell = (currency: string, day: string) => {
    let perDay = byCurrency.get(currency);
    if (!perDay) {
      perDay = new Map(days.map((d) => [d, { day: d, paidMinor: 0n, paidCount: 0, refundedMinor: 0n, refundCount: 0 }]));
      byCurrency.set(currency, perDay);
    }
    return perDay.get(day);
  };
  const byMethod = new Map<string, Map<PaymentMethod, MethodFigures>>();
  for (const row of paid) {
    const c = cell(row.currency, row.day);
    if (!c) continue;
    // A day's row per method: the day's figures are their sum.
    c.paidMinor += BigInt(row.minor);
    c.paidCount += Number(row.n);
    let methods = byMethod.get(row.currency);
    if (!methods) byMethod.set(row.currency, (methods = new Map()));
    const m = methods.get(row.method) ?? { method: row.method, paidMinor: 0n, paidCount: 0 };
    m.paidMinor += BigInt(row.minor);
    m.paidCount += Number(row.n);
    methods.set(row.method, m);
  }
  for (const row of refunded) {
    const c = cell(row.currency, row.day);
    if (c) Object.assign(c, { refundedMinor: BigInt(row.minor), refundCount: Number(row.n) });
  }
  const currencies = [...byCurrency]
    .map(([currency, perDay]): CurrencySummary => {
      const list = days.map((d) => perDay.get(d)!);
      const total = list.reduce(
        (t, d) => ({
          paidMinor: t.paidMinor + d.paidMinor,
          paidCount: t.paidCount + d.paidCount,
          refundedMinor: t.refundedMinor + d.refundedMinor,
          refundCount: t.refundCount + d.refundCount,
        }),
        { paidMinor: 0n, paidCount: 0, refundedMinor: 0n, refundCount: 0 },
      );
      const methods = [...(byMethod.get(currency)?.values() ?? [])].sort(
        (a, b) => (b.paidMinor > a.paidMinor ? 1 : b.paidMinor < a.paidMinor ? -1 : 0) || b.paidCount - a.paidCount || a.method.localeCompare(b.method),
      );
      return { currency, today: list.at(-1)!, total, methods, days: list };
    })
    .sort((a, b) => b.total.paidCount - a.total.paidCount || a.currency.localeCompare(b.currency));
  return { from: days[0]!, to: days.at(-1)!, currencies };
}
