import type { APIContext } from 'astro';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiEndpoint } from '../../../src/api/endpoint.ts';
import { claimKey, LEASE_RENEW_MS, LEASE_SECONDS } from '../../../src/api/idempotency.ts';
import { sha256Hex } from '../../../src/crypto.ts';
import { integrators } from '../../../src/db/schema.ts';
import { createTestApp, provision, TEST_TOKEN, type TestApp } from '../../support/app.ts';
import { testClock } from '../../support/schedules.ts';
import { recordStatusCode } from '../../support/status-codes-seen.ts';

/**
 * An `Idempotency-Key` claim is a lease: the live request renews it while it runs, so a retry
 * waits for a request that is still working (409 with Retry-After), and takes over the key of a
 * request whose process died within one lease (10 s), not a minute.
 */
const clock = testClock('2026-03-02T00:00:00.000Z');
let t: TestApp;
let runs = 0;
let hold: Promise<void> | undefined;

const echo = apiEndpoint({
  body: z.object({ amount: z.string() }).strict(),
  run: async ({ body }) => {
    runs++;
    await hold;
    return { code: 'OK.00.00', data: { amount: body.amount, run: runs } };
  },
});

async function invoke(body: string, key: string) {
  const url = new URL('http://127.0.0.1/api/v1/echo');
  const request = new Request(url, {
    method: 'POST',
    headers: { authorization: TEST_TOKEN, 'content-type': 'application/json', 'idempotency-key': key },
    body,
  });
  const context = { locals: { paylink: t.app, requestId: 'req_test' }, url, request, params: {} } as unknown as APIContext;
  const res = await echo(context);
  const json = await res.json();
  recordStatusCode(json);
  return { status: res.status, headers: res.headers, json };
}

let scope = '';
beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
  await provision(t);
  scope = (await t.app.db.select({ id: integrators.id }).from(integrators).where(eq(integrators.name, 'Acme Books')))[0]!.id;
});
afterAll(() => t?.close());

describe('idempotency › the claim is a lease', () => {
  it('after its holder crashed, a retry is told when to come back (409, Retry-After) and takes the key over once the lease lapses', async () => {
    const body = '{"amount":"1.00"}';
    // A process claimed the key and died before answering: nothing renews its claim.
    const claim = await claimKey(t.app.db, {
      scope,
      key: 'k-dead',
      method: 'POST',
      path: '/api/v1/echo',
      requestHash: sha256Hex(`POST\n/api/v1/echo\n${body}`),
      now: clock.now(),
      ttlSeconds: 86_400,
    });
    expect(claim).toEqual({ kind: 'claimed' });

    const first = await invoke(body, 'k-dead');
    expect(first.status).toBe(409);
    expect(first.json.data.status_code).toBe('ER.02.41');
    expect(first.headers.get('retry-after')).toBe(String(LEASE_SECONDS));
    clock.advance(LEASE_SECONDS - 4);
    const waiting = await invoke(body, 'k-dead');
    expect(waiting.status).toBe(409);
    expect(waiting.headers.get('retry-after')).toBe('4');
    expect(waiting.json.messages['idempotency-key'][0]).toMatch(/lapses in 4 s/);

    clock.advance(5);
    const before = runs;
    const retried = await invoke(body, 'k-dead');
    expect(retried.status).toBe(200);
    expect(runs - before).toBe(1);
    const replayed = await invoke(body, 'k-dead');
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
  });

  it('a live request renews its lease while it runs, so a retry long after one lease still waits instead of running it twice', async () => {
    let finish!: () => void;
    hold = new Promise<void>((resolve) => (finish = resolve));
    const body = '{"amount":"2.00"}';
    const before = runs;
    const slow = invoke(body, 'k-slow');
    while (runs === before) await new Promise((r) => setTimeout(r, 5)); // inside run()
    // Far past the first lease on the app's clock; then give the holder time to renew once.
    clock.advance(LEASE_SECONDS * 7);
    await new Promise((r) => setTimeout(r, LEASE_RENEW_MS + 500));
    const retry = await invoke(body, 'k-slow');
    expect(retry.status).toBe(409);
    expect(Number(retry.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(retry.headers.get('retry-after'))).toBeLessThanOrEqual(LEASE_SECONDS);
    hold = undefined;
    finish();
    expect((await slow).status).toBe(200);
    expect(runs - before).toBe(1);
    expect((await invoke(body, 'k-slow')).headers.get('idempotent-replayed')).toBe('true');
  }, 20_000);
});
