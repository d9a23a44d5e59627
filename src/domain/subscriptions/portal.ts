import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Link, Payment, Schedule } from '../../db/schema.ts';
import { cardRegistrations, links, payments, schedules } from '../../db/schema.ts';
import type { SubscriptionCancelMode } from '../../schemas/subscription.ts';
import type { DomainContext } from '../context.ts';
import { DomainError } from '../errors.ts';
import { cancelSchedulesTx } from '../schedules/cancel.ts';
import type { Subscriber } from './access.ts';

/**
 * What the customer's subscriptions page shows and does (docs/subscriptions.md): their
 * subscriptions with this merchant (schedules started from a subscription link whose registration
 * has their e-mail), their payments with this merchant, and a cancel that follows the link's
 * setting. Nothing here answers for another merchant's or another address's records.
 */
export interface SubscriberSubscription {
  schedule: Schedule;
  link: Pick<Link, 'title' | 'subscription'>;
  card: { brand: string | null; last4: string | null; collection: 'saved_card' | 'pay_link' };
}

export interface SubscriberView {
  subscriptions: SubscriberSubscription[];
  payments: Array<Pick<Payment, 'id' | 'status' | 'amountMinor' | 'currency' | 'description' | 'createdAt' | 'paidAt' | 'refundedMinor' | 'scheduleRunId'>>;
}

const PAYMENTS_SHOWN = 50;
const emailIs = (email: string) => sql`lower(${cardRegistrations.customerEmail}) = ${email}`;

export async function subscriberView(app: DomainContext, who: Subscriber): Promise<SubscriberView> {
  const rows = await app.db
    .select({
      schedule: schedules,
      link: { title: links.title, subscription: links.subscription },
      card: { brand: cardRegistrations.brand, last4: cardRegistrations.last4, collection: cardRegistrations.collection },
    })
    .from(schedules)
    .innerJoin(cardRegistrations, eq(cardRegistrations.reference, schedules.cardRegistrationReference))
    .innerJoin(links, eq(links.id, schedules.linkId))
    .where(and(eq(schedules.integratorId, who.integratorId), isNotNull(schedules.linkId), emailIs(who.email)))
    .orderBy(desc(schedules.createdAt));
  const paid = await app.db
    .select({
      id: payments.id,
      status: payments.status,
      amountMinor: payments.amountMinor,
      currency: payments.currency,
      description: payments.description,
      createdAt: payments.createdAt,
      paidAt: payments.paidAt,
      refundedMinor: payments.refundedMinor,
      scheduleRunId: payments.scheduleRunId,
    })
    .from(payments)
    .where(and(eq(payments.integratorId, who.integratorId), sql`lower(${payments.customerEmail}) = ${who.email}`))
    .orderBy(desc(payments.createdAt))
    .limit(PAYMENTS_SHOWN);
  return { subscriptions: rows, payments: paid };
}

/** One of the subscriber's payments, for its receipt; undefined when it is not theirs. */
export async function subscriberPayment(app: DomainContext, who: Subscriber, paymentId: string): Promise<Payment | undefined> {
  const [payment] = await app.db
    .select()
    .from(payments)
    .where(and(eq(payments.id, paymentId), eq(payments.integratorId, who.integratorId), sql`lower(${payments.customerEmail}) = ${who.email}`));
  return payment;
}

const notTheirs = () =>
  new DomainError('ER.07.01', 'Subscription not found', {
    httpStatus: 404,
    messages: { subscription: ['This subscription is not one of yours. Open the page from your latest e-mail.'] },
  });

export type SubscriberCancel = { ended: 'now'; at: Date } | { ended: 'period_end'; at: Date } | { ended: 'already'; at: Date | null };

/**
 * The customer cancels: at once (no more charges; a retry waiting is cancelled) or at the end of
 * the period already paid (the schedule stays active until its next occurrence, which ends it
 * instead of charging: src/domain/schedules/claim.ts), as the link says, or as the customer
 * chose when the link lets them. Asking again changes nothing.
 */
export async function cancelBySubscriber(app: DomainContext, who: Subscriber, scheduleId: string, chosen?: string): Promise<SubscriberCancel> {
  const now = app.now();
  return app.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ schedule: schedules, subscription: links.subscription })
      .from(schedules)
      .innerJoin(cardRegistrations, eq(cardRegistrations.reference, schedules.cardRegistrationReference))
      .innerJoin(links, eq(links.id, schedules.linkId))
      .where(and(eq(schedules.id, scheduleId), eq(schedules.integratorId, who.integratorId), emailIs(who.email)))
      .for('update', { of: schedules });
    if (!row) throw notTheirs();
    const { schedule } = row;
    if (schedule.status === 'cancelled') return { ended: 'already', at: schedule.cancelledAt };
    const mode = cancelModeOf(row.subscription?.cancel ?? 'immediately', chosen);
    const end = schedule.status === 'active' ? schedule.nextRunAt : null;
    if (mode === 'period_end' && end && end > now) {
      await tx.update(schedules).set({ cancelAt: end }).where(eq(schedules.id, schedule.id));
      return { ended: 'period_end', at: end };
    }
    await cancelSchedulesTx(app, tx, { integratorId: who.integratorId, scheduleId: schedule.id, now, reason: 'requested' });
    return { ended: 'now', at: now };
  });
}

/** The link's mode, or the customer's choice when the link leaves it to them (at the period's end unless they say at once). */
function cancelModeOf(setting: SubscriptionCancelMode, chosen: string | undefined): 'immediately' | 'period_end' {
  if (setting !== 'customer_chooses') return setting;
  return chosen === 'immediately' ? 'immediately' : 'period_end';
}

/** Whether the address has any subscription with the merchant (a new page link is e-mailed only then). */
export async function hasSubscriptions(app: DomainContext, integratorId: string, email: string): Promise<boolean> {
  const [row] = await app.db
    .select({ id: schedules.id })
    .from(schedules)
    .innerJoin(cardRegistrations, eq(cardRegistrations.reference, schedules.cardRegistrationReference))
    .where(and(eq(schedules.integratorId, integratorId), isNotNull(schedules.linkId), emailIs(email.toLowerCase())))
    .limit(1);
  return row !== undefined;
}

/** The slugs of the links subscriptions came from (schedules.link_id), for the schedules' API and console views. */
export async function linkSlugsOf(db: DomainContext['db'], rows: Array<Pick<Schedule, 'linkId'>>): Promise<Map<string, string>> {
  const ids = [...new Set(rows.map((r) => r.linkId).filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const found = await db.select({ id: links.id, slug: links.slug }).from(links).where(inArray(links.id, ids));
  return new Map(found.map((l) => [l.id, l.slug]));
}
