import { and, asc, eq, inArray, isNull, lte, or } from 'drizzle-orm';
import { newId } from '../../crypto.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { outboxEvents } from '../../db/schema.ts';
import type { EmailView } from './email/view.ts';

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
  | 'schedule.resumed'
  | 'schedule.charge_succeeded'
  | 'schedule.charge_failed'
  | 'schedule.suspended'
  | 'schedule.payment_link_sent'
  | 'schedule.payment_link_expired'
  /** Sent on request (console: Developers › Send test event) to check a receiver; no business change behind it. */
  | 'webhook.test'
  /** A customer asked for a link to their subscriptions page: an e-mail only, never a callback (src/domain/subscriptions/request.ts). */
  | 'subscription.page_link';

export interface NewEvent {
  integratorId: string;
  type: EventType;
  /** What an integrator needs to act without another call; bigints become decimal strings. */
  data: Record<string, unknown>;
  /** The payment the event reports on, if any: the outbox row is found by it, never by its data. */
  paymentId?: string | null;
  callbackUrl?: string | null;
  emailTo?: string | null;
  /** What the e-mail to `emailTo` says; required with it. */
  emailView?: EmailView | null;
  now: Date;
}

/** The channel every outbox insert notifies (trigger in drizzle/0006_outbox_notify.sql). */
export const OUTBOX_CHANNEL = 'paylink_outbox';

export async function enqueueEvent(tx: DbOrTx, event: NewEvent): Promise<string> {
  const row = outboxRow(event);
  await tx.insert(outboxEvents).values(row);
  return row.id;
}

/** The outbox row for an event, for a statement that writes it together with other changes. */
export function outboxRow(event: NewEvent) {
  return {
    id: newId('evt'),
    integratorId: event.integratorId,
    type: event.type,
    data: JSON.parse(JSON.stringify(event.data, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))),
    paymentId: event.paymentId ?? null,
    createdAt: event.now,
    callbackUrl: event.callbackUrl ?? null,
    callbackState: event.callbackUrl ? 'pending' : 'no_destination',
    callbackNextAt: event.callbackUrl ? event.now : null,
    emailTo: event.emailTo ?? null,
    emailView: event.emailTo ? (event.emailView ?? null) : null,
    emailState: event.emailTo ? 'pending' : 'none',
    emailNextAt: event.emailTo ? event.now : null,
  } satisfies typeof outboxEvents.$inferInsert;
}

/** The outbox's two delivery channels, each with its own state, due time and lease columns. */
const channels = {
  callback: {
    state: outboxEvents.callbackState,
    nextAt: outboxEvents.callbackNextAt,
    lockedUntil: outboxEvents.callbackLockedUntil,
    lease: 'callbackLockedUntil',
  },
  email: { state: outboxEvents.emailState, nextAt: outboxEvents.emailNextAt, lockedUntil: outboxEvents.emailLockedUntil, lease: 'emailLockedUntil' },
} as const;

/**
 * Claims up to `limit` events whose delivery on `channel` is due and not leased, leasing them
 * until `now + leaseMs`. One statement (UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED)), so
 * concurrent workers never claim the same event; a worker that dies leaves a lease that lapses,
 * and the event is claimed again (at-least-once).
 */
export async function claimDue(db: Db, channel: keyof typeof channels, opts: { now: Date; leaseMs: number; limit: number }) {
  const c = channels[channel];
  const due = db
    .select({ id: outboxEvents.id })
    .from(outboxEvents)
    .where(and(eq(c.state, 'pending'), lte(c.nextAt, opts.now), or(isNull(c.lockedUntil), lte(c.lockedUntil, opts.now))))
    .orderBy(asc(c.nextAt))
    .limit(opts.limit)
    .for('update', { skipLocked: true });
  return db
    .update(outboxEvents)
    .set({ [c.lease]: new Date(opts.now.getTime() + opts.leaseMs) })
    .where(and(inArray(outboxEvents.id, due), eq(c.state, 'pending')))
    .returning();
}
