import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxEvents, payments } from '../../../src/db/schema.ts';
import { createCallbackSender } from '../../../src/workers/callbacks.ts';
import { call, OTHER_TOKEN, TEST_TOKEN, useServedApp } from '../../support/app.ts';
import { CARDS, createPayment } from '../../support/payments.ts';
import { scheduleData, signSchedule, testClock } from '../../support/schedules.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';

/**
 * The integrator's tools: the default callback URL by API, re-delivering an event, running a
 * schedule's next occurrence now (sandbox only), and the request log.
 */
const clock = testClock('2026-07-01T00:00:30.000Z');
const served = useServedApp({ now: clock.now });
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

const api = (method: string, path: string, body?: unknown, token?: string) => call(served.server.url, method, path, { body, token });
async function deliverDue() {
  const sender = createCallbackSender(served.t.app, { random: () => 0.5 });
  try {
    return await sender.deliverDue();
  } finally {
    await sender.close();
  }
}

describe('integrator › default callback URL', () => {
  it('sets, shows and clears support_email; refuses what is not an address', async () => {
    const set = await api('PATCH', '/api/v1/integrator', { support_email: 'help@acme.example' });
    expect(set.json.data.integrator.support_email).toBe('help@acme.example');
    expect((await api('GET', '/api/v1/integrator')).json.data.integrator.support_email).toBe('help@acme.example');
    const bad = await api('PATCH', '/api/v1/integrator', { support_email: 'help at acme' });
    expect(bad.status).toBe(422);
    expect(bad.json.messages.support_email).toEqual(['must be an e-mail address such as help@example.com']);
    expect((await api('PATCH', '/api/v1/integrator', { support_email: null })).json.data.integrator.support_email).toBeNull();
  });

  it('sets, shows and clears default_callback_url, and events that name no callback go there', async () => {
    const set = await api('PATCH', '/api/v1/integrator', { default_callback_url: receiver.url });
    expect(set.status, set.text).toBe(200);
    expect(set.json.data.integrator.default_callback_url).toBe(receiver.url);
    expect((await api('GET', '/api/v1/integrator')).json.data.integrator.default_callback_url).toBe(receiver.url);
    const p = await createPayment(served.t, { callbackUrl: null });
    const [event] = await served.t.app.db.select().from(outboxEvents).where(eq(outboxEvents.type, 'payment.succeeded'));
    expect(event).toMatchObject({ callbackUrl: receiver.url, callbackState: 'pending' });
    expect(event!.data.transaction_id).toBe(p.id);
    const cleared = await api('PATCH', '/api/v1/integrator', { default_callback_url: null });
    expect(cleared.json.data.integrator.default_callback_url).toBeNull();
    await createPayment(served.t, { callbackUrl: null });
    const rows = await served.t.app.db.select().from(outboxEvents).where(eq(outboxEvents.type, 'payment.succeeded'));
    expect(rows.filter((r) => r.callbackUrl === null)).toHaveLength(1);
  });

  it('refuses a URL that is not public http(s), and unknown fields, with 422 naming the field', async () => {
    const ftp = await api('PATCH', '/api/v1/integrator', { default_callback_url: 'ftp://example.com/x' });
    expect(ftp.status).toBe(422);
    expect(ftp.json.messages.default_callback_url).toEqual(['must be an http:// or https:// URL']);
    const metadata = await api('PATCH', '/api/v1/integrator', { default_callback_url: 'http://169.254.169.254/latest' });
    expect(metadata.status).toBe(422);
    expect(metadata.json.messages.default_callback_url[0]).toMatch(/metadata/);
    const extra = await api('PATCH', '/api/v1/integrator', { name: 'Hacked' });
    expect(extra.status).toBe(422);
    expect(extra.json.messages.name).toEqual(['is not a recognised field']);
    expect((await api('GET', '/api/v1/integrator')).json.data.integrator.name).toBe('Acme Books');
  });
});

describe('events › resend', () => {
  it('delivers an event again as a new attempt with the same webhook-id, even after it was delivered', async () => {
    await deliverDue(); // what earlier tests queued
    const p = await createPayment(served.t, { callbackUrl: receiver.url });
    const [event] = await served.t.app.db.select().from(outboxEvents).where(eq(outboxEvents.callbackState, 'pending'));
    const before = receiver.received.length;
    await deliverDue();
    expect(receiver.received.length).toBe(before + 1);
    const res = await api('POST', `/api/v1/events/${event!.id}/resend`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toMatchObject({ status_code: 'OK.13.00', event_id: event!.id, callback_url: receiver.url, callback_state: 'pending', attempts: 1 });
    await deliverDue();
    expect(receiver.received.length).toBe(before + 2);
    const [first, second] = receiver.received.slice(before);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.body).toBe(first!.body);
    expect(JSON.parse(second!.body).data.transaction_id).toBe(p.id);
    const listed = await api('GET', `/api/v1/events?type=payment.succeeded&limit=100`);
    const view = listed.json.data.items.find((e: { id: string }) => e.id === event!.id);
    expect(view.callback).toMatchObject({ state: 'delivered', attempts: 2 });
    expect(view.callback.attempt_log.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2]);
  });

  it('refuses an event with nowhere to go (409 ER.13.30), another integrator’s event (404), and takes only POST', async () => {
    await createPayment(served.t, { callbackUrl: null });
    const [nowhere] = await served.t.app.db.select().from(outboxEvents).where(eq(outboxEvents.callbackState, 'no_destination'));
    const res = await api('POST', `/api/v1/events/${nowhere!.id}/resend`);
    expect(res.status).toBe(409);
    expect(res.json.data.status_code).toBe('ER.13.30');
    expect(res.json.messages.callback_url[0]).toMatch(/default_callback_url/);
    expect((await api('POST', `/api/v1/events/${nowhere!.id}/resend`, undefined, OTHER_TOKEN)).status).toBe(404);
    expect((await api('POST', '/api/v1/events/evt_nope/resend')).status).toBe(404);
    expect((await api('GET', `/api/v1/events/${nowhere!.id}/resend`)).status).toBe(405);
  });
});

describe('schedules › run now (sandbox)', () => {
  async function newSchedule() {
    const payload = await signSchedule(scheduleData({ route: { callback_url: receiver.url, notify_user: false } }), { iat: clock.now() });
    const res = await api('POST', '/api/v1/schedule', { payload });
    expect(res.json.data.status_code, res.text).toBe('OK.12.00');
    return res.json.data.reference as string;
  }

  it('charges the next occurrence now, once, with its events, and moves next_run_at on', async () => {
    const reference = await newSchedule();
    const before = (await api('GET', `/api/v1/schedules/${reference}`)).json.data.schedule;
    expect(before.customer).toMatchObject({ name: 'Juan Dela Cruz' });
    const res = await api('POST', `/api/v1/schedules/${reference}/run`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toMatchObject({ status_code: 'OK.12.10', reference, outcome: 'succeeded', due_at: before.next_run_at });
    const txn = await api('GET', `/api/v1/transactions/${res.json.data.transaction_id}`);
    expect(txn.json.data.transaction).toMatchObject({ status: 'succeeded', amount: '150.00', schedule_reference: reference, merchant_reference_id: 'order-1' });
    expect(txn.json.data.transaction.customer).toMatchObject({ name: 'Juan Dela Cruz' });
    expect(txn.json.data.transaction.card).toMatchObject({ brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 });
    const after = (await api('GET', `/api/v1/schedules/${reference}`)).json.data.schedule;
    expect(after.next_run_at > before.next_run_at).toBe(true);
    expect(after.runs).toHaveLength(1);
    const events = await served.t.app.db.select().from(outboxEvents).where(eq(outboxEvents.type, 'schedule.charge_succeeded'));
    expect(events.filter((e) => e.data.schedule_reference === reference)).toHaveLength(1);
    // The same request again with its Idempotency-Key replays; without one, it charges the following occurrence.
    const key = { 'idempotency-key': `run-${reference}` };
    const a = await call(served.server.url, 'POST', `/api/v1/schedules/${reference}/run`, { headers: key });
    const b = await call(served.server.url, 'POST', `/api/v1/schedules/${reference}/run`, { headers: key });
    expect(b.json.data.transaction_id).toBe(a.json.data.transaction_id);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    const charged = await served.t.app.db.select().from(payments).where(eq(payments.amountMinor, 15000n));
    expect(charged.filter((p) => p.scheduleRunId)).toHaveLength(2);
  });

  it('refuses a cancelled schedule (409 ER.12.33), another integrator’s (404), and any acquirer but the sandbox (409 ER.12.32)', async () => {
    const reference = await newSchedule();
    await api('DELETE', '/api/v1/schedule', { reference });
    const res = await api('POST', `/api/v1/schedules/${reference}/run`);
    expect(res.status).toBe(409);
    expect(res.json.data.status_code).toBe('ER.12.33');
    expect((await api('POST', `/api/v1/schedules/${reference}/run`, undefined, OTHER_TOKEN)).status).toBe(404);
    const live = await newSchedule();
    // The integrator's connector stops allowing it (as a real provider's does: runSchedulesNow false).
    const sandbox = served.t.app.connectors.sandbox;
    const saved = sandbox.capabilities;
    Object.defineProperty(sandbox, 'capabilities', { value: { ...saved, runSchedulesNow: false }, configurable: true, writable: true });
    try {
      const refused = await api('POST', `/api/v1/schedules/${live}/run`);
      expect(refused.status).toBe(409);
      expect(refused.json.data.status_code).toBe('ER.12.32');
    } finally {
      Object.defineProperty(sandbox, 'capabilities', { value: saved, configurable: true, writable: true });
    }
    expect((await api('GET', `/api/v1/schedules/${live}`)).json.data.schedule.runs).toEqual([]);
  });
});

describe('request log', () => {
  it('writes one info line per request: method, route pattern, status, duration, request id, integrator; never the query, body or token', async () => {
    const logs = served.t.logs;
    const from = logs.length;
    const res = await call(served.server.url, 'GET', '/api/v1/transactions?customer_email=secret.person@example.com&limit=5');
    expect(res.status).toBe(200);
    const failed = await call(served.server.url, 'POST', '/api/v1/refund', { body: { transaction_id: 'txn_x', reason: 'Juan Dela Cruz', notify_user: false } });
    expect(failed.status).toBe(404);
    await call(served.server.url, 'GET', '/api/v1/integrator', { token: null });
    await new Promise((r) => setTimeout(r, 50));
    const lines = logs
      .slice(from)
      .map((l) => JSON.parse(l))
      .filter((l) => l.msg === 'request');
    expect(lines).toHaveLength(3);
    const [list, refund, anonymous] = lines;
    expect(list).toMatchObject({ level: 'info', method: 'GET', route: '/api/v1/transactions', status: 200, request_id: res.headers.get('x-request-id') });
    expect(typeof list.duration_ms).toBe('number');
    expect(list.integrator_id).toMatch(/\S/);
    expect(refund).toMatchObject({ method: 'POST', route: '/api/v1/refund', status: 404, integrator_id: list.integrator_id });
    expect(anonymous).toMatchObject({ route: '/api/v1/integrator', status: 401, integrator_id: null });
    const text = logs.slice(from).join('\n');
    for (const secret of ['secret.person', 'customer_email', TEST_TOKEN, 'Juan Dela Cruz', 'txn_x']) expect(text).not.toContain(secret);
  });

  it('names a route by its pattern, not by the ids in the path', async () => {
    const logs = served.t.logs;
    const from = logs.length;
    const p = await createPayment(served.t, { card: CARDS.visa });
    await call(served.server.url, 'GET', `/api/v1/transactions/${p.id}`);
    await new Promise((r) => setTimeout(r, 50));
    const line = logs
      .slice(from)
      .map((l) => JSON.parse(l))
      .find((l) => l.msg === 'request');
    expect(line.route).toBe('/api/v1/transactions/[id]');
    expect(logs.slice(from).join('\n')).not.toContain(p.id);
  });
});
