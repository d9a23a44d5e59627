import { and, desc, eq, gt, sql } from 'drizzle-orm';
import { refundAllowed } from '../../acquirer/connector.ts';
import { newId } from '../../crypto.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Integrator, Payment, Refund } from '../../db/schema.ts';
import { payments, refunds } from '../../db/schema.ts';
import { insertSelect, prepareStatement, rowsOf, setClause } from '../../db/statements.ts';
import { type Actor, recordAudit } from '../accounts/audit.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, notFound, theRow } from '../errors.ts';
import { refundCapabilityFor } from '../integrators/service.ts';
import { formatDecimal } from '../money.ts';
import { assertStaffCap, isCappedActor, lockStaffMember } from './caps.ts';
import { recoverPendingRefunds } from './recovery.ts';
import { assertConfirmedAmount, checkRefund, parseRefundAmount, type RefundType, refundableMinor } from './rules.ts';
import type { RefundRequest } from './service.ts';

/**
 * tx1 of a refund (the steps: src/domain/refunds/service.ts). Everything before the acquirer call: 404/422 checks, recovery of this payment's stale pending
 * refunds, then tx1. Returns the new pending refund, or the one an earlier request with the same
 * Idempotency-Key started (pending or settled).
 */
export async function beginRefund(
  app: DomainContext,
  integrator: Integrator,
  request: RefundRequest,
): Promise<{ refund: Refund; payment: Payment; reserved?: Payment }> {
  const [payment, earlierByKey] = await Promise.all([
    findOwnPayment(app, integrator.id, request.transactionId),
    request.idempotencyKey ? findByIdempotencyKey(app.db, app, request.transactionId, request.idempotencyKey, app.now()) : undefined,
  ]);
  const type: RefundType = request.amount === undefined ? 'full' : 'partial';
  const amountMinor = request.amount === undefined ? undefined : parseRefundAmount(request.amount, payment.currency);
  // The key is looked up on this payment's refunds (the id asked for), so a hit is always this payment's.
  if (earlierByKey) return { refund: sameRequest(earlierByKey, type, amountMinor), payment };
  await assertAcquirerCanRefund(app, integrator.id, payment, amountMinor);

  // A pending refund always holds a reservation, so most requests skip this query.
  if (payment.refundReservedMinor > 0n) await recoverPendingRefunds(app, { paymentId: payment.id });

  const now = app.now();
  const reservationFor = refundReservation(app, integrator, {
    paymentId: payment.id,
    currency: payment.currency,
    type,
    amountMinor,
    reason: request.reason,
    notifyUser: request.notifyUser,
    idempotencyKey: request.idempotencyKey ?? null,
    requestedByUserId: request.actor?.userId ?? null,
    confirmedAmountMinor: request.confirmedAmountMinor,
    now,
  });

  // Usually one statement: the rules on the payment as read, then a compare-and-set on its version.
  // A console refund takes the transaction below, which writes its audit entry with it.
  if (payment.refundReservedMinor === 0n && !request.actor) {
    const done = await reserveIfUnchanged(app, payment, reservationFor);
    if (done) return { ...done, payment };
  }

  // Another refund got there first (or one is in flight): the same steps under the row lock.
  return reserveUnderLock(app, payment, reservationFor, {
    idempotencyKey: request.idempotencyKey,
    actor: request.actor,
    sameAs: (earlier) => sameRequest(earlier, type, amountMinor),
    now,
  });
}

/**
 * What tx1 writes for a refund, computed on the payment as the step sees it (read, or locked):
 * the refund rules (checkRefund) decide the amount, and the reservation follows from it.
 */
export function refundReservation(
  app: DomainContext,
  integrator: Integrator,
  draft: Pick<Refund, 'paymentId' | 'currency' | 'type' | 'reason' | 'notifyUser' | 'idempotencyKey'> &
    Partial<Pick<Refund, 'requestedByUserId'>> & { amountMinor: bigint | undefined; confirmedAmountMinor?: bigint; now: Date },
): (payment: Payment) => Reservation {
  const { amountMinor, confirmedAmountMinor, now, requestedByUserId, ...refund } = draft;
  return (payment) => {
    const values: PendingRefundValues = {
      id: newId('rfd'),
      ...refund,
      requestedByUserId: requestedByUserId ?? null,
      integratorId: integrator.id,
      status: 'pending',
      amountMinor: checkRefund(payment, { type: refund.type, amountMinor }, refundRuleContext(app, integrator, payment, now)),
      createdAt: now,
    };
    assertConfirmedAmount(values.amountMinor, confirmedAmountMinor, payment.currency);
    return { values, reserved: reservedOn(payment, values.amountMinor) };
  };
}

/** What checkRefund is given besides the payment: the account's capability for its card brand and the configured limits. */
export const refundRuleContext = (app: DomainContext, integrator: Integrator, payment: Payment, now: Date) => ({
  capability: refundCapabilityFor(integrator, payment.cardBrand),
  limits: { maxCount: app.config.refundMaxCount, windowDays: app.config.refundWindowDays },
  now,
});

/** What tx1 writes: the pending refund's row, and the payment as it is once the refund is reserved on it. */
export interface Reservation {
  values: PendingRefundValues;
  reserved: Payment;
}

type PendingRefundValues = Omit<Refund, 'acquirerReference' | 'failureCode' | 'failureMessage' | 'succeededAt' | 'failedAt'>;

/** The payment once `refundMinor` more is reserved on it: the one definition both forms of tx1 write. */
const reservedOn = (p: Payment, refundMinor: bigint): Payment => ({
  ...p,
  refundReservedMinor: p.refundReservedMinor + refundMinor,
  refundCount: p.refundCount + 1,
  refundVersion: p.refundVersion + 1,
});

/**
 * tx1 as one statement: the reservation computed on the payment as read, written if its
 * refund_version is still the one read. Undefined when another refund changed it meanwhile.
 */
export async function reserveIfUnchanged(
  app: DomainContext,
  payment: Payment,
  reservationFor: (p: Payment) => Reservation,
): Promise<{ refund: Refund; reserved: Payment } | undefined> {
  const { values, reserved } = reservationFor(payment);
  const inserted = rowsOf<{ id: string }>(
    await reserveStatement.execute(app.db, {
      ...values,
      reserved: reserved.refundReservedMinor,
      count: reserved.refundCount,
      version: reserved.refundVersion,
      expectedVersion: payment.refundVersion,
    }),
  );
  return inserted.length === 1 ? { refund: pendingRefund(values), reserved } : undefined;
}

/**
 * tx1 under the payment's row lock: the reservation computed on the payment as locked (the
 * latest balance), the refund inserted and the payment updated, with the console's audit entry.
 * A refund an earlier request with the same Idempotency-Key started is returned instead.
 */
export function reserveUnderLock(
  app: DomainContext,
  payment: Payment,
  reservationFor: (p: Payment) => Reservation,
  opts: { idempotencyKey?: string; actor?: Actor; sameAs?: (earlier: Refund) => Refund; now: Date },
): Promise<{ refund: Refund; payment: Payment; reserved?: Payment }> {
  const { now } = opts;
  return app.db.transaction(async (tx) => {
    // A staff member's row first (their cap's lock), then the payment's: always in this order.
    if (isCappedActor(opts.actor)) await lockStaffMember(tx, opts.actor);
    const locked = theRow(await tx.select().from(payments).where(eq(payments.id, payment.id)).for('update'), 'the payment being refunded');
    const earlier = opts.idempotencyKey ? await findByIdempotencyKey(tx, app, payment.id, opts.idempotencyKey, now) : undefined;
    if (earlier) return { refund: opts.sameAs ? opts.sameAs(earlier) : earlier, payment };
    const { values, reserved } = reservationFor(locked);
    await assertStaffCap(tx, opts.actor, { integratorId: values.integratorId, currency: values.currency, amountMinor: values.amountMinor, now });
    const refund = await tx.insert(refunds).values(values).returning();
    await tx
      .update(payments)
      .set({ refundReservedMinor: reserved.refundReservedMinor, refundCount: reserved.refundCount, refundVersion: reserved.refundVersion })
      .where(eq(payments.id, payment.id));
    const started = theRow(refund, 'the new refund');
    if (opts.actor) {
      const amount = `${formatDecimal(started.amountMinor, payment.currency)} ${payment.currency}`;
      await recordAudit(tx, opts.actor, 'refund.requested', `${started.id} of ${payment.id} (${started.type}, ${amount})`, now);
    }
    return { refund: started, payment, reserved };
  });
}

/**
 * tx1 as one statement: reserve on the payment if its refund_version is still the one the rules
 * ran on, and insert the pending refund with it. Built once (src/db/statements.ts).
 */
const reserveStatement = prepareStatement(
  (p) => sql`with p as (
    update ${payments} set ${setClause(payments, { refundReservedMinor: p('reserved'), refundCount: p('count'), refundVersion: p('version') })}
    where id = ${p('paymentId')} and refund_version = ${p('expectedVersion')} returning id)
    ${insertSelect(
      refunds,
      {
        id: p('id'),
        paymentId: p('paymentId'),
        integratorId: p('integratorId'),
        type: p('type'),
        status: p('status'),
        amountMinor: p('amountMinor'),
        currency: p('currency'),
        reason: p('reason'),
        notifyUser: p('notifyUser'),
        idempotencyKey: p('idempotencyKey'),
        requestedByUserId: p('requestedByUserId'),
        createdAt: p('createdAt'),
      },
      sql`p`,
    )} returning id`,
);

/** The refund an Idempotency-Key started, if this request is the same one; a different one is 422. */
function sameRequest(earlier: Refund, type: RefundType, amountMinor: bigint | undefined): Refund {
  if (earlier.type !== type || (amountMinor !== undefined && earlier.amountMinor !== amountMinor)) {
    throw new DomainError('ER.02.40', 'Idempotency key reused with a different request', {
      messages: { 'idempotency-key': ['was already used for a different refund of this transaction; use a new key for a new refund'] },
    });
  }
  return earlier;
}

/** The row a pending refund's insert wrote (the columns it leaves empty are null). */
const pendingRefund = (values: Omit<Refund, 'acquirerReference' | 'failureCode' | 'failureMessage' | 'succeededAt' | 'failedAt'>): Refund => ({
  ...values,
  acquirerReference: null,
  failureCode: null,
  failureMessage: null,
  succeededAt: null,
  failedAt: null,
});

/**
 * What the integrator's acquirer cannot refund for the payment's method, refused before anything
 * is reserved: ER.20.28 when the method cannot be refunded at all (QR Ph, UnionBank online banking), ER.20.27 when its window
 * has passed or it refunds only whole payments (the code integrators already handle for cards).
 * The refusal names the method and the reason, in words and as data; undefined when the acquirer
 * can make the refund (`amountMinor` absent: everything still refundable). The console asks it
 * before offering the refund form.
 */
export async function acquirerRefundRefusal(
  app: DomainContext,
  integratorId: string,
  payment: Pick<Payment, 'paidAt' | 'amountMinor' | 'refundedMinor' | 'refundReservedMinor' | 'paymentMethod' | 'paymentBank'>,
  amountMinor?: bigint,
): Promise<DomainError | undefined> {
  if (!payment.paidAt) return undefined;
  const connector = await app.connectors.forIntegrator(integratorId);
  const amount = amountMinor ?? refundableMinor(payment);
  const allowed = refundAllowed(
    connector.capabilities,
    {
      amountMinor: amount,
      paymentAmountMinor: payment.amountMinor,
      paidAt: payment.paidAt,
      method: payment.paymentMethod,
      ...(payment.paymentBank ? { bank: payment.paymentBank } : {}),
    },
    app.now(),
  );
  if (allowed.ok) return undefined;
  const data = { payment_method: payment.paymentMethod, ...(payment.paymentBank ? { bank: payment.paymentBank } : {}), refusal_reason: allowed.reason };
  const messages = { transaction_id: [allowed.message] };
  return allowed.reason === 'method'
    ? new DomainError('ER.20.28', 'Payment method cannot be refunded', { messages, data })
    : new DomainError('ER.20.27', "Refund not possible with the integrator's acquirer", { messages, data });
}

export async function assertAcquirerCanRefund(app: DomainContext, integratorId: string, payment: Payment, amountMinor: bigint | undefined): Promise<void> {
  const refusal = await acquirerRefundRefusal(app, integratorId, payment, amountMinor);
  if (refusal) throw refusal;
}

// Every refund reads its payment first: prepared once per database (named on PostgreSQL, so the
// server parses and plans it once per connection), it is not built again on each request.
const ownPayment = new WeakMap<object, ReturnType<typeof prepareOwnPayment>>();
const prepareOwnPayment = (db: Db) =>
  db
    .select()
    .from(payments)
    .where(and(eq(payments.id, sql.placeholder('id')), eq(payments.integratorId, sql.placeholder('integratorId'))))
    .prepare('paylink_refund_payment');

export async function findOwnPayment(app: DomainContext, integratorId: string, transactionId: string): Promise<Payment> {
  let statement = ownPayment.get(app.db);
  if (!statement) ownPayment.set(app.db, (statement = prepareOwnPayment(app.db)));
  const [payment] = await statement.execute({ id: transactionId, integratorId });
  // Another integrator's transaction is answered exactly like a missing one.
  if (!payment) throw notFound('transaction_id', 'This transaction');
  return payment;
}

/** The refund an earlier request with this Idempotency-Key started, while the key is still valid. */
async function findByIdempotencyKey(tx: DbOrTx, app: DomainContext, paymentId: string, key: string, now: Date): Promise<Refund | undefined> {
  const since = new Date(now.getTime() - app.config.idempotencyTtlSeconds * 1000);
  const [refund] = await tx
    .select()
    .from(refunds)
    .where(and(eq(refunds.paymentId, paymentId), eq(refunds.idempotencyKey, key), gt(refunds.createdAt, since)))
    .orderBy(desc(refunds.createdAt))
    .limit(1);
  return refund;
}
