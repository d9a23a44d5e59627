import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { integrators, outboxEvents, webhookAttempts } from '../../../src/db/schema.ts';
import { type EventType, enqueueEvent } from '../../../src/domain/notifications/outbox.ts';
import { createCallbackSender } from '../../../src/workers/callbacks.ts';
import { createTestApp, defaultSeed, provision, type TestApp } from '../../support/app.ts';
import { ok, startWebhookReceiver, status, verify, type WebhookReceiver } from '../../support/webhook-receiver.ts';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

let t: TestApp;
let receiver: WebhookReceiver;
let clock: Date;
let secret: string;
let integratorId: string;

async function setup(env: Record<string, string> = {}) {
  clock = new Date();
  t = await createTestApp({ now: () => clock, env });
  secret = newSecret();
  const seed = defaultSeed();
  seed.integrators[0]!.webhook_secret = secret;
  await provision(t, seed);
  const [row] = await t.app.db.select().from(integrators).where(eq(integrators.email, 'billing@acme.example'));
  integratorId = row!.id;
}

const advance = (seconds: number) => {
  clock = new Date(clock.getTime() + seconds * 1000);
};

async function enqueue(callbackUrl: string, type: EventType = 'payment.succeeded', data: Record<string, unknown> = {}) {
  return enqueueEvent(t.app.db, {
    integratorId,
    type,
    data: { transaction_id: 'txn_test', status: 'succeeded', amount: '250.00', currency: 'PHP', merchant_reference_id: 'order-42', ...data },
    callbackUrl,
    now: clock,
  });
}

const event = async (id: string) => (await t.app.db.select().from(outboxEvents).where(eq(outboxEvents.id, id)))[0]!;
const attempts = (id: string) => t.app.db.select().from(webhookAttempts).where(eq(webhookAttempts.eventId, id)).orderBy(asc(webhookAttempts.attempt));
/** A sender with jitter pinned to the middle, so the next attempt is exactly the scheduled delay. */
const sender = () => createCallbackSender(t.app, { random: () => 0.5 });

async function deliverDue() {
  const s = sender();
  try {
    return await s.deliverDue();
  } finally {
    await s.close();
  }
}

beforeEach(async () => {
  receiver = await startWebhookReceiver();
});
afterEach(async () => {
  await receiver.close();
  await t?.close();
});

describe('callbacks', () => {
  it('delivers each event as a Standard Webhooks message that verifies with the integrator secret', async () => {
    await setup();
    const id = await enqueue(`${receiver.url}/hooks/paylink?src=test`);
    expect(await deliverDue()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    const req = receiver.received[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/hooks/paylink?src=test');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['user-agent']).toBe('paylink-webhooks/1');
    expect(req.headers['webhook-id']).toBe(id);
    expect(req.headers['webhook-timestamp']).toBe(String(Math.floor(clock.getTime() / 1000)));
    expect(req.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const payload = verify(secret, req) as Record<string, any>;
    expect(payload).toEqual({
      id,
      type: 'payment.succeeded',
      created_at: clock.toISOString(),
      data: { transaction_id: 'txn_test', status: 'succeeded', amount: '250.00', currency: 'PHP', merchant_reference_id: 'order-42' },
    });
    const row = await event(id);
    expect(row).toMatchObject({ callbackState: 'delivered', callbackAttempts: 1, callbackLockedUntil: null, callbackNextAt: null });
    expect(row.callbackDeliveredAt).toEqual(clock);
    const [attempt] = await attempts(id);
    expect(attempt).toMatchObject({ attempt: 1, statusCode: 200, error: null, startedAt: clock });
    expect(attempt!.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('rejects a tampered body and a wrong secret at the receiver', async () => {
    await setup();
    await enqueue(receiver.url);
    await deliverDue();
    const req = receiver.received[0]!;
    expect(() => verify(secret, req, req.body.replace('250.00', '2500.00'))).toThrow(/No matching signature/);
    expect(() => verify(newSecret(), req)).toThrow(/No matching signature/);
  });

  it('signs with the old and the new secret for 24 hours after a rotation', async () => {
    await setup();
    const old = secret;
    const seed = defaultSeed();
    const rotated = newSecret();
    seed.integrators[0]!.webhook_secret = rotated;
    await provision(t, seed);
    await enqueue(receiver.url);
    await deliverDue();
    const first = receiver.received[0]!;
    expect(first.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verify(rotated, first)).toBeTruthy();
    expect(verify(old, first)).toBeTruthy();

    advance(24 * 60 * 60);
    clock = new Date(); // the receiver checks the timestamp against its own clock
    await t.app.db
      .update(integrators)
      .set({ webhookSecretRotatedAt: new Date(clock.getTime() - 24 * 60 * 60 * 1000) })
      .where(eq(integrators.id, integratorId));
    await enqueue(receiver.url);
    await deliverDue();
    const later = receiver.received[1]!;
    expect(later.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(verify(rotated, later)).toBeTruthy();
    expect(() => verify(old, later)).toThrow(/No matching signature/);
  });

  it('retries a 500 after the scheduled delay with the same webhook-id, then marks it delivered', async () => {
    await setup();
    receiver.respond.push(status(500, { 'content-type': 'text/plain' }, `database is down ${'x'.repeat(5000)}`));
    const id = await enqueue(receiver.url);
    await deliverDue();
    let row = await event(id);
    expect(row).toMatchObject({ callbackState: 'pending', callbackAttempts: 1 });
    expect(row.callbackNextAt).toEqual(new Date(clock.getTime() + 5_000));
    const [first] = await attempts(id);
    expect(first!.statusCode).toBe(500);
    expect(first!.error).toMatch(/^HTTP 500: database is down x+…$/);
    expect(first!.error!.length).toBeLessThan(260);

    expect(await deliverDue()).toBe(0); // not due yet
    advance(5);
    expect(await deliverDue()).toBe(1);
    row = await event(id);
    expect(row).toMatchObject({ callbackState: 'delivered', callbackAttempts: 2 });
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([id, id]);
    expect(receiver.received[0]!.body).toBe(receiver.received[1]!.body);
    expect((await attempts(id)).map((a) => [a.attempt, a.statusCode])).toEqual([
      [1, 500],
      [2, 200],
    ]);
  });

  it('retries when the receiver does not answer within the timeout', async () => {
    await setup({ PAYLINK_WEBHOOK_TIMEOUT_MS: '300' });
    const held: Array<() => void> = [];
    receiver.respond.push((_req, res) => {
      held.push(() => res.end());
    });
    const id = await enqueue(receiver.url);
    await deliverDue();
    for (const release of held) release();
    expect(await event(id)).toMatchObject({ callbackState: 'pending', callbackAttempts: 1 });
    const [attempt] = await attempts(id);
    expect(attempt).toMatchObject({ statusCode: null, error: 'timed out after 300 ms' });
    advance(5);
    await deliverDue();
    expect(await event(id)).toMatchObject({ callbackState: 'delivered', callbackAttempts: 2 });
  });

  it('retries when the connection is refused', async () => {
    await setup();
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const id = await enqueue(`http://127.0.0.1:${port}/hook`);
    await deliverDue();
    expect(await event(id)).toMatchObject({ callbackState: 'pending', callbackAttempts: 1 });
    expect((await attempts(id))[0]).toMatchObject({ statusCode: null, error: 'connection refused (ECONNREFUSED)' });
  });

  it('never follows a redirect: a 3xx is a failed attempt', async () => {
    await setup();
    receiver.fallback = (req, res) => {
      if (req.path === '/moved') res.writeHead(200).end('ok');
      else res.writeHead(307, { location: `${receiver.url}/moved` }).end();
    };
    const id = await enqueue(`${receiver.url}/hook`);
    await deliverDue();
    expect(receiver.received.map((r) => r.path)).toEqual(['/hook']);
    expect(await event(id)).toMatchObject({ callbackState: 'pending', callbackAttempts: 1 });
    const [attempt] = await attempts(id);
    expect(attempt!.statusCode).toBe(307);
    expect(attempt!.error).toMatch(/redirect not followed/);
  });

  it('honours Retry-After: the next attempt waits as long as the receiver asked', async () => {
    await setup();
    receiver.respond.push(status(503, { 'retry-after': '120' }));
    const id = await enqueue(receiver.url);
    await deliverDue();
    const row = await event(id);
    expect(row.callbackNextAt).toEqual(new Date(clock.getTime() + 120_000));
    advance(5);
    expect(await deliverDue()).toBe(0);
    advance(115);
    expect(await deliverDue()).toBe(1);
    expect(await event(id)).toMatchObject({ callbackState: 'delivered', callbackAttempts: 2 });
  });

  it('marks the event failed once the retry schedule is used up', async () => {
    await setup({ PAYLINK_WEBHOOK_RETRY_SECONDS: '5,60' });
    receiver.fallback = status(500);
    const id = await enqueue(receiver.url);
    await deliverDue();
    advance(5);
    await deliverDue();
    expect(await event(id)).toMatchObject({ callbackState: 'pending', callbackAttempts: 2 });
    advance(60);
    await deliverDue();
    const row = await event(id);
    expect(row).toMatchObject({ callbackState: 'failed', callbackAttempts: 3, callbackNextAt: null });
    advance(86_400);
    expect(await deliverDue()).toBe(0);
    expect(receiver.received).toHaveLength(3);
  });

  it('two senders never deliver the same event twice', async () => {
    await setup();
    const ids = await Promise.all(Array.from({ length: 20 }, () => enqueue(receiver.url)));
    const [a, b] = [sender(), sender()];
    try {
      const counts = await Promise.all([a.deliverDue(), b.deliverDue(), a.deliverDue(), b.deliverDue()]);
      expect(counts.reduce((x, y) => x + y, 0)).toBe(20);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    expect(receiver.received.map((r) => r.headers['webhook-id']).sort()).toEqual([...ids].sort());
  });

  it('never writes the webhook secret to a log line or an attempt record', async () => {
    await setup();
    receiver.respond.push(status(500));
    const id = await enqueue(receiver.url);
    await deliverDue();
    advance(5);
    await deliverDue();
    const records = JSON.stringify(await attempts(id));
    const key = secret.slice('whsec_'.length);
    for (const text of [...t.logs, records]) {
      expect(text).not.toContain(key);
    }
  });
});

describe('callbacks › SSRF guard at delivery', () => {
  for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]']) {
    it(`refuses ${host} for good without the allow flag, and never connects`, async () => {
      await setup({ PAYLINK_ALLOW_PRIVATE_CALLBACKS: '0' });
      const id = await enqueue(`http://${host}:${receiver.port}/hook`);
      await deliverDue();
      expect(receiver.received).toHaveLength(0);
      expect(await event(id)).toMatchObject({ callbackState: 'failed', callbackAttempts: 1 });
      expect((await attempts(id))[0]!.error).toMatch(/^refused: .*loopback/);
    });
  }

  it('refuses a hostname that resolves to loopback, saying only "address not allowed" (and retries, since DNS can change)', async () => {
    await setup({ PAYLINK_ALLOW_PRIVATE_CALLBACKS: '0' });
    const id = await enqueue(`http://localhost:${receiver.port}/hook`);
    await deliverDue();
    expect(receiver.received).toHaveLength(0);
    expect(await event(id)).toMatchObject({ callbackState: 'pending', callbackAttempts: 1 });
    const error = (await attempts(id))[0]!.error;
    expect(error).toMatch(/^refused: localhost: address not allowed; /);
    // The delivery log is the merchant's: which internal address a name resolves to is not told.
    expect(error).not.toMatch(/127\.0\.0\.1|::1|loopback/);
  });

  it('reaches a local receiver with PAYLINK_ALLOW_PRIVATE_CALLBACKS=1 (local development)', async () => {
    await setup({ PAYLINK_ALLOW_PRIVATE_CALLBACKS: '1' });
    receiver.fallback = ok;
    const id = await enqueue(`http://localhost:${receiver.port}/hook`);
    await deliverDue();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers.host).toBe(`localhost:${receiver.port}`);
    expect(await event(id)).toMatchObject({ callbackState: 'delivered' });
  });
});
