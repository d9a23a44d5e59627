import type { z } from 'zod';
import type { OutboxEvent, WebhookAttempt } from '../../db/schema.ts';
import { formatDecimal } from '../../domain/money.ts';
import type { DomainEvent, ScheduleCustomer } from '../../domain/notifications/domain-events.ts';
import type { EventPage, EventWithAttempts } from '../../domain/notifications/events.ts';
import type { Page } from '../../domain/pagination.ts';
import { formatInOffset } from '../../domain/schedules/recurrence.ts';
import type { EventPayload, EventView, LegacyEventPageView, testEventViewSchema } from '../../schemas/events.ts';
import type { eventResendViewSchema } from '../../schemas/integrator.ts';
import type { PageView } from '../../schemas/pagination.ts';
import { customerView } from './customers.ts';
import { pageView } from './pagination.ts';
import { paymentEventData } from './payments.ts';
import { refundEventData } from './refunds.ts';

/** The customer a card registration names, in the shape payment events carry (null when it names none). */
const registrationCustomer = (r: ScheduleCustomer) => customerView(r.customerName ? { 'customer.name': r.customerName } : {}, r.customerEmail);

/**
 * The `data` of every event integrators receive (callbacks and GET /api/v1/events), built from
 * the domain's facts. It is rendered once, when the event is written, so each delivery carries
 * the same bytes; docs/callbacks.md lists the fields.
 */
export function presentEvent(event: DomainEvent): Record<string, unknown> {
  switch (event.type) {
    case 'payment.succeeded':
    case 'payment.failed':
      return {
        ...paymentEventData(event.payment),
        link: event.checkout?.linkSlug ?? null,
        ...(event.checkout ? { checkout: { kind: event.checkout.kind, link: event.checkout.linkSlug, attempt: event.checkout.attempt } } : {}),
      };
    case 'schedule.charge_succeeded':
    case 'schedule.charge_failed': {
      const { run } = event;
      const at = (d: Date | null) => (d ? formatInOffset(d, run.offsetMinutes) : null);
      return {
        ...paymentEventData(event.payment),
        schedule_reference: run.scheduleId,
        run_id: run.runId,
        due_at: at(run.dueAt),
        attempt: run.attempt,
        ...(run.retry ? { will_retry: run.retry.willRetry, next_attempt_at: at(run.retry.nextAttemptAt) } : {}),
      };
    }
    case 'refund.succeeded':
    case 'refund.failed':
      return refundEventData(event.refund, event.payment);
    case 'card_registration.completed': {
      const r = event.registration;
      return {
        reference: r.reference,
        status: r.status,
        collection: r.collection,
        customer: registrationCustomer(r),
        card: { brand: r.brand, last4: r.last4, exp_month: r.expMonth, exp_year: r.expYear },
      };
    }
    case 'card_registration.deleted':
      return { reference: event.registration.reference, customer: registrationCustomer(event.registration), cancelled_schedules: event.cancelledSchedules };
    case 'schedule.created': {
      const s = event.schedule;
      return {
        schedule_reference: s.id,
        card_registration_reference: s.cardRegistrationReference,
        amount: formatDecimal(s.amountMinor, s.currency),
        currency: s.currency,
        recurrence: s.recurrence,
        time_offset: s.timeOffset,
        next_run_at: s.nextRunAt ? formatInOffset(s.nextRunAt, event.offsetMinutes) : null,
        merchant_reference_id: s.merchantReferenceId,
        customer: registrationCustomer(event.customer),
      };
    }
    case 'schedule.cancelled':
      return { schedule_reference: event.scheduleId, reason: event.reason };
    case 'schedule.resumed':
      return { schedule_reference: event.scheduleId, time_offset: event.timeOffset, next_run_at: formatInOffset(event.nextRunAt, event.offsetMinutes) };
    case 'schedule.suspended':
      return {
        schedule_reference: event.scheduleId,
        transaction_id: event.payment?.id ?? null,
        consecutive_failed_runs: event.consecutiveFailedRuns,
        failure_code: event.payment ? event.payment.failureCode : event.failure.code,
        failure_message: event.payment ? event.payment.failureMessage : event.failure.message,
      };
    case 'schedule.payment_link_sent': {
      const at = (d: Date) => formatInOffset(d, event.run.offsetMinutes);
      return {
        schedule_reference: event.run.scheduleId,
        run_id: event.run.runId,
        due_at: at(event.run.dueAt),
        amount: formatDecimal(event.amountMinor, event.currency),
        currency: event.currency,
        description: event.description,
        merchant_reference_id: event.merchantReferenceId,
        payment_url: event.paymentUrl,
        expires_at: at(event.expiresAt),
        reason: event.reason,
        failure_code: event.failure?.code ?? null,
        failure_message: event.failure?.message ?? null,
      };
    }
    case 'schedule.payment_link_expired':
      return {
        schedule_reference: event.run.scheduleId,
        run_id: event.run.runId,
        due_at: formatInOffset(event.run.dueAt, event.run.offsetMinutes),
        failure_code: event.failure.code,
        failure_message: event.failure.message,
      };
  }
}

/** The JSON body POSTed for an event; byte-for-byte the same on every attempt. */
export function eventPayload(event: Pick<OutboxEvent, 'id' | 'type' | 'createdAt' | 'data'>): EventPayload {
  return { id: event.id, type: event.type, created_at: event.createdAt.toISOString(), data: event.data };
}
export const webhookBody = (event: Pick<OutboxEvent, 'id' | 'type' | 'createdAt' | 'data'>) => JSON.stringify(eventPayload(event));

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** An event with its callback and e-mail delivery state (GET /api/v1/events). */
function eventView(row: OutboxEvent, attempts: WebhookAttempt[]): EventView {
  return {
    ...eventPayload(row),
    // Rows are written only by the domain's typed events.
    type: row.type as EventView['type'],
    callback: {
      url: row.callbackUrl,
      state: row.callbackState,
      attempts: row.callbackAttempts,
      next_attempt_at: row.callbackState === 'pending' ? iso(row.callbackNextAt) : null,
      delivered_at: iso(row.callbackDeliveredAt),
      attempt_log: attempts.map((a) => ({
        attempt: a.attempt,
        started_at: a.startedAt.toISOString(),
        status_code: a.statusCode,
        latency_ms: a.latencyMs,
        error: a.error,
      })),
    },
    email: {
      state: row.emailState,
      attempts: row.emailAttempts,
      next_attempt_at: row.emailState === 'pending' ? iso(row.emailNextAt) : null,
      sent_at: iso(row.emailSentAt),
      last_error: row.emailLastError,
    },
  };
}

/** GET /api/v1/events: the list every endpoint shares, newest first. */
export const eventPageView = (page: Page<EventWithAttempts>): PageView<EventView> =>
  pageView(
    page,
    ({ event, attempts }) => eventView(event, attempts),
    ({ event }) => event.id,
  );

/** The legacy feed (with `after`); `next_after` is the last event's id, to pass as `after` for the next page. */
export function legacyEventPageView(page: EventPage): LegacyEventPageView {
  return {
    events: page.events.map(({ event, attempts }) => eventView(event, attempts)),
    has_more: page.hasMore,
    next_after: page.events.at(-1)?.event.id ?? null,
  };
}

/** POST /api/v1/events/{id}/resend: the event queued again. */
export function presentResend(event: OutboxEvent): { code: 'OK.13.00'; data: z.infer<typeof eventResendViewSchema> } {
  return { code: 'OK.13.00', data: { event_id: event.id, callback_url: event.callbackUrl ?? '', callback_state: 'pending', attempts: event.callbackAttempts } };
}

export function presentTestEvent(sent: { id: string; callbackUrl: string }): { code: 'OK.13.01'; data: z.infer<typeof testEventViewSchema> } {
  return { code: 'OK.13.01', data: { event_id: sent.id, callback_url: sent.callbackUrl, callback_state: 'pending' } };
}
