import type { APIContext } from 'astro';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiEndpoint } from '../../../src/api/endpoint.ts';
import { claimKey, completeKey, purgeExpiredKeys } from '../../../src/api/idempotency.ts';
import { DomainError } from '../../../src/domain/errors.ts';
import { createTestApp, OTHER_TOKEN, provision, TEST_TOKEN, type TestApp } from '../../support/app.ts';
import { testClock } from '../../support/schedules.ts';
import { recordStatusCode } from '../../support/status-codes-seen.ts';

/**
 * The API plumbing every /api/v1 route is built with, exercised through apiEndpoint with real
 * Requests and a real database: body limits and types, validation messages, Idempotency-Key.
 */
let t: TestApp;
let runs = 0;
let release: (() => void) | undefined;

const echo = apiEndpoint({
  body: z.object({ amount: z.union([z.string(), z.number()]), note: z.string().max(5).optional() }).strict(),
  run: async ({ body, integrator }) => {
    runs++;
    if (release) await new Promise<void>((resolve) => (release = resolve));
    return { code: 'OK.00.00', data: { amount: body.amount, integrator: integrator.name, run: runs } };
  },
});
let refusals = 0;
const refuse = apiEndpoint({
  body: z.looseObject({}),
  run: async () => {
    refusals++;
    throw new DomainError('ER.20.20', 'already refunded');
  },
});
const crash = apiEndpoint({
  body: z.looseObject({}),
  run: async () => {
    throw new Error('secret database password leaked in message');
  },
});

function invoke(route: typeof echo, opts: { body?: string; headers?: Record<string, string>; method?: string; app?: TestApp } = {}) {
  const url = new URL('http://127.0.0.1/api/v1/echo');
  const request = new Request(url, {
    method: opts.method ?? 'POST',
    headers: { authorization: TEST_TOKEN, 'content-type': 'application/json', ...opts.headers },
    body: opts.body,
  });
  const context = { locals: { paylink: (opts.app ?? t).app, requestId: 'req_test' }, url, request, params: {} } as unknown as APIContext;
  return Promise.resolve(route(context)).then(async (res) => {
    const json = await res.json();
    recordStatusCode(json);
    return { status: res.status, headers: res.headers, json };
  });
}

beforeAll(async () => {
  t = await createTestApp();
  await provision(t);
});
afterAll(() => t?.close());

describe('api plumbing › request bodies', () => {
  it('rejects malformed JSON with 400 ER.02.31', async () => {
    const res = await invoke(echo, { body: '{"amount": 1,' });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      status: 400,
      message: 'Bad Request',
      data: { status_code: 'ER.02.31' },
      messages: { '(body)': [expect.stringContaining('not valid JSON')] },
    });
  });

  it('rejects a JSON body that is not an object with 400', async () => {
    expect((await invoke(echo, { body: '[1,2]' })).status).toBe(400);
    expect((await invoke(echo, { body: '' })).status).toBe(400);
  });

  it('rejects a non-JSON content type with 415 ER.02.32', async () => {
    const res = await invoke(echo, { body: 'amount=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(415);
    expect(res.json.data.status_code).toBe('ER.02.32');
  });

  it('accepts a body without Content-Type (JSON is the default, spec §4)', async () => {
    const url = new URL('http://127.0.0.1/api/v1/echo');
    const request = new Request(url, { method: 'POST', headers: { authorization: TEST_TOKEN }, body: new TextEncoder().encode('{"amount":"1.00"}') });
    const res = await echo({ locals: { paylink: t.app, requestId: 'r' }, url, request, params: {} } as unknown as APIContext);
    expect(res.status).toBe(200);
  });

  it('rejects a body over 64 KiB with 413 ER.02.33, whether or not Content-Length says so', async () => {
    const big = JSON.stringify({ amount: 'x'.repeat(70 * 1024) });
    const res = await invoke(echo, { body: big });
    expect(res.status).toBe(413);
    expect(res.json.data.status_code).toBe('ER.02.33');
    const streamed = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const url = new URL('http://127.0.0.1/api/v1/echo');
    const request = new Request(url, { method: 'POST', headers: { authorization: TEST_TOKEN }, body: streamed, duplex: 'half' } as RequestInit);
    const res2 = await echo({ locals: { paylink: t.app, requestId: 'r' }, url, request, params: {} } as unknown as APIContext);
    expect(res2.status).toBe(413);
  });

  it('answers invalid fields with 422 ER.02.30 and dotted-path messages', async () => {
    const res = await invoke(echo, { body: JSON.stringify({ note: 'too long', extra: 1 }) });
    expect(res.status).toBe(422);
    expect(res.json.data.status_code).toBe('ER.02.30');
    expect(Object.keys(res.json.messages).sort()).toEqual(['amount', 'extra', 'note']);
  });

  it('turns an unexpected failure into a 500 envelope with a request id and no internals', async () => {
    const res = await invoke(crash, { body: '{}' });
    expect(res.status).toBe(500);
    expect(res.json).toMatchObject({ status: 500, data: { status_code: 'ER.99.00', request_id: 'req_test' } });
    expect(JSON.stringify(res.json)).not.toContain('password');
    expect(JSON.stringify(res.json)).not.toMatch(/at .*\.ts:\d+/);
    expect(t.logs.some((l) => l.includes('request failed') && l.includes('req_test'))).toBe(true);
  });
});

describe('api plumbing › Idempotency-Key', () => {
  it('lets a claim whose holder crashed be taken over once its lock lapses, and purges keys past their expiry', async () => {
    const key = { scope: 'crash-scope', key: 'k-takeover', method: 'POST', path: '/api/v1/refund', requestHash: 'h1', ttlSeconds: 3600 };
    const at = (seconds: number) => new Date(Date.parse('2026-03-02T00:00:00.000Z') + seconds * 1000);
    expect(await claimKey(t.app.db, { ...key, now: at(0) })).toEqual({ kind: 'claimed' });
    // The holder never finishes (nor renews): within its 10 s lease a retry waits, after it the retry takes over.
    expect(await claimKey(t.app.db, { ...key, now: at(9) })).toEqual({ kind: 'running', retryAfterSeconds: 1 });
    expect(await claimKey(t.app.db, { ...key, now: at(11) })).toEqual({ kind: 'claimed' });
    expect(await claimKey(t.app.db, { ...key, now: at(12) })).toEqual({ kind: 'running', retryAfterSeconds: 9 });
    await completeKey(t.app.db, { scope: key.scope, key: key.key, status: 200, body: '{"ok":true}' });
    expect(await claimKey(t.app.db, { ...key, now: at(63) })).toEqual({ kind: 'replay', status: 200, body: '{"ok":true}' });
    expect(await claimKey(t.app.db, { ...key, requestHash: 'h2', now: at(64) })).toEqual({ kind: 'mismatch' });
    expect(await purgeExpiredKeys(t.app.db, at(3600))).toBe(0);
    expect(await purgeExpiredKeys(t.app.db, at(3601))).toBe(1);
    expect(await claimKey(t.app.db, { ...key, requestHash: 'h2', now: at(3602) })).toEqual({ kind: 'claimed' });
  });

  it('forgets a key PAYLINK_IDEMPOTENCY_TTL_SECONDS after its first use: the same request then runs again', async () => {
    const clock = testClock('2026-03-02T00:00:00.000Z');
    const short = await createTestApp({ env: { PAYLINK_IDEMPOTENCY_TTL_SECONDS: '60' }, now: clock.now });
    try {
      await provision(short);
      const send = () => invoke(echo, { body: '{"amount":"9.00"}', headers: { 'idempotency-key': 'k-ttl' }, app: short });
      const before = runs;
      const first = await send();
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      clock.advance(60);
      const within = await send();
      expect(within.headers.get('idempotent-replayed')).toBe('true');
      expect(within.json).toEqual(first.json);
      // A replay carries its length too, as the first answer did (the compression threshold needs it).
      expect(Number(within.headers.get('content-length'))).toBeGreaterThan(0);
      expect(within.headers.get('content-length')).toBe(first.headers.get('content-length'));
      expect(runs - before).toBe(1);
      clock.advance(1);
      const after = await send();
      expect(after.headers.get('idempotent-replayed')).toBeNull();
      expect(after.json.data.run).toBe(first.json.data.run + 1);
      expect(runs - before).toBe(2);
    } finally {
      await short.close();
    }
  });

  it('replays the first response for a retried request and runs it once', async () => {
    const before = runs;
    const first = await invoke(echo, { body: '{"amount":"5.00"}', headers: { 'idempotency-key': 'k-replay' } });
    const second = await invoke(echo, { body: '{"amount":"5.00"}', headers: { 'idempotency-key': 'k-replay' } });
    expect(first.status).toBe(200);
    expect(second.json).toEqual(first.json);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(runs - before).toBe(1);
  });

  it('rejects the same key with a different body with 422 ER.02.40', async () => {
    await invoke(echo, { body: '{"amount":"5.00"}', headers: { 'idempotency-key': 'k-mismatch' } });
    const res = await invoke(echo, { body: '{"amount":"6.00"}', headers: { 'idempotency-key': 'k-mismatch' } });
    expect(res.status).toBe(422);
    expect(res.json.data.status_code).toBe('ER.02.40');
  });

  it('answers 409 ER.02.41 while the first request with the key is still running', async () => {
    const holdMarker = () => {};
    release = holdMarker; // makes the next run() wait until release() is called
    const first = invoke(echo, { body: '{"amount":"7.00"}', headers: { 'idempotency-key': 'k-inflight' } });
    while (release === holdMarker) await new Promise((r) => setTimeout(r, 5)); // first is inside run()
    const second = await invoke(echo, { body: '{"amount":"7.00"}', headers: { 'idempotency-key': 'k-inflight' } });
    expect(second.status).toBe(409);
    expect(second.json.data.status_code).toBe('ER.02.41');
    const finish = release!;
    release = undefined;
    finish();
    expect((await first).status).toBe(200);
    const third = await invoke(echo, { body: '{"amount":"7.00"}', headers: { 'idempotency-key': 'k-inflight' } });
    expect(third.headers.get('idempotent-replayed')).toBe('true');
  });

  it('keeps keys per integrator', async () => {
    const mine = await invoke(echo, { body: '{"amount":"8.00"}', headers: { 'idempotency-key': 'k-shared' } });
    const theirs = await invoke(echo, { body: '{"amount":"8.00"}', headers: { 'idempotency-key': 'k-shared', authorization: OTHER_TOKEN } });
    expect(mine.json.data.integrator).toBe('Acme Books');
    expect(theirs.json.data.integrator).toBe('Other Shop');
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
  });

  it('stores and replays a business refusal raised while running, without running it again', async () => {
    const first = await invoke(refuse, { body: '{}', headers: { 'idempotency-key': 'k-refuse' } });
    const second = await invoke(refuse, { body: '{}', headers: { 'idempotency-key': 'k-refuse' } });
    expect(first.status).toBe(200);
    expect(first.json.data.status_code).toBe('ER.20.20');
    expect(second.json).toEqual(first.json);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(refusals).toBe(1);
  });

  it('lets a request that failed unexpectedly be retried with the same key', async () => {
    const first = await invoke(crash, { body: '{}', headers: { 'idempotency-key': 'k-crash' } });
    const second = await invoke(crash, { body: '{}', headers: { 'idempotency-key': 'k-crash' } });
    expect(first.status).toBe(500);
    expect(second.status).toBe(500);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
  });

  it('rejects an over-long key with 400 ER.02.42', async () => {
    const res = await invoke(echo, { body: '{"amount":"1.00"}', headers: { 'idempotency-key': 'k'.repeat(256) } });
    expect(res.status).toBe(400);
    expect(res.json.data.status_code).toBe('ER.02.42');
  });
});
