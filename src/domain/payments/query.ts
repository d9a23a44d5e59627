import { and, asc, eq } from 'drizzle-orm';
import type { PaylinkApp } from '../../app.ts';
import { type Integrator, type Payment, payments, type Refund, refunds } from '../../db/schema.ts';
import { notFound } from '../errors.ts';

/** A transaction and its refunds, oldest refund first. */
export interface TransactionRecord {
  payment: Payment;
  refunds: Refund[];
}

/**
 * One of the integrator's transactions with its refunds (GET /transactions/{transaction_id}).
 * Another integrator's transaction is answered exactly like a missing one.
 */
export async function findTransaction(app: PaylinkApp, integrator: Pick<Integrator, 'id'>, transactionId: string): Promise<TransactionRecord> {
  const [payment] = await app.db
    .select()
    .from(payments)
    .where(and(eq(payments.id, transactionId), eq(payments.integratorId, integrator.id)));
  if (!payment) throw notFound('transaction_id', 'This transaction');
  const rows = await app.db.select().from(refunds).where(eq(refunds.paymentId, payment.id)).orderBy(asc(refunds.createdAt), asc(refunds.id));
  return { payment, refunds: rows };
}
