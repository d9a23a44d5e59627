import { and, asc, count, eq, gt, inArray, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { auditLog, type OutboxEvent, outboxEvents } from '../../db/schema.ts';
import { type Actor, recordAudit } from '../accounts/audit.ts';
import type { DomainContext } from '../context.ts';
import { DomainError } from '../errors.ts';
import { findTransaction } from '../payments/query.ts';

/** Where a payment's receipt e-mail went and how far it got, for the customer's receipt page. */
export interface ReceiptEmail {
  to: string;
  state: OutboxEvent['emailState'];
}

/** The events whose e-mail is a payment's receipt (src/domain/payments/record.ts). */
const RECEIPT_EVENTS = ['payment.succeeded', 'schedule.charge_succeeded'];

/** The payment's receipt e-mail (the first one written with it), or undefined when the customer was not e-mailed (outbox_integrator_payment_idx). */
async function receiptEvent(db: DbOrTx, payment: { id: string; integratorId: string }) {
  const [row] = await db
    .select({ id: outboxEvents.id, to: outboxEvents.emailTo, state: outboxEvents.emailState })
    .from(outboxEvents)
    .where(
      and(
        eq(outboxEvents.integratorId, payment.integratorId),
        eq(outboxEvents.paymentId, payment.id),
        inArray(outboxEvents.type, RECEIPT_EVENTS),
        isNotNull(outboxEvents.emailTo),
      ),
    )
    .orderBy(asc(outboxEvents.createdAt), asc(outboxEvents.id))
    .limit(1);
  return row?.to ? { id: row.id, to: row.to, state: row.state } : undefined;
}

/** How often one payment's receipt may be sent again from the console, per hour (a customer's inbox is not a target). */
export const RECEIPT_RESENDS_PER_HOUR = 3;

/**
 * Sends a payment's receipt e-mail again, to the address it went to: the receipt's outbox event is
 * queued for the mailer once more (same message, due now), audited as `receipt.resent` in the same
 * transaction. Refused when the customer was never e-mailed a receipt (ER.20.60), while it is still
 * waiting to go (ER.20.61), and after RECEIPT_RESENDS_PER_HOUR in the last hour (ER.20.62).
 */
export async function resendReceipt(app: DomainContext, integrator: { id: string }, transactionId: string, actor: Actor): Promise<ReceiptEmail> {
  const { payment } = await findTransaction(app, integrator, transactionId);
  const now = app.now();
  return app.db.transaction(async (tx) => {
    const event = await receiptEvent(tx, payment);
    if (!event) {
      throw new DomainError('ER.20.60', 'Payment has no receipt e-mail', {
        messages: { transaction_id: ['was not e-mailed a receipt: the customer gave no e-mail address, or the payment asked not to notify them'] },
      });
    }
    // The row lock makes two resends at once count one after the other.
    await tx.select({ id: outboxEvents.id }).from(outboxEvents).where(eq(outboxEvents.id, event.id)).for('update');
    const [current] = await tx.select({ state: outboxEvents.emailState }).from(outboxEvents).where(eq(outboxEvents.id, event.id));
    if (current?.state === 'pending') {
      throw new DomainError('ER.20.61', 'Receipt e-mail is already waiting to be sent', {
        messages: { transaction_id: [`the receipt to ${event.to} is waiting for the mailer; it goes out shortly`] },
      });
    }
    const [recent] = await tx
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'receipt.resent'), eq(auditLog.target, payment.id), gt(auditLog.at, new Date(now.getTime() - 3_600_000))));
    if ((recent?.n ?? 0) >= RECEIPT_RESENDS_PER_HOUR) {
      throw new DomainError('ER.20.62', 'Too many receipt resends', {
        messages: { transaction_id: [`the receipt was sent again ${RECEIPT_RESENDS_PER_HOUR} times in the last hour; try again later`] },
        retryAfterSeconds: 3600,
      });
    }
    await tx
      .update(outboxEvents)
      .set({ emailState: 'pending', emailNextAt: now, emailLockedUntil: null, emailLastError: null })
      .where(eq(outboxEvents.id, event.id));
    await recordAudit(tx, actor, 'receipt.resent', payment.id, now);
    return { to: event.to, state: 'pending' as const };
  });
}

export async function receiptEmailOf(db: DbOrTx, payment: { id: string; integratorId: string }): Promise<ReceiptEmail | undefined> {
  const event = await receiptEvent(db, payment);
  return event && { to: event.to, state: event.state };
}
