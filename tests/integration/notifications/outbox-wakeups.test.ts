import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { integrators } from '../../../src/db/schema.ts';
import { enqueueEvent, OUTBOX_CHANNEL } from '../../../src/domain/notifications/outbox.ts';
import { startCallbackLoop } from '../../../src/workers/callbacks.ts';
import type { Loop } from '../../../src/workers/loop.ts';
import { createTestApp, provision, type TestApp } from '../../support/app.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';

/**
 * A written outbox event wakes the callback worker at once (the insert trigger's NOTIFY, heard by
 * LISTEN on PostgreSQL and in-process on PGlite), instead of after the poll interval. The poll here
 * is an hour, so only a wake-up can deliver within the test's timeout.
 */
const AN_HOUR = String(60 * 60 * 1000);
let opened: TestApp[] = [];
let loops: Loop[] = [];
let receiver: WebhookReceiver | undefined;

afterEach(async () => {
  for (const loop of loops) await loop.stop();
  for (const t of opened) await t.close();
  await receiver?.close();
  opened = [];
  loops = [];
  receiver = undefined;
});

async function open(databaseUrl?: string) {
  const t = await createTestApp({ env: { PAYLINK_WORKER_POLL_MS: AN_HOUR }, databaseUrl });
  opened.push(t);
  return t;
}

const acmeId = async (t: TestApp) => (await t.app.db.select().from(integrators).where(eq(integrators.email, 'billing@acme.example')))[0]!.id;

const paid = (t: TestApp, integratorId: string, url: string, n: number) =>
  enqueueEvent(t.app.db, {
    integratorId,
    type: 'payment.succeeded',
    data: { transaction_id: `txn_wake_${n}`, status: 'succeeded', amount: '250.00', currency: 'PHP' },
    callbackUrl: url,
    now: t.app.now(),
  });

/** Lets the loop finish its first (empty) tick and fall asleep on its hour-long poll. */
const settle = () => new Promise((r) => setTimeout(r, 300));

describe('outbox wake-ups', () => {
  it('delivers an event written while the worker sleeps without waiting for the poll interval', async () => {
    const t = await open();
    await provision(t);
    const id = await acmeId(t);
    receiver = await startWebhookReceiver();
    loops.push(startCallbackLoop(t.app, t.app.log));
    await settle();
    for (let n = 1; n <= 3; n++) {
      await paid(t, id, receiver.url, n);
      await receiver.waitFor(n);
      await settle();
    }
    expect(receiver.received.map((r) => (JSON.parse(r.body) as { data: { transaction_id: string } }).data.transaction_id)).toEqual([
      'txn_wake_1',
      'txn_wake_2',
      'txn_wake_3',
    ]);
  });

  it('an event written inside a transaction wakes the worker only once it commits', async () => {
    const t = await open();
    await provision(t);
    const id = await acmeId(t);
    receiver = await startWebhookReceiver();
    loops.push(startCallbackLoop(t.app, t.app.log));
    await settle();
    await t.app.db.transaction(async (tx) => {
      await enqueueEvent(tx, {
        integratorId: id,
        type: 'payment.succeeded',
        data: { transaction_id: 'txn_wake_tx', status: 'succeeded', amount: '1.00', currency: 'PHP' },
        callbackUrl: receiver!.url,
        now: t.app.now(),
      });
      await settle();
      expect(receiver!.received).toHaveLength(0);
    });
    await receiver.waitFor(1);
    expect(receiver.received).toHaveLength(1);
  });

  it('an insert notifies only the workers with something to deliver: callback, e-mail, both or nobody', async () => {
    const t = await open();
    await provision(t);
    const id = await acmeId(t);
    const heard: Array<string | undefined> = [];
    const unlisten = await t.app.database.listen(OUTBOX_CHANNEL, (payload) => heard.push(payload));
    try {
      const write = async (channels: { callbackUrl?: string; emailTo?: string }) => {
        heard.length = 0;
        await enqueueEvent(t.app.db, { integratorId: id, type: 'refund.succeeded', data: { transaction_id: 'txn_wake' }, now: t.app.now(), ...channels });
        await settle();
        return [...heard].sort();
      };
      // Kept for the events API only (no callback URL, the customer asked for no e-mail): nobody wakes.
      expect(await write({})).toEqual([]);
      expect(await write({ callbackUrl: 'https://example.com/hook' })).toEqual(['callback']);
      expect(await write({ emailTo: 'juan@example.com' })).toEqual(['email']);
      expect(await write({ callbackUrl: 'https://example.com/hook', emailTo: 'juan@example.com' })).toEqual(['callback', 'email']);
    } finally {
      await unlisten();
    }
  });
});
