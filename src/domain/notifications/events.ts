import { and, asc, eq, gt, inArray, or, type SQL } from 'drizzle-orm';
import { type Integrator, type OutboxEvent, outboxEvents, type WebhookAttempt, webhookAttempts } from '../../db/schema.ts';
import type { EventsQuery, LegacyEventsQuery } from '../../schemas/events.ts';
import { type Actor, recordAudit } from '../accounts/audit.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, invalidFields, notFound } from '../errors.ts';
import { keysetPage, type Page } from '../pagination.ts';
import { callbackUrlProblem } from './callback-url.ts';

/**
 * GET /api/v1/events?after=…, the legacy feed: an integrator's own events, oldest first, with their callback and e-mail
 * delivery state, so nothing depends on a callback arriving. Cursor: `after` = the last event
 * id seen (exact, stable), or a timestamp (events created strictly after it).
 */
export interface EventPage {
  events: Array<{ event: OutboxEvent; attempts: WebhookAttempt[] }>;
  hasMore: boolean;
}

export async function listEventsAfter(app: DomainContext, integrator: Pick<Integrator, 'id'>, query: LegacyEventsQuery): Promise<EventPage> {
  const db = app.db;
  const conditions: SQL[] = [eq(outboxEvents.integratorId, integrator.id)];
  if (query.type) conditions.push(eq(outboxEvents.type, query.type));
  if (query.after?.startsWith('evt_')) {
    const [cursor] = await db
      .select({ id: outboxEvents.id, createdAt: outboxEvents.createdAt })
      .from(outboxEvents)
      .where(and(eq(outboxEvents.id, query.after), eq(outboxEvents.integratorId, integrator.id)));
    if (!cursor) throw notFound('after', `Event ${query.after}`);
    conditions.push(or(gt(outboxEvents.createdAt, cursor.createdAt), and(eq(outboxEvents.createdAt, cursor.createdAt), gt(outboxEvents.id, cursor.id)))!);
  } else {
    conditions.push(gt(outboxEvents.createdAt, new Date(query.after)));
  }
  const rows = await db
    .select()
    .from(outboxEvents)
    .where(and(...conditions))
    .orderBy(asc(outboxEvents.createdAt), asc(outboxEvents.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  return { events: await withAttempts(db, page), hasMore: rows.length > query.limit };
}

export type EventWithAttempts = EventPage['events'][number];

/** GET /api/v1/events: the integrator's events newest first, the list every endpoint shares. */
export async function listEvents(app: DomainContext, integrator: Pick<Integrator, 'id'>, query: EventsQuery): Promise<Page<EventWithAttempts>> {
  const page = await keysetPage(
    app.db,
    { table: outboxEvents, id: outboxEvents.id, createdAt: outboxEvents.createdAt, scope: eq(outboxEvents.integratorId, integrator.id) },
    [query.type ? eq(outboxEvents.type, query.type) : undefined],
    query,
  );
  return { ...page, items: await withAttempts(app.db, page.items) };
}

async function withAttempts(db: DomainContext['db'], page: OutboxEvent[]): Promise<EventWithAttempts[]> {
  const log = page.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(
          inArray(
            webhookAttempts.eventId,
            page.map((r) => r.id),
          ),
        )
        .orderBy(asc(webhookAttempts.attempt))
    : [];
  const byEvent = new Map<string, WebhookAttempt[]>();
  for (const a of log) byEvent.set(a.eventId, [...(byEvent.get(a.eventId) ?? []), a]);
  return page.map((event) => ({ event, attempts: byEvent.get(event.id) ?? [] }));
}

/**
 * POST /api/v1/events/{id}/resend: queues a new delivery attempt of the event, with the same
 * id, body and webhook-id, due at once. Its callback URL, or the account's default when it had
 * none, is checked again like any callback URL (and again after DNS at delivery). Given a
 * transaction id (the console's payment page), an event of another transaction is refused (422).
 */
export async function resendEvent(
  app: DomainContext,
  integrator: Pick<Integrator, 'id' | 'defaultCallbackUrl'>,
  eventId: string,
  opts: { actor?: Actor; transactionId?: string } = {},
): Promise<OutboxEvent> {
  const [event] = await app.db
    .select()
    .from(outboxEvents)
    .where(and(eq(outboxEvents.id, eventId), eq(outboxEvents.integratorId, integrator.id)));
  // Asked from one payment's timeline: only that payment's events (a missing one included) are its own.
  if (opts.transactionId !== undefined && event?.data.transaction_id !== opts.transactionId)
    throw invalidFields({ event: ['is not an event of this payment'] });
  if (!event) throw notFound('id', 'This event');
  const url = event.callbackUrl ?? integrator.defaultCallbackUrl;
  if (!url) {
    throw new DomainError('ER.13.30', 'Event has no callback URL', {
      messages: { callback_url: ['this event names no callback URL and the account has no default; set default_callback_url with PATCH /api/v1/integrator'] },
    });
  }
  const problem = callbackUrlProblem(url, app.config.allowPrivateCallbacks);
  if (problem) throw invalidFields({ callback_url: [problem] });
  const now = app.now();
  return app.db.transaction(async (tx) => {
    const [queued] = await tx
      .update(outboxEvents)
      .set({ callbackUrl: url, callbackState: 'pending', callbackNextAt: now })
      .where(eq(outboxEvents.id, event.id))
      .returning();
    if (opts.actor) await recordAudit(tx, opts.actor, 'event.resent', `${event.id} (${event.type})`, now);
    return queued ?? event;
  });
}

/**
 * The events that report on one transaction (its payment, charge and refund events), oldest
 * first, with every callback attempt: a payment's timeline in the console. Found by the row's
 * payment_id, written with the event (the `transaction_id` its data carries).
 */
export async function eventsOfTransaction(app: DomainContext, integrator: Pick<Integrator, 'id'>, transactionId: string): Promise<EventWithAttempts[]> {
  const rows = await app.db
    .select()
    .from(outboxEvents)
    .where(and(eq(outboxEvents.integratorId, integrator.id), eq(outboxEvents.paymentId, transactionId)))
    .orderBy(asc(outboxEvents.createdAt), asc(outboxEvents.id));
  return withAttempts(app.db, rows);
}
