import { eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { type CardRegistration, integrators, type Payment, type Refund, type Schedule } from '../../db/schema.ts';
import { emailViewOf } from './email/view.ts';
import { type EventType, enqueueEvent, type NewEvent } from './outbox.ts';

/**
 * What happened, as domain facts. The domain records facts; the API layer's event presenter
 * (src/api/presenters/events.ts) turns each into the snake_case `data` integrators receive, once,
 * when the event is written, so every delivery of one event carries the same bytes. The presenter
 * reaches the domain through the application (`app.presentEvent`), never by import.
 */
export interface CheckoutContext {
  kind: 'static' | 'dynamic';
  linkSlug: string;
  attempt: number;
}

export interface ScheduleRunContext {
  scheduleId: string;
  runId: string;
  dueAt: Date;
  /** The schedule's UTC offset in minutes: times in the event are written in it. */
  offsetMinutes: number;
  attempt: number;
  /** Declined charges only. */
  retry?: { willRetry: boolean; nextAttemptAt: Date | null };
}

/** Whom a schedule charges: the customer its card registration names. */
export type ScheduleCustomer = Pick<CardRegistration, 'customerName' | 'customerEmail'>;

export type DomainEvent =
  | { type: 'payment.succeeded' | 'payment.failed'; payment: Payment; checkout?: CheckoutContext }
  | { type: 'schedule.charge_succeeded' | 'schedule.charge_failed'; payment: Payment; run: ScheduleRunContext }
  | { type: 'refund.succeeded' | 'refund.failed'; refund: Refund; payment: Payment }
  | { type: 'card_registration.completed'; registration: CardRegistration }
  | { type: 'card_registration.deleted'; registration: CardRegistration; cancelledSchedules: string[] }
  | { type: 'schedule.created'; schedule: Schedule; offsetMinutes: number; customer: ScheduleCustomer; trial?: true }
  | { type: 'schedule.cancelled'; scheduleId: string; reason: 'requested' | 'card_registration_deleted' }
  /** A suspended schedule made active again (API or console): charges from `nextRunAt`. */
  | { type: 'schedule.resumed'; scheduleId: string; nextRunAt: Date; timeOffset: string; offsetMinutes: number }
  | ({ type: 'schedule.suspended'; scheduleId: string; consecutiveFailedRuns: number } & (
      | { payment: Payment }
      /** The last failed occurrence had no payment: its payment link expired unpaid. */
      | { payment: null; failure: { code: string; message: string } }
    ))
  | {
      /** An occurrence's payment link was e-mailed to the customer (src/domain/schedules/pay-links.ts). */
      type: 'schedule.payment_link_sent';
      run: ScheduleRunContext;
      amountMinor: bigint;
      currency: string;
      description: string | null;
      merchantReferenceId: string | null;
      paymentUrl: string;
      expiresAt: Date;
      reason: 'pay_by_link' | 'authentication_required';
      failure: { code: string; message: string } | null;
    }
  | { type: 'schedule.payment_link_expired'; run: ScheduleRunContext; failure: { code: string; message: string } };

/** Renders a fact as the event's wire `data` (bigints as decimal strings, times as ISO 8601). */
export type EventPresenter = (event: DomainEvent) => Record<string, unknown>;

/** Writes a fact to the outbox in the caller's transaction, presented once for every delivery. */
export async function recordEvent(
  present: EventPresenter,
  tx: DbOrTx,
  opts: { integratorId: string; event: DomainEvent; callbackUrl?: string | null; emailTo?: string | null; now: Date },
): Promise<string> {
  // Nothing named a callback URL: the account's default (PATCH /api/v1/integrator), if any.
  return enqueueEvent(tx, presentedEvent(present, { ...opts, callbackUrl: opts.callbackUrl || (await defaultCallbackUrl(tx, opts.integratorId)) }));
}

/** The event for the outbox, when the caller already knows where it goes (no query). */
export function presentedEvent(
  present: EventPresenter,
  opts: { integratorId: string; event: DomainEvent; callbackUrl: string | null; emailTo?: string | null; now: Date },
): NewEvent {
  const type: EventType = opts.event.type;
  return {
    integratorId: opts.integratorId,
    type,
    data: present(opts.event),
    paymentId: paymentOf(opts.event),
    callbackUrl: opts.callbackUrl,
    emailTo: opts.emailTo,
    emailView: opts.emailTo ? emailViewOf(opts.event) : null,
    now: opts.now,
  };
}

/** The payment a fact reports on: the one its presented data names as `transaction_id`. */
export function paymentOf(event: DomainEvent): string | null {
  switch (event.type) {
    case 'payment.succeeded':
    case 'payment.failed':
    case 'schedule.charge_succeeded':
    case 'schedule.charge_failed':
    case 'refund.succeeded':
    case 'refund.failed':
      return event.payment.id;
    case 'schedule.suspended':
      return event.payment?.id ?? null;
    default:
      return null;
  }
}

async function defaultCallbackUrl(tx: DbOrTx, integratorId: string): Promise<string | null> {
  return (await defaultCallbackUrls(tx, [integratorId])).get(integratorId) ?? null;
}

/** Each integrator's default callback URL (PATCH /api/v1/integrator), for events that name none. */
export async function defaultCallbackUrls(tx: DbOrTx, integratorIds: string[]): Promise<Map<string, string | null>> {
  const ids = [...new Set(integratorIds)];
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({ id: integrators.id, url: integrators.defaultCallbackUrl })
    .from(integrators)
    .where(ids.length === 1 ? eq(integrators.id, ids[0]!) : inArray(integrators.id, ids));
  return new Map(rows.map((r) => [r.id, r.url]));
}
