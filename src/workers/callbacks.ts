import { inArray } from 'drizzle-orm';
import pMap from 'p-map';
import { webhookBody } from '../api/presenters/events.ts';
import type { PaylinkApp } from '../app.ts';
import { integrators } from '../db/schema.ts';
import type { Integrator } from '../domain/integrators/service.ts';
import {
  type AttemptRecord,
  claimDueCallbacks,
  integratorsWithoutDestination,
  type OutboxEvent,
  type RecordedAttempt,
  recordCallbackAttempts,
} from '../domain/notifications/callbacks.ts';
import { OUTBOX_CHANNEL } from '../domain/notifications/outbox.ts';
import { signatureHeader, signingSecrets } from '../domain/notifications/signing.ts';
import type { Logger } from '../log.ts';
import { type AttemptOutcome, WebhookClient } from '../outbound/webhook-client.ts';
import { type Loop, startLoop } from './loop.ts';

/**
 * The callback sender: claims due outbox events (leased, FOR UPDATE SKIP LOCKED), POSTs each to
 * its callback_url outside any transaction, then records the attempt and the new state.
 * Any number of processes may run it.
 */
export interface CallbackSender {
  /** Delivers one batch of due events; resolves to how many were attempted. */
  deliverDue(): Promise<number>;
  close(): Promise<void>;
}

/** Extra time a claimed event stays leased beyond its HTTP timeouts (recording the attempt). */
export const LEASE_MARGIN_MS = 5_000;

export function createCallbackSender(app: PaylinkApp, opts: { batchSize?: number; concurrency?: number; random?: () => number } = {}): CallbackSender {
  const log = app.log.child({ component: 'callbacks' });
  const client = new WebhookClient({ timeoutMs: app.config.webhookTimeoutMs, allowPrivate: app.config.allowPrivateCallbacks, now: app.now });
  const concurrency = opts.concurrency ?? app.config.webhookConcurrency;
  const batchSize = opts.batchSize ?? concurrency * 2;

  // Attempts finished while a write is in flight are recorded together in the next one: one
  // statement per group instead of one per attempt (the database is the bottleneck, not HTTP).
  let queue: Array<{ record: AttemptRecord; resolve: (r: RecordedAttempt) => void; reject: (e: unknown) => void }> = [];
  let writing = false;
  async function pump() {
    writing = true;
    while (queue.length > 0) {
      const seen = new Set<string>();
      const batch = queue.filter((q) => !seen.has(q.record.event.id) && seen.add(q.record.event.id));
      queue = queue.filter((q) => !batch.includes(q));
      try {
        const results = await recordCallbackAttempts(
          app.db,
          batch.map((q) => q.record),
          { now: app.now(), schedule: app.config.webhookRetrySeconds, random: opts.random },
        );
        for (const q of batch) {
          const r = results.get(q.record.event.id);
          if (r) q.resolve(r);
          else q.reject(new Error(`outbox event ${q.record.event.id} vanished`));
        }
      } catch (error) {
        for (const q of batch) q.reject(error);
      }
    }
    writing = false;
  }
  const record = (r: AttemptRecord) =>
    new Promise<RecordedAttempt>((resolve, reject) => {
      queue.push({ record: r, resolve, reject });
      if (!writing) void pump();
    });

  async function deliverOne(event: OutboxEvent, integrator: Integrator | undefined): Promise<void> {
    const startedAt = app.now();
    const timestampSeconds = Math.floor(startedAt.getTime() / 1000);
    const body = webhookBody(event);
    let outcome: AttemptOutcome;
    if (!integrator) {
      outcome = { ok: false, latencyMs: 0, error: 'integrator not found', permanent: true };
    } else {
      const signature = signatureHeader(signingSecrets(app, integrator, startedAt), event.id, timestampSeconds, body);
      outcome = await client.send({ url: event.callbackUrl!, id: event.id, timestampSeconds, body, signature });
    }
    const result = await record({ event, startedAt, outcome });
    const fields = {
      event_id: event.id,
      type: event.type,
      attempt: result.attempt,
      state: result.state,
      status_code: outcome.statusCode,
      latency_ms: outcome.latencyMs,
    };
    if (outcome.ok) log.debug('callback delivered', fields);
    else if (result.state === 'failed') log.warn('callback failed for good', { ...fields, error: outcome.error });
    else log.info('callback attempt failed; will retry', { ...fields, error: outcome.error, next_attempt_at: result.nextAt?.toISOString() });
  }

  return {
    async deliverDue() {
      // The lease covers the whole batch: the last events start only after earlier ones finished.
      const leaseMs = app.config.webhookTimeoutMs * Math.ceil(batchSize / concurrency) + LEASE_MARGIN_MS;
      const events = await claimDueCallbacks(app.db, { now: app.now(), leaseMs, limit: batchSize });
      if (events.length === 0) return 0;
      const ids = [...new Set(events.map((e) => e.integratorId))];
      const rows = await app.db.select().from(integrators).where(inArray(integrators.id, ids));
      const byId = new Map(rows.map((r) => [r.id, r]));
      await pMap(
        events,
        async (event) => {
          try {
            await deliverOne(event, byId.get(event.integratorId));
          } catch (error) {
            // The lease lapses and the event is claimed again.
            log.error('callback delivery crashed', { event_id: event.id, error });
          }
        },
        { concurrency },
      );
      return events.length;
    },
    close: () => client.close(),
  };
}

/**
 * The callback loop for startWorkers: woken by every outbox write with a callback to POST (LISTEN paylink_outbox, payload 'callback'), polls
 * every PAYLINK_WORKER_POLL_MS for retries falling due, at once again while there is work.
 */
export function startCallbackLoop(app: PaylinkApp, log: Logger): Loop {
  const sender = createCallbackSender(app);
  void warnWithoutDestination(app, log);
  return startLoop({
    name: 'callbacks',
    intervalMs: app.config.workerPollMs,
    log,
    tick: async () => (await sender.deliverDue()) > 0,
    onStop: () => sender.close(),
    wakeOn: { database: app.database, channel: OUTBOX_CHANNEL, payload: 'callback' },
  });
}

/**
 * One line per integrator whose events may go nowhere, when the loop starts (not one per event:
 * an integrator may name a callback_url per payment and mean it).
 */
async function warnWithoutDestination(app: PaylinkApp, log: Logger): Promise<void> {
  try {
    for (const { id } of await integratorsWithoutDestination(app.db))
      log.warn('integrator has no default callback URL: its events that name no callback_url are recorded as no_destination and sent to no one', {
        integrator_id: id,
      });
  } catch (error) {
    log.error('cannot list integrators without a callback destination', { error });
  }
}
