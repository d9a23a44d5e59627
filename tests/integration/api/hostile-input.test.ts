import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { cardRegistrations, checkoutSessions, schedules } from '../../../src/db/schema.ts';
import { call, TEST_TOKEN, useServedApp } from '../../support/app.ts';
import { chunkedJsonRequest, getRequest, rawExchange } from '../../support/raw-http.ts';
import { scheduleData, signSchedule } from '../../support/schedules.ts';

/**
 * What a fuzzer found answered with a 500 or a reset: every such input is a 4xx envelope
 * naming the field, changes nothing, and logs no customer data. (The property tests in
 * tests/integration/api/fuzz.test.ts throw thousands of generated bodies at the same endpoints.)
 */
const served = useServedApp();
const url = () => served.server.url;

const post = (path: string, body: unknown, token: string | null = TEST_TOKEN) => call(url(), 'POST', path, { body, token });
const scheduleWith = async (data: Record<string, unknown>) => post('/api/v1/schedule', { payload: await signSchedule(data) });

/** Every endpoint that takes a body, with a body it would otherwise accept (or at least read). */
const endpoints: Array<{ name: string; method: string; path: string; token: string | null; body: Record<string, unknown> }> = [
  { name: 'refund', method: 'POST', path: '/api/v1/refund', token: TEST_TOKEN, body: { transaction_id: 'txn_x', notify_user: 'false', reason: 'r' } },
  { name: 'schedule', method: 'POST', path: '/api/v1/schedule', token: TEST_TOKEN, body: { payload: 'a.b.c' } },
  { name: 'cancel', method: 'DELETE', path: '/api/v1/schedule', token: TEST_TOKEN, body: { reference: 'sch_x' } },
  { name: 'card registration', method: 'POST', path: '/api/v1/card-registrations', token: TEST_TOKEN, body: {} },
  { name: 'dynamic link', method: 'POST', path: '/pay/acme-books', token: null, body: { key: TEST_TOKEN } },
];

describe('hostile input › prototype property names', () => {
  for (const { name, method, path, token, body } of endpoints) {
    it(`${name}: a top-level key named like a built-in property is an unknown field (422), not a crash`, async () => {
      for (const key of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf', '__defineGetter__']) {
        // Written by hand: `__proto__` in an object literal would set the prototype, not a key.
        const rest = JSON.stringify(body).slice(1);
        const res = await call(url(), method, path, { raw: `{${JSON.stringify(key)}: 1${rest === '}' ? '' : ', '}${rest}`, token });
        expect(res.status, `${key}: ${res.text}`).toBe(422);
        expect(res.json.data.status_code).toBe('ER.02.30');
        expect(Object.keys(res.json.messages)).toContain(key);
      }
    });
  }
});

describe('hostile input › callback URLs that new URL() refuses', () => {
  const bad = ['not a url', 'http://a:99999/', 'http://256.256.256.256/', 'http://[fe80::1%25eth0]/', 'http://', 'https://[::1/'];

  it('card registration: 422 naming callback_url (and return_url)', async () => {
    for (const value of bad) {
      const res = await post('/api/v1/card-registrations', { callback_url: value, return_url: value });
      expect(res.status, `${value}: ${res.text}`).toBe(422);
      expect(res.json.messages.callback_url).toEqual(['must be an http:// or https:// URL']);
      expect(res.json.messages.return_url).toEqual(['must be an http:// or https:// URL']);
    }
  });

  it('dynamic link: 422 naming route.callback_url', async () => {
    for (const value of bad) {
      const res = await post('/pay/acme-books', { key: TEST_TOKEN, route: { callback_url: value } }, null);
      expect(res.status, `${value}: ${res.text}`).toBe(422);
      expect(res.json.messages['route.callback_url']).toBeDefined();
    }
  });

  it('schedule: 422 naming data.route.callback_url', async () => {
    for (const value of bad) {
      const res = await scheduleWith(scheduleData({ route: { callback_url: value, notify_user: false } }));
      expect(res.status, `${value}: ${res.text}`).toBe(422);
      expect(res.json.messages['data.route.callback_url']).toBeDefined();
    }
  });
});

describe('hostile input › text a database cannot store', () => {
  const customer = { name: 'Juana Lunacruz', email: 'juana.lunacruz@example.com' };

  for (const [label, evil] of [
    ['a NUL character', 'Juana\u0000Lunacruz'],
    ['an unpaired high surrogate', 'Juana \ud800 Lunacruz'],
    ['an unpaired low surrogate', '\udc00Juana'],
  ] as const) {
    it(`${label} in any string is a 422 naming the field, stores nothing and logs no customer data`, async () => {
      const { app, logs } = served.t;
      const registrationsBefore = (await app.db.select({ n: count() }).from(cardRegistrations))[0]!.n;
      const sessionsBefore = (await app.db.select({ n: count() }).from(checkoutSessions))[0]!.n;
      const logLinesBefore = logs.length;

      const registration = await post('/api/v1/card-registrations', { customer: { ...customer, name: evil } });
      expect(registration.status, registration.text).toBe(422);
      expect(registration.json.messages['customer.name']).toEqual([expect.stringMatching(/NUL|surrogate/)]);

      const link = await post('/pay/acme-books', { key: TEST_TOKEN, customer: { first_name: evil, contact: { email: customer.email } } }, null);
      expect(link.status, link.text).toBe(422);
      expect(link.json.messages['customer.first_name']).toBeDefined();

      const refund = await post('/api/v1/refund', { transaction_id: 'txn_1', notify_user: false, reason: evil });
      expect(refund.status).toBe(422);
      expect(refund.json.messages.reason).toBeDefined();

      const key = await post('/api/v1/card-registrations', { [evil]: customer.name });
      expect(key.status).toBe(422);

      const sched = await scheduleWith(scheduleData({ payment: { description: evil, amount: 150, currency: 'PHP' } }));
      expect(sched.status, sched.text).toBe(422);
      expect(sched.json.messages['data.payment.description']).toBeDefined();

      expect((await app.db.select({ n: count() }).from(cardRegistrations))[0]!.n).toBe(registrationsBefore);
      expect((await app.db.select({ n: count() }).from(checkoutSessions))[0]!.n).toBe(sessionsBefore);
      const newLogs = logs.slice(logLinesBefore).join('\n');
      expect(newLogs).not.toContain('"level":"error"');
      expect(newLogs).not.toMatch(/Juana|Lunacruz|juana\.lunacruz/);
    });
  }

  it('answers a path or query value the database cannot store with a 4xx, not a 500', async () => {
    for (const path of ['/api/v1/transactions/txn_%00', '/api/v1/schedules/sch_%ED%A0%80', '/api/v1/card-registrations/%00', '/api/v1/transactions/%ZZ']) {
      const res = await call(url(), 'GET', path);
      expect(res.status, `${path}: ${res.text}`).toBe(404);
      expect(res.json.data.status_code).toMatch(/^ER\.02\.3[04]$/);
    }
    for (const path of ['/pay/%00', '/pay/%ZZ', '/checkout/%00', '/register/%00']) expect((await fetch(url() + path)).status, path).toBe(404);
    const res = await call(url(), 'GET', '/api/v1/events?type=%00');
    expect(res.status).toBe(422);
    expect(res.json.messages.type).toBeDefined();
  });
});

describe('hostile input › bodies over the size limit', () => {
  it('answers a chunked body over 64 KiB with the 413 envelope and keeps the keep-alive connection usable', async () => {
    const { responses, reset } = await rawExchange(
      url(),
      [...chunkedJsonRequest('/api/v1/refund', 300 * 1024, { Authorization: TEST_TOKEN }), getRequest('/healthz')],
      {
        responses: 2,
      },
    );
    expect(reset).toBe(false);
    expect(responses.map((r) => r.status)).toEqual([413, 200]);
    expect(JSON.parse(responses[0]!.body).data.status_code).toBe('ER.02.33');
  });

  it('answers a body whose Content-Length is over 64 KiB with 413 and reads the next request on the connection correctly', async () => {
    const body = `{"reason":"${'y'.repeat(200 * 1024)}"}`;
    const head = `POST /api/v1/refund HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${TEST_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
    const { responses, reset } = await rawExchange(url(), [head, body, getRequest('/healthz')], { responses: 2 });
    expect(reset).toBe(false);
    expect(responses.map((r) => r.status)).toEqual([413, 200]);
  });

  it('answers several oversize requests in a row on one connection, each with the envelope', async () => {
    const chunks = [0, 1, 2].flatMap(() => chunkedJsonRequest('/api/v1/card-registrations', 100 * 1024, { Authorization: TEST_TOKEN }));
    const { responses, reset } = await rawExchange(url(), [...chunks, getRequest('/healthz')], { responses: 4 });
    expect(reset).toBe(false);
    expect(responses.map((r) => r.status)).toEqual([413, 413, 413, 200]);
  });
});

describe('hostile input › authentication comes before the body', () => {
  it('answers a request without a valid token with 401 whatever its body', async () => {
    for (const token of [null, 'not-a-real-token-but-long-enough']) {
      const headers: Record<string, string> = token ? { authorization: token } : {};
      const tooBig = await call(url(), 'POST', '/api/v1/refund', { raw: `{"reason":"${'z'.repeat(100 * 1024)}"}`, token: null, headers });
      const wrongType = await call(url(), 'POST', '/api/v1/refund', { raw: 'reason=x', token: null, headers: { ...headers, 'content-type': 'text/plain' } });
      const malformed = await call(url(), 'POST', '/api/v1/refund', { raw: '{"reason":', token: null, headers });
      expect([tooBig.status, wrongType.status, malformed.status]).toEqual([401, 401, 401]);
      expect(tooBig.json.data.status_code).toBe('ER.01.00');
    }
  });

  it('answers an oversize body with an unknown token over a raw connection with 401, and the connection stays usable', async () => {
    const { responses, reset } = await rawExchange(
      url(),
      [...chunkedJsonRequest('/api/v1/refund', 200 * 1024, { Authorization: 'unknown-token-0123456789abcdef' }), getRequest('/healthz')],
      { responses: 2 },
    );
    expect(reset).toBe(false);
    expect(responses.map((r) => r.status)).toEqual([401, 200]);
  });
});

describe('hostile input › callback URLs that would never be delivered', () => {
  // Test apps allow private callbacks (their receivers listen on 127.0.0.1): this app does not.
  const strict = useServedApp({ env: { PAYLINK_ALLOW_PRIVATE_CALLBACKS: '0' } });
  const refused = [
    'http://127.0.0.1:8080/hook',
    'http://localhost/hook',
    'http://api.localhost/hook',
    'http://10.1.2.3/hook',
    'http://192.168.0.10/hook',
    'http://[::1]/hook',
    'http://[fd00::1]/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://2130706433/hook', // 127.0.0.1 written as one number
    'http://[::ffff:127.0.0.1]/hook',
    'http://printer.local/hook',
  ];

  it('refuses them with 422 on card registrations, dynamic links and schedules, and creates nothing', async () => {
    const base = strict.server.url;
    for (const callback of refused) {
      const registration = await call(base, 'POST', '/api/v1/card-registrations', { body: { callback_url: callback } });
      expect(registration.status, `${callback}: ${registration.text}`).toBe(422);
      expect(registration.json.messages.callback_url).toEqual([expect.stringMatching(/public address|metadata/)]);
      const link = await call(base, 'POST', '/pay/acme-books', { token: null, body: { key: TEST_TOKEN, route: { callback_url: callback } } });
      expect(link.status, callback).toBe(422);
      expect(link.json.messages['route.callback_url']).toBeDefined();
      const payload = await signSchedule(scheduleData({ route: { callback_url: callback, notify_user: false } }));
      const sched = await call(base, 'POST', '/api/v1/schedule', { body: { payload } });
      expect(sched.status, callback).toBe(422);
      expect(sched.json.messages['data.route.callback_url']).toBeDefined();
    }
    const db = strict.t.app.db;
    expect((await db.select({ n: count() }).from(cardRegistrations))[0]!.n).toBe(2); // the seed's cards only
    expect((await db.select({ n: count() }).from(schedules))[0]!.n).toBe(0);
    expect((await db.select({ n: count() }).from(checkoutSessions).where(eq(checkoutSessions.kind, 'dynamic')))[0]!.n).toBe(0);
  });

  it('accepts a public callback URL', async () => {
    const res = await call(strict.server.url, 'POST', '/api/v1/card-registrations', { body: { callback_url: 'https://hooks.acme.example/paylink' } });
    expect(res.status, res.text).toBe(200);
  });

  it('with PAYLINK_ALLOW_PRIVATE_CALLBACKS=1 accepts private addresses but never a metadata address', async () => {
    const ok = await post('/api/v1/card-registrations', { callback_url: 'http://127.0.0.1:8080/hook' });
    expect(ok.status).toBe(200);
    for (const callback of ['http://169.254.169.254/latest/meta-data/', 'http://metadata.google.internal/']) {
      const res = await post('/api/v1/card-registrations', { callback_url: callback });
      expect(res.status, callback).toBe(422);
    }
  });
});
