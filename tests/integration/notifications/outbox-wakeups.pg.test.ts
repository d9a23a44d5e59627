import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterEach, expect, it } from 'vitest';
import { integrators } from '../../../src/db/schema.ts';
import { enqueueEvent } from '../../../src/domain/notifications/outbox.ts';
import { startCallbackLoop } from '../../../src/workers/callbacks.ts';
import type { Loop } from '../../../src/workers/loop.ts';
import { createTestApp, provision, type TestApp } from '../../support/app.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';

/** PostgreSQL only: a web process writes the event, a worker process (its own app) hears NOTIFY. */
const opened: TestApp[] = [];
let loop: Loop | undefined;
let receiver: WebhookReceiver | undefined;

afterEach(async () => {
  await loop?.stop();
  for (const t of opened) await t.close();
  await receiver?.close();
});

it('an event written by another process wakes this process’s callback worker at once', async () => {
  // Two processes of one deployment: one database, one master key.
  const masterKey = randomBytes(32).toString('base64');
  const worker = await createTestApp({ db: 'postgres', env: { PAYLINK_WORKER_POLL_MS: String(60 * 60 * 1000), PAYLINK_MASTER_KEY: masterKey } });
  opened.push(worker);
  await provision(worker);
  const web = await createTestApp({ db: 'postgres', databaseUrl: worker.databaseUrl, env: { PAYLINK_MASTER_KEY: masterKey } });
  opened.push(web);
  const [acme] = await web.app.db.select().from(integrators).where(eq(integrators.email, 'billing@acme.example'));
  receiver = await startWebhookReceiver();
  const url = receiver.url;
  /** The web process writes a payment.succeeded event. */
  const paid = (transactionId: string) =>
    enqueueEvent(web.app.db, {
      integratorId: acme!.id,
      type: 'payment.succeeded',
      data: { transaction_id: transactionId, status: 'succeeded', amount: '250.00', currency: 'PHP' },
      callbackUrl: url,
      now: web.app.now(),
    });
  loop = startCallbackLoop(worker.app, worker.app.log);
  await new Promise((r) => setTimeout(r, 300));
  await paid('txn_wake_remote');
  await receiver.waitFor(1);
  expect(receiver.received).toHaveLength(1);

  // The listening connection is lost (a restarted PostgreSQL, a proxy's idle timeout): the worker
  // listens again on a new one, and the next event still wakes it.
  const killed = (await web.app.db.execute(
    sql`select pg_terminate_backend(pid) as pid from pg_stat_activity where datname = current_database() and query ilike 'listen%'`,
  )) as unknown as { rows: { pid: number }[] };
  expect(killed.rows.length).toBeGreaterThan(0);
  await new Promise((r) => setTimeout(r, 1000));
  await paid('txn_wake_after_loss');
  await receiver.waitFor(2);
  expect(receiver.received).toHaveLength(2);
});
