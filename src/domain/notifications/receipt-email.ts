import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { type OutboxEvent, outboxEvents } from '../../db/schema.ts';

/** Where a payment's receipt e-mail went and how far it got, for the customer's receipt page. */
export interface ReceiptEmail {
  to: string;
  state: OutboxEvent['emailState'];
}

/** The events whose e-mail is a payment's receipt (src/domain/payments/record.ts). */
const RECEIPT_EVENTS = ['payment.succeeded', 'schedule.charge_succeeded'];

/** The payment's receipt e-mail (the first one written with it), or undefined when the customer was not e-mailed (outbox_integrator_payment_idx). */
export async function receiptEmailOf(db: DbOrTx, payment: { id: string; integratorId: string }): Promise<ReceiptEmail | undefined> {
  const [row] = await db
    .select({ to: outboxEvents.emailTo, state: outboxEvents.emailState })
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
  return row?.to ? { to: row.to, state: row.state } : undefined;
}
