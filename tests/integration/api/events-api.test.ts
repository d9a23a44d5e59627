import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrators, outboxEvents } from '../../../src/db/schema.ts';
import { enqueueEvent } from '../../../src/domain/notifications/outbox.ts';
import { createCallbackSender } from '../../../src/workers/callbacks.ts';
import { call, createTestApp, OTHER_TOKEN, provision, startTestServer, type TestApp } from '../../support/app.ts';
import { startWebhookReceiver, status, type WebhookReceiver } from '../../support/webhook-receiver.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let receiver: WebhookReceiver;
let clock = new Date('2025-03-01T08:00:00.000Z');
const ids: string[] = [];
let otherId: string;

beforeAll(async () => {
  t = await createTestApp({ now: () => clock });
  await provision(t);
  server = await startTestServer(t.app);
  receiver = await startWebhookReceiver();
  const rows = await t.app.db.select().from(integrators);
  const acme = rows.find((r) => r.email === 'billing@acme.example')!.id;
  const other = rows.find((r) => r.email === 'ops@other.example')!.id;
  for (let i = 0; i < 5; i++) {
    ids.push(
      await enqueueEvent(t.app.db, {
        integratorId: acme,
        type: i === 4 ? 'refund.succeeded' : 'payment.succeeded',
        data: { transaction_id: `txn_${i}`, amount: '250.00', currency: 'PHP' },
        callbackUrl: i === 0 ? receiver.url : null,
        emailTo: i === 1 ? 'juan@example.com' : null,
        now: clock,
      }),
    );
    clock = new Date(clock.getTime() + 1000);
  }
  otherId = await enqueueEvent(t.app.db, { integratorId: other, type: 'payment.succeeded', data: { transaction_id: 'txn_other' }, now: clock });
  receiver.respond.push(status(500));
  const sender = createCallbackSender(t.app, { random: () => 0.5 });
  await sender.deliverDue();
  await sender.close();
});

afterAll(async () => {
  await server?.close();
  await receiver?.close();
  await t?.close();
});

describe('events API', () => {
  it('legacy feed › lists the integrator’s own events oldest first from after=<timestamp>, with callback state and every attempt', async () => {
    const res = await call(server.url, 'GET', '/api/v1/events?after=2000-01-01T00:00:00Z');
    expect(res.status).toBe(200);
    expect(res.json.data.status_code).toBe('OK.00.00');
    const events = res.json.data.events;
    expect(events.map((e: { id: string }) => e.id)).toEqual(ids);
    expect(events[0]).toMatchObject({
      id: ids[0],
      type: 'payment.succeeded',
      created_at: '2025-03-01T08:00:00.000Z',
      data: { transaction_id: 'txn_0', amount: '250.00', currency: 'PHP' },
      callback: {
        url: receiver.url,
        state: 'pending',
        attempts: 1,
        next_attempt_at: '2025-03-01T08:00:10.000Z',
        delivered_at: null,
        attempt_log: [{ attempt: 1, status_code: 500, error: 'HTTP 500' }],
      },
      email: { state: 'none', attempts: 0 },
    });
    expect(events[1].callback).toMatchObject({ url: null, state: 'no_destination', attempts: 0, attempt_log: [] });
    expect(events[1].email).toMatchObject({ state: 'pending', attempts: 0 });
    expect(res.json.data).toMatchObject({ has_more: false, next_after: ids[4] });
    expect(res.text).not.toContain(otherId);
  });

  it('legacy feed › pages with after=<event id> and limit', async () => {
    const first = await call(server.url, 'GET', '/api/v1/events?limit=2&after=2000-01-01T00:00:00Z');
    expect(first.json.data.events.map((e: { id: string }) => e.id)).toEqual(ids.slice(0, 2));
    expect(first.json.data).toMatchObject({ has_more: true, next_after: ids[1] });
    const second = await call(server.url, 'GET', `/api/v1/events?limit=2&after=${first.json.data.next_after}`);
    expect(second.json.data.events.map((e: { id: string }) => e.id)).toEqual(ids.slice(2, 4));
    const last = await call(server.url, 'GET', `/api/v1/events?limit=2&after=${second.json.data.next_after}`);
    expect(last.json.data.events.map((e: { id: string }) => e.id)).toEqual(ids.slice(4));
    expect(last.json.data.has_more).toBe(false);
    const empty = await call(server.url, 'GET', `/api/v1/events?after=${ids[4]}`);
    expect(empty.json.data).toMatchObject({ events: [], has_more: false, next_after: null });
  });

  it('legacy feed › takes a timestamp as after; the list filters by type', async () => {
    const res = await call(server.url, 'GET', '/api/v1/events?after=2025-03-01T08:00:02.500Z');
    expect(res.json.data.events.map((e: { id: string }) => e.id)).toEqual(ids.slice(3));
    const refunds = await call(server.url, 'GET', '/api/v1/events?type=refund.succeeded');
    expect(refunds.json.data.items.map((e: { id: string }) => e.id)).toEqual([ids[4]]);
  });

  it('answers 404 for an after id that is not one of the integrator’s events', async () => {
    const res = await call(server.url, 'GET', `/api/v1/events?after=${ids[0]}`, { token: OTHER_TOKEN });
    expect(res.status).toBe(404);
    expect(res.json.data.status_code).toBe('ER.02.30');
    expect(res.json.messages.after[0]).toMatch(/does not exist/);
  });

  it('refuses a bad limit, a bad cursor and unknown parameters with 422', async () => {
    const res = await call(server.url, 'GET', '/api/v1/events?limit=1000&after=yesterday&colour=red');
    expect(res.status).toBe(422);
    expect(res.json.data.status_code).toBe('ER.02.30');
    expect(Object.keys(res.json.messages).sort()).toEqual(['after', 'colour', 'limit']);
  });

  it('needs the Authorization token and takes only GET', async () => {
    expect((await call(server.url, 'GET', '/api/v1/events', { token: null })).status).toBe(401);
    const post = await call(server.url, 'POST', '/api/v1/events', { body: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });

  it('is reachable only by its own integrator', async () => {
    const res = await call(server.url, 'GET', '/api/v1/events', { token: OTHER_TOKEN });
    expect(res.json.data.items.map((e: { id: string }) => e.id)).toEqual([otherId]);
    expect(res.json.data.items.map((e: { data: { transaction_id: string } }) => e.data.transaction_id)).toEqual(['txn_other']);
    const [event] = await t.app.db.select().from(outboxEvents).where(eq(outboxEvents.id, otherId));
    const [other] = await t.app.db.select().from(integrators).where(eq(integrators.email, 'ops@other.example'));
    expect(event!.integratorId).toBe(other!.id);
  });
});
