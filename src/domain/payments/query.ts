import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { cardRegistrations, type Integrator, links, type Payment, payments, type Refund, refunds, scheduleRuns } from '../../db/schema.ts';
import type { Question } from '../../schemas/link-sale.ts';
import type { RefundsQuery, TransactionsQuery } from '../../schemas/transaction.ts';
import type { DomainContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { keysetPage, type Page } from '../pagination.ts';

/**
 * Where a payment came from, for its view: the link's slug, title (what was bought) and questions
 * (the labels of a sale's answers), the schedule, the card's expiry.
 */
export interface PaymentOrigin {
  linkSlug: string | null;
  linkTitle: string | null;
  linkQuestions: Question[];
  scheduleReference: string | null;
  cardExpiry: { month: number | null; year: number | null } | null;
}

/** A transaction, its refunds (oldest first) and where it came from. */
export interface TransactionRecord extends PaymentOrigin {
  payment: Payment;
  refunds: Refund[];
}

/** The origins of a set of payments, in three small indexed look-ups (never one per payment). */
async function originsOf(db: DbOrTx, rows: Payment[]): Promise<Map<string, PaymentOrigin>> {
  const linkIds = [...new Set(rows.flatMap((p) => (p.linkId ? [p.linkId] : [])))];
  const runIds = [...new Set(rows.flatMap((p) => (p.scheduleRunId ? [p.scheduleRunId] : [])))];
  const cardRefs = [...new Set(rows.flatMap((p) => (p.cardRegistrationReference ? [p.cardRegistrationReference] : [])))];
  const [slugs, runs, cards] = [
    linkIds.length
      ? await db.select({ id: links.id, slug: links.slug, title: links.title, questions: links.questions }).from(links).where(inArray(links.id, linkIds))
      : [],
    runIds.length
      ? await db.select({ id: scheduleRuns.id, scheduleId: scheduleRuns.scheduleId }).from(scheduleRuns).where(inArray(scheduleRuns.id, runIds))
      : [],
    cardRefs.length
      ? await db
          .select({ reference: cardRegistrations.reference, month: cardRegistrations.expMonth, year: cardRegistrations.expYear })
          .from(cardRegistrations)
          .where(inArray(cardRegistrations.reference, cardRefs))
      : [],
  ];
  const linkById = new Map(slugs.map((r) => [r.id, r]));
  const scheduleByRun = new Map(runs.map((r) => [r.id, r.scheduleId]));
  const expiryByCard = new Map(cards.map((r) => [r.reference, { month: r.month, year: r.year }]));
  return new Map(
    rows.map((p) => [
      p.id,
      {
        linkSlug: p.linkId ? (linkById.get(p.linkId)?.slug ?? null) : null,
        linkTitle: p.linkId ? (linkById.get(p.linkId)?.title ?? null) : null,
        linkQuestions: p.linkId ? (linkById.get(p.linkId)?.questions ?? []) : [],
        scheduleReference: p.scheduleRunId ? (scheduleByRun.get(p.scheduleRunId) ?? null) : null,
        cardExpiry: p.cardRegistrationReference ? (expiryByCard.get(p.cardRegistrationReference) ?? null) : null,
      },
    ]),
  );
}

const noOrigin: PaymentOrigin = { linkSlug: null, linkTitle: null, linkQuestions: [], scheduleReference: null, cardExpiry: null };

/**
 * One of the integrator's transactions with its refunds (GET /transactions/{transaction_id}).
 * Another integrator's transaction is answered exactly like a missing one.
 */
export async function findTransaction(app: DomainContext, integrator: Pick<Integrator, 'id'>, transactionId: string): Promise<TransactionRecord> {
  const [payment] = await app.db
    .select()
    .from(payments)
    .where(and(eq(payments.id, transactionId), eq(payments.integratorId, integrator.id)));
  if (!payment) throw notFound('transaction_id', 'This transaction');
  const rows = await app.db.select().from(refunds).where(eq(refunds.paymentId, payment.id)).orderBy(asc(refunds.createdAt), asc(refunds.id));
  const origin = (await originsOf(app.db, [payment])).get(payment.id) ?? noOrigin;
  return { payment, refunds: rows, ...origin };
}

/** The id of the integrator's link with this slug, or undefined. */
async function linkIdOf(db: DbOrTx, integratorId: string, slug: string | undefined): Promise<string | null | undefined> {
  if (slug === undefined) return undefined;
  const [row] = await db
    .select({ id: links.id })
    .from(links)
    .where(and(eq(links.slug, slug), eq(links.integratorId, integratorId)));
  return row?.id ?? null;
}

/** The API's refund_state as a condition on the payment's row (the same rule as refundStateOf in the presenters). */
function refundStateCondition(state: TransactionsQuery['refund_state']) {
  if (state === 'not_refunded') return eq(payments.refundedMinor, 0n);
  if (state === 'refunded') return and(sql`${payments.refundedMinor} > 0`, sql`${payments.refundedMinor} >= ${payments.amountMinor}`);
  if (state === 'partially_refunded') return and(sql`${payments.refundedMinor} > 0`, sql`${payments.refundedMinor} < ${payments.amountMinor}`);
  return undefined;
}

const emptyPage = <T>(): Page<T> => ({ items: [], hasMore: false, olderExists: false, newerExists: false });

/** The API's filters, and the console's search by transaction id and its card registration's payments. */
export type TransactionFilters = TransactionsQuery & { transaction_id?: string; card_registration_reference?: string };

/** GET /api/v1/transactions and the console's Payments: newest first, filtered; each with its refunds and origin. */
export async function listTransactions(app: DomainContext, integrator: Pick<Integrator, 'id'>, query: TransactionFilters): Promise<Page<TransactionRecord>> {
  const db = app.db;
  const linkId = await linkIdOf(db, integrator.id, query.link);
  // A slug that names none of the integrator's links matches nothing (as an unknown value of any filter).
  if (linkId === null) return emptyPage();
  const page = await keysetPage(
    db,
    { table: payments, id: payments.id, createdAt: payments.createdAt, scope: eq(payments.integratorId, integrator.id) },
    [
      query.status ? eq(payments.status, query.status) : undefined,
      refundStateCondition(query.refund_state),
      query.transaction_id !== undefined ? eq(payments.id, query.transaction_id) : undefined,
      query.card_registration_reference !== undefined ? eq(payments.cardRegistrationReference, query.card_registration_reference) : undefined,
      linkId ? eq(payments.linkId, linkId) : undefined,
      query.merchant_reference_id !== undefined ? eq(payments.merchantReferenceId, query.merchant_reference_id) : undefined,
      query.customer_email !== undefined ? sql`lower(${payments.customerEmail}) = ${query.customer_email.toLowerCase()}` : undefined,
      // Beside the integrator scope, a range of payments_integrator_method_idx.
      query.payment_method !== undefined ? eq(payments.paymentMethod, query.payment_method) : undefined,
    ],
    query,
  );
  const ids = page.items.map((p) => p.id);
  const refundRows = ids.length ? await db.select().from(refunds).where(inArray(refunds.paymentId, ids)).orderBy(asc(refunds.createdAt), asc(refunds.id)) : [];
  const origins = await originsOf(db, page.items);
  return {
    ...page,
    items: page.items.map((payment) => ({
      payment,
      refunds: refundRows.filter((r) => r.paymentId === payment.id),
      ...(origins.get(payment.id) ?? noOrigin),
    })),
  };
}

/** A refund as listed: with the transaction it returns money from and that transaction's origin. */
export interface RefundRecord {
  refund: Refund;
  payment: Payment;
  origin: PaymentOrigin;
}

/** GET /api/v1/refunds: newest first, filtered by state, transaction or the transaction's payment method. */
export async function listRefunds(app: DomainContext, integrator: Pick<Integrator, 'id'>, query: RefundsQuery): Promise<Page<RefundRecord>> {
  const db = app.db;
  const page = await keysetPage(
    db,
    { table: refunds, id: refunds.id, createdAt: refunds.createdAt, scope: eq(refunds.integratorId, integrator.id) },
    [
      query.status ? eq(refunds.status, query.status) : undefined,
      query.transaction_id ? eq(refunds.paymentId, query.transaction_id) : undefined,
      // The refunds of the integrator's payments by that method (payments_integrator_method_idx); a refund keeps no method of its own.
      query.payment_method
        ? inArray(
            refunds.paymentId,
            db
              .select({ id: payments.id })
              .from(payments)
              .where(and(eq(payments.integratorId, integrator.id), eq(payments.paymentMethod, query.payment_method))),
          )
        : undefined,
    ],
    query,
  );
  const paymentIds = [...new Set(page.items.map((r) => r.paymentId))];
  const paymentRows = paymentIds.length ? await db.select().from(payments).where(inArray(payments.id, paymentIds)) : [];
  const byId = new Map(paymentRows.map((p) => [p.id, p]));
  const origins = await originsOf(db, paymentRows);
  return {
    ...page,
    items: page.items.map((refund) => {
      const payment = byId.get(refund.paymentId)!;
      return { refund, payment, origin: origins.get(payment.id) ?? noOrigin };
    }),
  };
}
