import { newId } from '../../crypto.ts';
import type { DbOrTx } from '../../db/client.ts';
import { outboxEvents } from '../../db/schema.ts';

/**
 * Writes an event to the outbox. Call it with the transaction that makes the change the event
 * reports, so the event exists exactly when the change does. The callback worker POSTs it to
 * `callbackUrl` (if any); the mailer e-mails `emailTo` (if any: set it only when the customer
 * asked to be notified and an address is known).
 */
export type EventType =
  | 'payment.succeeded'
  | 'payment.failed'
  | 'refund.succeeded'
  | 'refund.failed'
  | 'card_registration.completed'
  | 'card_registration.deleted'
  | 'schedule.created'
  | 'schedule.cancelled'
  | 'schedule.charge_succeeded'
  | 'schedule.charge_failed'
  | 'schedule.suspended';

export interface NewEvent {
  integratorId: string;
  type: EventType;
  /** What an integrator needs to act without another call; bigints become decimal strings. */
  data: Record<string, unknown>;
  callbackUrl?: string | null;
  emailTo?: string | null;
  now: Date;
}

export async function enqueueEvent(tx: DbOrTx, event: NewEvent): Promise<string> {
  const id = newId('evt');
  await tx.insert(outboxEvents).values({
    id,
    integratorId: event.integratorId,
    type: event.type,
    data: JSON.parse(JSON.stringify(event.data, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))),
    createdAt: event.now,
    callbackUrl: event.callbackUrl ?? null,
    callbackState: event.callbackUrl ? 'pending' : 'none',
    callbackNextAt: event.callbackUrl ? event.now : null,
    emailTo: event.emailTo ?? null,
    emailState: event.emailTo ? 'pending' : 'none',
    emailNextAt: event.emailTo ? event.now : null,
  });
  return id;
}
