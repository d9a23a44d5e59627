import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { outboxEvents, schedules } from '../../../src/db/schema.ts';
import { call, OTHER_SECRET, OTHER_TOKEN, provision, useServedApp } from '../../support/app.ts';
import { CARD_EXPIRY } from '../../support/cards.ts';
import { ACME_CARD, OTHER_CARD, scheduleData, signSchedule, testClock } from '../../support/schedules.ts';

const clock = testClock('2026-03-02T00:00:30.000Z');

const served = useServedApp({ now: clock.now });

const schedule = async (data: Record<string, unknown>, opts: { token?: string; secret?: string; headers?: Record<string, string> } = {}) =>
  call(served.server.url, 'POST', '/api/v1/schedule', {
    body: { payload: await signSchedule(data, { secret: opts.secret, iat: clock.now() }) },
    token: opts.token,
    headers: opts.headers,
  });

describe('schedule › POST /api/v1/schedule', () => {
  it('creates a schedule from an HS256 JWT and answers OK.12.00 with its reference', async () => {
    const res = await schedule(scheduleData());
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      status: 200,
      path: '/api/v1/schedule',
      data: { status_code: 'OK.12.00', status_description: 'Payment scheduling successful' },
    });
    expect(res.json.data.reference).toMatch(/^sch_[0-9a-f]{32}$/);
  });

  it('answers the same JWT presented again with the first reply and never creates a second schedule', async () => {
    const payload = await signSchedule(scheduleData({ payment: { amount: '99.50', currency: 'PHP' } }), { iat: clock.now() });
    const first = await call(served.server.url, 'POST', '/api/v1/schedule', { body: { payload } });
    const again = await call(served.server.url, 'POST', '/api/v1/schedule', { body: { payload } });
    expect(first.json.data.status_code).toBe('OK.12.00');
    expect(again.json.data).toEqual(first.json.data);
    const rows = await served.t.app.db.select().from(schedules).where(eq(schedules.id, first.json.data.reference));
    expect(rows).toHaveLength(1);
    const all = await served.t.app.db.select({ id: schedules.id }).from(schedules).where(eq(schedules.amountMinor, 9950n));
    expect(all).toHaveLength(1);
  });

  it('replays the first reply for a repeated Idempotency-Key', async () => {
    const payload = await signSchedule(scheduleData({ payment: { amount: 12, currency: 'PHP' } }), { iat: clock.now() });
    const headers = { 'idempotency-key': 'sched-key-1' };
    const first = await call(served.server.url, 'POST', '/api/v1/schedule', { body: { payload }, headers });
    const again = await call(served.server.url, 'POST', '/api/v1/schedule', { body: { payload }, headers });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json.data.reference).toBe(first.json.data.reference);
  });

  it('rejects a JWT signed with alg none (ER.01.10)', async () => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const res = await call(served.server.url, 'POST', '/api/v1/schedule', { body: { payload: `${b64({ alg: 'none' })}.${b64({ data: scheduleData() })}.` } });
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ data: { status_code: 'ER.01.10' }, messages: { payload: [expect.stringMatching(/HS256/)] } });
  });

  it("rejects a JWT signed with another integrator's secret", async () => {
    const res = await schedule(scheduleData(), { secret: OTHER_SECRET });
    expect(res.status).toBe(422);
    expect(res.json.data.status_code).toBe('ER.01.10');
    expect(res.json.messages.payload[0]).toMatch(/signature does not match/);
  });

  it('rejects an expired JWT', async () => {
    const payload = await signSchedule(scheduleData(), { claims: { exp: Math.floor(clock.now().getTime() / 1000) - 3600 } });
    const res = await call(served.server.url, 'POST', '/api/v1/schedule', { body: { payload } });
    expect(res.json).toMatchObject({ status: 422, data: { status_code: 'ER.01.10' }, messages: { payload: [expect.stringMatching(/expired/)] } });
  });

  it('answers an unknown card reference with the spec sample: 422, ER.02.30, messages.reference "… does not exist"', async () => {
    const res = await schedule(scheduleData({ credit_card: { reference: '11111111-2222-4333-8444-555555555555' } }));
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({
      status: 422,
      message: 'Unprocessable Entity',
      data: { status_code: 'ER.02.30', status_description: 'Invalid client request due to invalid parameters' },
    });
    expect(res.json.messages.reference).toEqual([expect.stringMatching(/does not exist$/)]);
  });

  it("answers another integrator's card, a malformed reference and a pending registration the same way", async () => {
    const foreign = await schedule(scheduleData({ credit_card: { reference: OTHER_CARD } }));
    expect(foreign.status).toBe(422);
    expect(foreign.json.messages.reference[0]).toMatch(/does not exist/);
    const malformed = await schedule(scheduleData({ credit_card: { reference: 'card-123' } }));
    expect(malformed.json.messages.reference[0]).toMatch(/does not exist/);
    const pending = await call(served.server.url, 'POST', '/api/v1/card-registrations', { body: { customer: { name: 'Ana' } } });
    const res = await schedule(scheduleData({ credit_card: { reference: pending.json.data.reference } }));
    expect(res.status).toBe(422);
    expect(res.json.messages.reference[0]).toMatch(/does not exist/);
  });

  it('answers bad fields with 422 ER.02.30 and their dotted paths', async () => {
    const res = await schedule(
      scheduleData({
        schedule: { second: '0', minute: '*', hour: '25', day_of_month: '*', month: '*', day_of_week: '*' },
        payment: { amount: '10.001', currency: 'PHP' },
        time_offset: '8',
        route: { callback_url: 'ftp://example.com', notify_user: false },
      }),
    );
    expect(res.status).toBe(422);
    expect(res.json.data.status_code).toBe('ER.02.30');
    expect(Object.keys(res.json.messages)).toEqual(expect.arrayContaining(['data.route.callback_url']));
    const second = await schedule(
      scheduleData({
        schedule: { second: '0', minute: '*', hour: '25', day_of_month: '*', month: '*', day_of_week: '*' },
        payment: { amount: '10.001', currency: 'PHP' },
        time_offset: '8',
      }),
    );
    expect(second.json.messages).toMatchObject({
      'data.schedule.hour': [expect.stringMatching(/0-23/)],
      'data.payment.amount': [expect.stringMatching(/at most 2 decimal places/)],
      'data.time_offset': [expect.stringMatching(/\+08:00/)],
    });
    const missing = await schedule({ credit_card: { reference: ACME_CARD } });
    expect(missing.json.messages).toMatchObject({
      'data.schedule': ['is required'],
      'data.payment': ['is required'],
      'data.time_offset': [expect.stringMatching(/required/)],
    });
  });

  it('rejects a pattern that fires more often than the minimum interval, and one that never fires, saying why', async () => {
    const often = await schedule(scheduleData({ schedule: { second: '*/10', minute: '*', hour: '*', day_of_month: '*', month: '*', day_of_week: '*' } }));
    expect(often.status).toBe(422);
    expect(often.json.messages['data.schedule'][0]).toMatch(/fires too often: two charges can be 10 seconds apart/);
    const never = await schedule(scheduleData({ schedule: { second: '0', minute: '0', hour: '0', day_of_month: '31', month: 'FEB', day_of_week: '*' } }));
    expect(never.json.messages['data.schedule'][0]).toMatch(/never fires/);
  });

  it('requires a payload', async () => {
    const res = await call(served.server.url, 'POST', '/api/v1/schedule', { body: {} });
    expect(res.status).toBe(422);
    expect(res.json.messages.payload[0]).toMatch(/required/);
  });
});

describe('schedule › GET /api/v1/schedules/{reference}', () => {
  it('shows the state, the recurrence as given and the next run time in the schedule offset', async () => {
    const data = scheduleData({ schedule: { second: 0, minute: '30', hour: '9', day_of_month: '*', month: 'JAN-DEC', day_of_week: 'MON-FRI' } });
    const created = await schedule(data);
    const res = await call(served.server.url, 'GET', `/api/v1/schedules/${created.json.data.reference}`);
    expect(res.status).toBe(200);
    expect(res.json.data.status_code).toBe('OK.00.00');
    expect(res.json.data.schedule).toMatchObject({
      reference: created.json.data.reference,
      status: 'active',
      recurrence: { second: '0', minute: '30', hour: '9', day_of_month: '*', month: 'JAN-DEC', day_of_week: 'MON-FRI' },
      time_offset: '+08:00',
      amount: '150.00',
      currency: 'PHP',
      card_registration_reference: ACME_CARD,
      // 2026-03-02 is a Monday; 00:00:30 UTC is 08:00:30 at +08:00, so 09:30 the same day.
      next_run_at: '2026-03-02T09:30:00.000+08:00',
      runs: [],
    });
  });

  it("does not show another integrator's schedule", async () => {
    const created = await schedule(scheduleData());
    const res = await call(served.server.url, 'GET', `/api/v1/schedules/${created.json.data.reference}`, { token: OTHER_TOKEN });
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ data: { status_code: 'ER.02.30' }, messages: { reference: [expect.stringMatching(/does not exist/)] } });
  });
});

describe('schedule › DELETE /api/v1/schedule', () => {
  it('cancels a schedule by its reference, and cancelling twice is harmless and says so', async () => {
    const created = await schedule(scheduleData());
    const reference = created.json.data.reference;
    const first = await call(served.server.url, 'DELETE', '/api/v1/schedule', { body: { reference } });
    expect(first.status).toBe(200);
    expect(first.json.data).toMatchObject({ status_code: 'OK.12.20', reference });
    const again = await call(served.server.url, 'DELETE', '/api/v1/schedule', { body: { reference } });
    expect(again.status).toBe(200);
    expect(again.json.data.status_code).toBe('OK.12.21');
    const shown = await call(served.server.url, 'GET', `/api/v1/schedules/${reference}`);
    expect(shown.json.data.schedule).toMatchObject({ status: 'cancelled', next_run_at: null });
    const events = await served.t.app.db
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.type, 'schedule.cancelled')));
    expect(events.filter((e) => e.data.schedule_reference === reference)).toHaveLength(1);
  });

  it("answers an unknown or another integrator's reference with 404 ER.02.30 and messages.reference", async () => {
    const created = await schedule(scheduleData());
    for (const [reference, token] of [
      ['sch_00000000000000000000000000000000', undefined],
      [created.json.data.reference, OTHER_TOKEN],
      [OTHER_CARD, undefined],
      ['nonsense', undefined],
    ] as const) {
      const res = await call(served.server.url, 'DELETE', '/api/v1/schedule', { body: { reference }, token });
      expect(res.status).toBe(404);
      expect(res.json).toMatchObject({ status: 404, data: { status_code: 'ER.02.30' }, messages: { reference: [expect.stringMatching(/does not exist/)] } });
    }
    const stillActive = await call(served.server.url, 'GET', `/api/v1/schedules/${created.json.data.reference}`);
    expect(stillActive.json.data.schedule.status).toBe('active');
  });

  it('with a card registration reference (the spec sample) deletes it and cancels its schedules (OK.11.20)', async () => {
    const seed = await provision(served.t, {
      integrators: [
        {
          name: 'Acme Books',
          email: 'billing@acme.example',
          token: 'test_token_acme_0123456789abcdefghijklmnop',
          secret: 'test_secret_acme_0123456789abcdefghijklmnop',
          refund_capabilities: {},
          links: [],
          users: [],
          cards: [{ reference: '7a7a7a7a-1111-4222-8333-444455556666', number: '4242424242424242', expiry: CARD_EXPIRY }],
        },
      ],
    });
    expect(seed.cards).toBe(1);
    const card = '7a7a7a7a-1111-4222-8333-444455556666';
    const a = await schedule(scheduleData({ credit_card: { reference: card } }));
    const b = await schedule(scheduleData({ credit_card: { reference: card }, payment: { amount: 1, currency: 'PHP' } }));
    const res = await call(served.server.url, 'DELETE', '/api/v1/schedule', { body: { reference: card } });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ status_code: 'OK.11.20', status_description: 'Card registration deletion successful', reference: card });
    expect(res.json.data.timestamp).toEqual(expect.any(String));
    for (const ref of [a, b].map((r) => r.json.data.reference)) {
      expect((await call(served.server.url, 'GET', `/api/v1/schedules/${ref}`)).json.data.schedule.status).toBe('cancelled');
    }
    const again = await call(served.server.url, 'DELETE', '/api/v1/card-registration', { body: { reference: card } });
    expect(again.json.data.status_code).toBe('OK.11.21');
    const reuse = await schedule(scheduleData({ credit_card: { reference: card } }));
    expect(reuse.status).toBe(422);
    expect(reuse.json.messages.reference[0]).toMatch(/does not exist/);
  });

  it('refuses other methods with 405', async () => {
    const res = await call(served.server.url, 'PUT', '/api/v1/schedule', { body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, DELETE');
  });
});
