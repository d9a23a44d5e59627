import { and, desc, eq, inArray } from 'drizzle-orm';
import { type Integrator, type OutboxEvent, outboxEvents, type WebhookAttempt, webhookAttempts } from '../../db/schema.ts';
import { type Actor, recordAudit } from '../accounts/audit.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, invalidFields } from '../errors.ts';
import { callbackUrlProblem } from './callback-url.ts';
import { enqueueEvent } from './outbox.ts';

/**
 * A `webhook.test` event: written to the outbox like every event and delivered by the callback
 * worker to the account's default callback URL, signed and retried like the others, so a
 * receiver can be checked end to end before a real payment. Nothing changes besides the event.
 */
export const TEST_EVENT_TYPE = 'webhook.test' as const;

export async function sendTestEvent(
  app: DomainContext,
  integrator: Pick<Integrator, 'id' | 'defaultCallbackUrl'>,
  actor?: Actor,
): Promise<{ id: string; callbackUrl: string }> {
  const url = integrator.defaultCallbackUrl;
  if (!url) {
    throw new DomainError('ER.13.30', 'No callback URL to send the test event to', {
      messages: {
        default_callback_url: ['is not set: set the default callback URL first (PATCH /api/v1/integrator or the console), then send a test event to it'],
      },
    });
  }
  const problem = callbackUrlProblem(url, app.config.allowPrivateCallbacks);
  if (problem) throw invalidFields({ default_callback_url: [problem] });
  const now = app.now();
  return app.db.transaction(async (tx) => {
    const id = await enqueueEvent(tx, {
      integratorId: integrator.id,
      type: TEST_EVENT_TYPE,
      data: { message: 'A test event from paylink. Answer 2xx to acknowledge it; nothing else happened.', sent_at: now.toISOString() },
      callbackUrl: url,
      now,
    });
    if (actor) await recordAudit(tx, actor, 'test_event.sent', id, now);
    return { id, callbackUrl: url };
  });
}

/** The integrator's latest test events with their delivery attempts, newest first. */
export async function recentTestEvents(
  app: DomainContext,
  integratorId: string,
  limit = 5,
): Promise<Array<{ event: OutboxEvent; attempts: WebhookAttempt[] }>> {
  const events = await app.db
    .select()
    .from(outboxEvents)
    .where(and(eq(outboxEvents.integratorId, integratorId), eq(outboxEvents.type, TEST_EVENT_TYPE)))
    .orderBy(desc(outboxEvents.createdAt), desc(outboxEvents.id))
    .limit(limit);
  const attempts = events.length
    ? await app.db
        .select()
        .from(webhookAttempts)
        .where(
          inArray(
            webhookAttempts.eventId,
            events.map((e) => e.id),
          ),
        )
    : [];
  return events.map((event) => ({ event, attempts: attempts.filter((a) => a.eventId === event.id).sort((a, b) => a.attempt - b.attempt) }));
}
