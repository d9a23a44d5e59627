import { and, asc, desc, eq, gt, lt, sql } from 'drizzle-orm';
import type { RefundResult } from '../../acquirer/acquirer.ts';
import { type RefundState, refundAllowed } from '../../acquirer/connector.ts';
import type { PaylinkApp } from '../../app.ts';
import { newId } from '../../crypto.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Integrator, Payment, Refund } from '../../db/schema.ts';
import { outboxEvents, payments, refunds } from '../../db/schema.ts';
import { insertSelect, prefixed, prepareStatement, rowsOf, setClause } from '../../db/statements.ts';
import { type Actor, recordAudit } from '../accounts/audit.ts';
import { DomainError, notFound, theRow } from '../errors.ts';
import { refundCapabilityFor } from '../integrators/service.ts';
import { formatDecimal } from '../money.ts';
import { presentedEvent, recordEvent } from '../notifications/domain-events.ts';
import { outboxRow } from '../notifications/outbox.ts';
import { checkRefund, parseRefundAmount, type RefundType, refundableMinor } from './rules.ts';

/**
 * A refund is three steps, so money is never lost or moved twice:
 *   tx1  lock the payment row, apply the rules, insert a `pending` refund and reserve its amount
 *        on the payment (refund_reserved_minor), so a concurrent refund sees the smaller balance;
 *   the acquirer call, outside any transaction, with an idempotency key derived from the refund id;
 *   tx2  mark the refund succeeded (move the amount from reserved to refunded) or failed (release
 *        it, keeping the acquirer's code and message), and write the outbox event, in one transaction.
 * tx1 and tx2 are each one statement in the usual case: a compare-and-set on the payment's
 * refund_version (bumped by every change to its refund columns) written together with the refund
 * row (tx1) or the refund's outcome and its event (tx2). The rules run on the payment as read; if
 * another refund changed it meanwhile, the compare-and-set matches nothing and the step runs
 * again as a transaction holding the payment row lock, where the rules see the latest balance.
 * A refund left `pending` by a crash between tx1 and tx2 is finished by `recoverPendingRefunds`
 * (the worker, and any later refund request on the same payment): it repeats the acquirer call
 * with the same key, which returns the first result, then runs tx2. tx2 only acts on a refund
 * that is still pending, so finishing one twice changes nothing.
 */

export interface RefundRequest {
  transactionId: string;
  notifyUser: boolean;
  reason: string;
  /** Absent: FULL. Present: PARTIAL, in the payment's currency. */
  amount?: string | number;
  /** The client's Idempotency-Key, if any: a retry after an interruption resumes the same refund. */
  idempotencyKey?: string;
  /** A console user asking: the refund is written to the audit log in the transaction that starts it. */
  actor?: Actor;
}

/** A refund as it stands after the request, with its payment's balances (src/api/presenters/refunds.ts words it). */
export interface RefundOutcome {
  refund: Refund;
  payment: Payment;
}

/** The acquirer's idempotency key for a refund: one refund id, one movement of money. */
export const acquirerRefundKey = (refundId: string) => `paylink-refund:${refundId}`;

export async function refundPayment(app: PaylinkApp, integrator: Integrator, request: RefundRequest): Promise<RefundOutcome> {
  const { refund, payment, reserved } = await beginRefund(app, integrator, request);
  if (refund.status !== 'pending') return current(app, refund.id);
  return completeRefund(app, refund, payment, reserved && { payment: reserved, defaultCallbackUrl: integrator.defaultCallbackUrl });
}

/**
 * Everything before the acquirer call: 404/422 checks, recovery of this payment's stale pending
 * refunds, then tx1. Returns the new pending refund, or the one an earlier request with the same
 * Idempotency-Key started (pending or settled).
 */
export async function beginRefund(
  app: PaylinkApp,
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
  const newRefund = (locked: Payment) => ({
    id: newId('rfd'),
    paymentId: payment.id,
    integratorId: integrator.id,
    type,
    status: 'pending' as const,
    amountMinor: checkRefund(
      locked,
      { type, amountMinor },
      {
        capability: refundCapabilityFor(integrator, locked.cardBrand),
        limits: { maxCount: app.config.refundMaxCount, windowDays: app.config.refundWindowDays },
        now,
      },
    ),
    currency: payment.currency,
    reason: request.reason,
    notifyUser: request.notifyUser,
    idempotencyKey: request.idempotencyKey ?? null,
    createdAt: now,
  });
  const reservedOn = (p: Payment, refundMinor: bigint): Payment => ({
    ...p,
    refundReservedMinor: p.refundReservedMinor + refundMinor,
    refundCount: p.refundCount + 1,
    refundVersion: p.refundVersion + 1,
  });

  // Usually one statement: the rules on the payment as read, then a compare-and-set on its version.
  // A console refund takes the transaction below, which writes its audit entry with it.
  if (payment.refundReservedMinor === 0n && !request.actor) {
    const values = newRefund(payment);
    const reserved = reservedOn(payment, values.amountMinor);
    const inserted = rowsOf<{ id: string }>(
      await reserveStatement.execute(app.db, {
        ...values,
        reserved: reserved.refundReservedMinor,
        count: reserved.refundCount,
        version: reserved.refundVersion,
        expectedVersion: payment.refundVersion,
      }),
    );
    if (inserted.length === 1) return { refund: pendingRefund(values), payment, reserved };
  }

  // Another refund got there first (or one is in flight): the same steps under the row lock.
  return app.db.transaction(async (tx) => {
    const locked = theRow(await tx.select().from(payments).where(eq(payments.id, payment.id)).for('update'), 'the payment being refunded');
    const earlier = request.idempotencyKey ? await findByIdempotencyKey(tx, app, payment.id, request.idempotencyKey, now) : undefined;
    if (earlier) return { refund: sameRequest(earlier, type, amountMinor), payment };
    const values = newRefund(locked);
    const reserved = reservedOn(locked, values.amountMinor);
    const refund = await tx.insert(refunds).values(values).returning();
    await tx
      .update(payments)
      .set({ refundReservedMinor: reserved.refundReservedMinor, refundCount: reserved.refundCount, refundVersion: reserved.refundVersion })
      .where(eq(payments.id, payment.id));
    const started = theRow(refund, 'the new refund');
    if (request.actor) {
      const amount = `${formatDecimal(started.amountMinor, payment.currency)} ${payment.currency}`;
      await recordAudit(tx, request.actor, 'refund.requested', `${started.id} of ${payment.id} (${type}, ${amount})`, now);
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
 * Finishes refunds left pending longer than PAYLINK_REFUND_RECOVERY_SECONDS (a crash or a lost
 * acquirer reply between tx1 and tx2), oldest first. Safe to run from any number of processes.
 */
export async function recoverPendingRefunds(app: PaylinkApp, opts: { paymentId?: string; limit?: number } = {}): Promise<number> {
  const cutoff = new Date(app.now().getTime() - app.config.refundRecoverySeconds * 1000);
  const stale = await app.db
    .select()
    .from(refunds)
    .where(and(eq(refunds.status, 'pending'), lt(refunds.createdAt, cutoff), opts.paymentId ? eq(refunds.paymentId, opts.paymentId) : undefined))
    .orderBy(asc(refunds.createdAt))
    .limit(opts.limit ?? 100);
  let recovered = 0;
  for (const refund of stale) {
    try {
      const payment = theRow(await app.db.select().from(payments).where(eq(payments.id, refund.paymentId)), 'the refunded payment');
      const { refund: settled } = await completeRefund(app, refund, payment);
      recovered++;
      app.log.info('refund recovered', { refundId: refund.id, transactionId: refund.paymentId, status: settled.status });
    } catch (error) {
      // Still pending: the next pass tries again with the same acquirer key.
      app.log.warn('refund recovery failed; will retry', { refundId: refund.id, transactionId: refund.paymentId, error });
    }
  }
  return recovered;
}

/**
 * The acquirer call (same key on every try), then tx2. `reserved` is the payment as tx1 left it,
 * when this request made tx1: tx2 then tries its one-statement form first.
 */
async function completeRefund(
  app: PaylinkApp,
  refund: Refund,
  payment: Payment,
  reserved?: { payment: Payment; defaultCallbackUrl: string | null },
): Promise<RefundOutcome> {
  const result = await callAcquirer(app, refund, payment);
  if (result.status === 'pending') return acceptedAtProvider(app, refund, result.refundId);
  return (reserved && (await settleUnlocked(app, refund, reserved, result))) ?? settleRefund(app, refund.id, payment.id, result);
}

/**
 * The refund at the integrator's acquirer: its one-call refund where it offers one (the sandbox),
 * else the general call, or, once the provider has accepted the refund (its id is on the row), a
 * sync of that refund.
 */
async function callAcquirer(app: PaylinkApp, refund: Refund, payment: Payment): Promise<RefundResult | RefundState> {
  const connector = await app.connectors.forIntegrator(refund.integratorId);
  if (connector.refundAtOnce) {
    return connector.refundAtOnce(
      { chargeId: payment.acquirerReference!, amountMinor: refund.amountMinor, currency: refund.currency },
      { idempotencyKey: acquirerRefundKey(refund.id) },
    );
  }
  if (refund.acquirerReference) return connector.syncRefund(refund.acquirerReference);
  return connector.refund(
    {
      chargeId: payment.acquirerReference!,
      amountMinor: refund.amountMinor,
      currency: refund.currency,
      paymentAmountMinor: payment.amountMinor,
      // Only a paid payment has refunds (checkRefund), and paid_at is written once, when it is paid.
      paidAt: payment.paidAt!,
      reason: refund.reason,
    },
    { idempotencyKey: acquirerRefundKey(refund.id) },
  );
}

/**
 * The provider accepted the refund and settles it later: the refund stays `pending` with the
 * amount reserved, and keeps the provider's id, so the provider's webhook or the recovery pass
 * (a sync) finishes it. The answer says pending (OK.02.01 / OK.04.01).
 */
async function acceptedAtProvider(app: PaylinkApp, refund: Refund, providerRefundId: string): Promise<RefundOutcome> {
  await app.db
    .update(refunds)
    .set({ acquirerReference: providerRefundId })
    .where(and(eq(refunds.id, refund.id), eq(refunds.status, 'pending')));
  return current(app, refund.id);
}

/**
 * What the integrator's acquirer cannot refund at all (its own window, whole payments only) is
 * refused before anything is reserved: ER.20.27.
 */
async function assertAcquirerCanRefund(app: PaylinkApp, integratorId: string, payment: Payment, amountMinor: bigint | undefined): Promise<void> {
  const connector = await app.connectors.forIntegrator(integratorId);
  if (!payment.paidAt) return;
  const amount = amountMinor ?? refundableMinor(payment);
  const allowed = refundAllowed(connector.capabilities, { amountMinor: amount, paymentAmountMinor: payment.amountMinor, paidAt: payment.paidAt }, app.now());
  if (!allowed.ok) {
    throw new DomainError('ER.20.27', "Refund not possible with the integrator's acquirer", { messages: { transaction_id: [allowed.message] } });
  }
}

/**
 * A provider's word on a refund it accepted earlier (its webhook): a final answer settles the
 * pending refund once; a duplicate or a refund already settled changes nothing.
 */
export async function settleProviderRefund(
  app: PaylinkApp,
  integratorId: string,
  state: RefundState & { refundId: string },
): Promise<'settled' | 'unchanged' | 'unknown'> {
  const [refund] = await app.db
    .select()
    .from(refunds)
    .where(and(eq(refunds.integratorId, integratorId), eq(refunds.acquirerReference, state.refundId)));
  if (!refund) return 'unknown';
  // Stripe: a refund reported succeeded can still fail later (the card's bank returns it).
  if (refund.status === 'succeeded' && state.status === 'failed') return (await reverseRefund(app, refund, state)) ? 'settled' : 'unchanged';
  if (refund.status !== 'pending' || state.status === 'pending') return 'unchanged';
  // Settled now, or by a recovery pass meanwhile: either way no longer pending.
  await settleRefund(app, refund.id, refund.paymentId, state);
  return 'settled';
}

/**
 * A refund recorded as succeeded that the provider now reports failed: the money did not reach the
 * customer, so the refund becomes failed and its amount is refundable again (refund.failed event),
 * in one transaction under the payment's row lock. False when it was already reversed.
 */
async function reverseRefund(app: PaylinkApp, recorded: Refund, state: Extract<RefundState, { status: 'failed' }>): Promise<boolean> {
  const now = app.now();
  return app.db.transaction(async (tx) => {
    const p = theRow(await tx.select().from(payments).where(eq(payments.id, recorded.paymentId)).for('update'), 'the refunded payment');
    const [refund] = await tx
      .update(refunds)
      .set({ status: 'failed', failureCode: state.code, failureMessage: state.message, failedAt: now })
      .where(and(eq(refunds.id, recorded.id), eq(refunds.status, 'succeeded')))
      .returning();
    if (!refund) return false;
    const payment: Payment = {
      ...p,
      refundedMinor: p.refundedMinor - refund.amountMinor,
      refundCount: p.refundCount - 1,
      // A refund moves at least one minor unit, so the payment is no longer refunded in full.
      refundedAt: null,
      refundVersion: p.refundVersion + 1,
    };
    await tx.update(payments).set(refundColumns(payment)).where(eq(payments.id, p.id));
    await recordEvent(app.presentEvent, tx, refundEvent({ refund, payment }, p.callbackUrl, now));
    return true;
  });
}

/** The refund columns the acquirer's answer sets. */
const outcomeOf = (result: RefundResult | SettledRefundState, now: Date) =>
  result.status === 'succeeded'
    ? { status: 'succeeded' as const, acquirerReference: result.refundId, succeededAt: now, failureCode: null, failureMessage: null, failedAt: null }
    : {
        status: 'failed' as const,
        acquirerReference: ('refundId' in result ? result.refundId : undefined) ?? null,
        succeededAt: null,
        failureCode: result.code,
        failureMessage: result.message,
        failedAt: now,
      };

/** A connector's final answer on a refund. */
type SettledRefundState = Exclude<RefundState, { status: 'pending' }>;

/** The payment's refund columns once `refund` (settled) leaves its reservation. */
function paymentAfter(p: Payment, refund: Refund, now: Date): Payment {
  const succeeded = refund.status === 'succeeded';
  const refundedMinor = succeeded ? p.refundedMinor + refund.amountMinor : p.refundedMinor;
  return {
    ...p,
    refundedMinor,
    refundReservedMinor: p.refundReservedMinor - refund.amountMinor,
    // A failed refund gives its place back: only refunds that hold or moved money count.
    refundCount: succeeded ? p.refundCount : p.refundCount - 1,
    refundedAt: succeeded && refundedMinor >= p.amountMinor ? now : p.refundedAt,
    refundVersion: p.refundVersion + 1,
  };
}

/** The payment columns a settlement writes. */
const refundColumns = ({ refundedMinor, refundReservedMinor, refundCount, refundedAt, refundVersion }: Payment) => ({
  refundedMinor,
  refundReservedMinor,
  refundCount,
  refundedAt,
  refundVersion,
});

/** The refund's outcome, to the customer's e-mail when they asked and money came back. */
const refundEvent = (s: RefundOutcome, callbackUrl: string | null, now: Date) =>
  ({
    integratorId: s.refund.integratorId,
    event: { type: s.refund.status === 'succeeded' ? 'refund.succeeded' : 'refund.failed', refund: s.refund, payment: s.payment },
    callbackUrl,
    // The customer hears about money coming back; a refused refund is the merchant's to resolve.
    emailTo: s.refund.status === 'succeeded' && s.refund.notifyUser ? s.payment.customerEmail : null,
    now,
  }) as const;

/**
 * tx2 as one statement: if the payment is still as tx1 left it (its refund_version), the payment,
 * the refund and the event are written together. Undefined when another refund changed the
 * payment meanwhile; the caller then settles under the row lock.
 */
async function settleUnlocked(
  app: PaylinkApp,
  refund: Refund,
  reserved: { payment: Payment; defaultCallbackUrl: string | null },
  result: RefundResult | SettledRefundState,
): Promise<RefundOutcome | undefined> {
  const now = app.now();
  const outcome = outcomeOf(result, now);
  const settledRefund: Refund = { ...refund, ...outcome };
  const after = { refund: settledRefund, payment: paymentAfter(reserved.payment, settledRefund, now) };
  const event = presentedEvent(app.presentEvent, refundEvent(after, reserved.payment.callbackUrl || reserved.defaultCallbackUrl, now));
  const written = rowsOf<{ id: string }>(
    await settleStatement.execute(app.db, {
      ...refundColumns(after.payment),
      ...outcome,
      paymentId: refund.paymentId,
      refundId: refund.id,
      expectedVersion: reserved.payment.refundVersion,
      ...prefixed('event.', outboxRow(event)),
    }),
  );
  return written.length === 1 ? after : undefined;
}

/**
 * tx2 as one statement: if the payment is still as tx1 left it and the refund still pending, the
 * payment's balances, the refund's outcome and its outbox event, together. Built once.
 */
const settleStatement = prepareStatement(
  (p) => sql`with p as (
      update ${payments} set ${setClause(payments, {
        refundedMinor: p('refundedMinor'),
        refundReservedMinor: p('refundReservedMinor'),
        refundCount: p('refundCount'),
        refundedAt: p('refundedAt'),
        refundVersion: p('refundVersion'),
      })}
      where id = ${p('paymentId')} and refund_version = ${p('expectedVersion')}
        and exists (select 1 from ${refunds} where ${refunds.id} = ${p('refundId')} and ${refunds.status} = 'pending') returning id),
    r as (
      update ${refunds} set ${setClause(refunds, {
        status: p('status'),
        acquirerReference: p('acquirerReference'),
        succeededAt: p('succeededAt'),
        failureCode: p('failureCode'),
        failureMessage: p('failureMessage'),
        failedAt: p('failedAt'),
      })}
      from p where ${refunds.id} = ${p('refundId')} and ${refunds.status} = 'pending' returning ${refunds.id})
    ${insertSelect(
      outboxEvents,
      {
        id: p('event.id'),
        integratorId: p('event.integratorId'),
        type: p('event.type'),
        data: p('event.data'),
        createdAt: p('event.createdAt'),
        callbackUrl: p('event.callbackUrl'),
        callbackState: p('event.callbackState'),
        callbackNextAt: p('event.callbackNextAt'),
        emailTo: p('event.emailTo'),
        emailState: p('event.emailState'),
        emailNextAt: p('event.emailNextAt'),
      },
      sql`r`,
    )} returning id`,
);

/** tx2 under the payment row lock: record the acquirer's answer on a still-pending refund, move the money and write the event. */
async function settleRefund(app: PaylinkApp, refundId: string, paymentId: string, result: RefundResult | SettledRefundState): Promise<RefundOutcome> {
  const now = app.now();
  return app.db.transaction(async (tx) => {
    const p = theRow(await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update'), 'the refunded payment');
    const [refund] = await tx
      .update(refunds)
      .set(outcomeOf(result, now))
      .where(and(eq(refunds.id, refundId), eq(refunds.status, 'pending')))
      .returning();
    if (!refund) {
      // Settled meanwhile by a recovery or a resumed retry: report what was recorded.
      return { refund: theRow(await tx.select().from(refunds).where(eq(refunds.id, refundId)), 'the settled refund'), payment: p };
    }
    const after = { refund, payment: paymentAfter(p, refund, now) };
    await tx.update(payments).set(refundColumns(after.payment)).where(eq(payments.id, paymentId));
    await recordEvent(app.presentEvent, tx, refundEvent(after, p.callbackUrl, now));
    return after;
  });
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

async function findOwnPayment(app: PaylinkApp, integratorId: string, transactionId: string): Promise<Payment> {
  let statement = ownPayment.get(app.db);
  if (!statement) ownPayment.set(app.db, (statement = prepareOwnPayment(app.db)));
  const [payment] = await statement.execute({ id: transactionId, integratorId });
  // Another integrator's transaction is answered exactly like a missing one.
  if (!payment) throw notFound('transaction_id', 'This transaction');
  return payment;
}

/** The refund an earlier request with this Idempotency-Key started, while the key is still valid. */
async function findByIdempotencyKey(tx: DbOrTx, app: PaylinkApp, paymentId: string, key: string, now: Date): Promise<Refund | undefined> {
  const since = new Date(now.getTime() - app.config.idempotencyTtlSeconds * 1000);
  const [refund] = await tx
    .select()
    .from(refunds)
    .where(and(eq(refunds.paymentId, paymentId), eq(refunds.idempotencyKey, key), gt(refunds.createdAt, since)))
    .orderBy(desc(refunds.createdAt))
    .limit(1);
  return refund;
}

async function current(app: PaylinkApp, refundId: string): Promise<RefundOutcome> {
  const refund = theRow(await app.db.select().from(refunds).where(eq(refunds.id, refundId)), 'the refund');
  const payment = theRow(await app.db.select().from(payments).where(eq(payments.id, refund.paymentId)), 'the refunded payment');
  return { refund, payment };
}
