import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findIntegratorByToken } from '../../../src/domain/integrators/service.ts';
import { enqueueEvent } from '../../../src/domain/notifications/outbox.ts';
import { createCallbackSender } from '../../../src/workers/callbacks.ts';
import { createTestApp, provision, TEST_TOKEN, type TestApp } from '../../support/app.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';

/** PAYLINK_WEBHOOK_CONCURRENCY bounds how many callbacks are in flight at once. */
let t: TestApp;
let receiver: WebhookReceiver;
let inFlight = 0;
let peak = 0;

beforeAll(async () => {
  t = await createTestApp({ env: { PAYLINK_WEBHOOK_CONCURRENCY: '3' } });
  await provision(t);
  receiver = await startWebhookReceiver();
  // Each callback is answered after 200 ms: deliveries that may overlap do.
  receiver.fallback = async (_req, res) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    await new Promise((resolve) => setTimeout(resolve, 200));
    inFlight--;
    res.writeHead(200).end('ok');
  };
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

describe('PAYLINK_WEBHOOK_CONCURRENCY', () => {
  it('delivers at most that many callbacks at once, and all of them in the end', async () => {
    expect(t.app.config.webhookConcurrency).toBe(3);
    const acme = (await findIntegratorByToken(t.app.db, TEST_TOKEN))!;
    for (let i = 0; i < 6; i++)
      await enqueueEvent(t.app.db, {
        integratorId: acme.id,
        type: 'payment.succeeded',
        data: { transaction_id: `txn_${i}` },
        callbackUrl: `${receiver.url}/hook`,
        now: t.app.now(),
      });
    const sender = createCallbackSender(t.app);
    try {
      // One batch is twice the concurrency: all six in one pass, three at a time.
      expect(await sender.deliverDue()).toBe(6);
    } finally {
      await sender.close();
    }
    expect(receiver.received).toHaveLength(6);
    expect(peak).toBe(3);
  });
});
