import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, TEST_TOKEN, useServedApp } from '../../support/app.ts';
import { CARD_EXPIRY } from '../../support/cards.ts';
import { chunkedBodies, FUZZ_RUNS, type FuzzBody, hostileBodies, mutatedObjects, oddMethods } from '../../support/fuzz.ts';
import { chunkedRequest, getRequest, rawExchange } from '../../support/raw-http.ts';
import { scheduleData, signSchedule } from '../../support/schedules.ts';

/**
 * Property: whatever body a client sends to an endpoint that takes one, paylink answers with a
 * 2xx or 4xx envelope (the dynamic link's success is its `{link}`), never a 5xx, never a reset
 * connection, and within a bounded time. FUZZ_RUNS bodies per endpoint (1,000 in `npm test`;
 * `npm run fuzz` runs many more). A failure prints the smallest body that breaks the property.
 */
const served = useServedApp();
const REQUEST_TIMEOUT_MS = 10_000;

const card = (number = '4242424242424242') => ({ number, expiry: CARD_EXPIRY, cvc: '123', name: 'Juan Dela Cruz' });
const fields = { 'customer.first_name': 'Juan', 'customer.last_name': 'Dela Cruz', 'customer.contact.email': 'juan@example.com' };

/** A session or registration the customer forms post to, replaced once it is paid, locked or gone. */
function renewable(create: () => Promise<string>) {
  const state = { value: '', create };
  return {
    get: () => state.value,
    async renew() {
      state.value = await state.create();
    },
  };
}
const checkout = renewable(async () => {
  const res = await call(served.server.url, 'POST', '/pay/acme-books', { token: null, body: { key: TEST_TOKEN } });
  return new URL(res.json.link).pathname.split('/')[2]!;
});
const ticket = renewable(async () => {
  const html = await (await fetch(`${served.server.url}/pay/acme-open`)).text();
  return /&quot;session&quot;:\[0,&quot;([^&]+)&quot;\]/.exec(html)![1]!;
});
const registration = renewable(async () => {
  const res = await call(served.server.url, 'POST', '/api/v1/card-registrations', { body: {} });
  return new URL(res.json.data.link).pathname.split('/')[2]!;
});

let transactionId = '';
let validPayload = '';
let promotionId = '';

beforeAll(async () => {
  await Promise.all([checkout.renew(), ticket.renew(), registration.renew()]);
  const paid = await call(served.server.url, 'POST', `/checkout/${checkout.get()}/pay`, { token: null, body: { fields, card: card() } });
  transactionId = paid.json.data.transaction_id;
  await checkout.renew();
  validPayload = await signSchedule(scheduleData());
  const promo = await call(served.server.url, 'POST', '/api/v1/promotions', { body: { code: 'FUZZ10', discount: { kind: 'percent', percent: 10 } } });
  promotionId = promo.json.data.promotion.id;
});

async function send(method: string, path: string, body: FuzzBody, headers: Record<string, string>) {
  const res = await fetch(served.server.url + path, {
    method,
    headers: { ...headers, ...(body.contentType ? { 'content-type': body.contentType } : {}) },
    body: new TextEncoder().encode(body.text),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await res.text();
  return { status: res.status, text };
}

/** The property every answer must have. */
function expectEnvelope(res: { status: number; text: string }, body: FuzzBody, opts: { linkOnSuccess?: boolean } = {}) {
  const context = `${res.status} ${res.text.slice(0, 300)}\nfor body ${body.text.slice(0, 300)}`;
  expect(res.status >= 200 && res.status < 500, context).toBe(true);
  const json = JSON.parse(res.text);
  if (opts.linkOnSuccess && res.status === 200) {
    expect(typeof json.link, context).toBe('string');
    return json;
  }
  expect(json.status, context).toBe(res.status);
  expect(json.data.status_code, context).toMatch(/^(OK|ER)\.\d\d\.\d\d$/);
  return json;
}

interface Target {
  name: string;
  method: string;
  path: () => string;
  valid: () => Record<string, unknown>;
  headers?: Record<string, string>;
  linkOnSuccess?: boolean;
  browser?: boolean;
  /** After an answer: renew the session it used when that session can take no more attempts. */
  after?: (status: number, code: string | undefined) => Promise<void>;
}

const renewWhenSpent = (session: ReturnType<typeof renewable>) => async (status: number, code: string | undefined) => {
  if (status === 409 || status === 410 || status === 429 || code === 'OK.03.00' || code === 'OK.11.00') await session.renew();
};

const auth = { authorization: TEST_TOKEN };
const targets: Target[] = [
  {
    name: 'POST /api/v1/refund',
    method: 'POST',
    path: () => '/api/v1/refund',
    headers: auth,
    valid: () => ({ transaction_id: transactionId, notify_user: 'false', reason: 'Customer asked', amount: '0.01' }),
  },
  { name: 'POST /api/v1/schedule', method: 'POST', path: () => '/api/v1/schedule', headers: auth, valid: () => ({ payload: validPayload }) },
  {
    name: 'DELETE /api/v1/schedule',
    method: 'DELETE',
    path: () => '/api/v1/schedule',
    headers: auth,
    valid: () => ({ reference: 'sch_0123456789abcdef0123456789abcdef' }),
  },
  {
    name: 'POST /api/v1/card-registrations',
    method: 'POST',
    path: () => '/api/v1/card-registrations',
    headers: auth,
    valid: () => ({
      customer: { name: 'Juan Dela Cruz', email: 'juan@example.com' },
      callback_url: 'https://hooks.acme.example/paylink',
      return_url: 'https://acme.example/done',
    }),
  },
  {
    name: 'POST /api/v1/promotions',
    method: 'POST',
    path: () => '/api/v1/promotions',
    headers: auth,
    valid: () => ({
      code: 'SPRING50',
      discount: { kind: 'fixed', amount: '50.00', currency: 'PHP' },
      valid_until: '2030-01-01T00:00:00+08:00',
      max_redemptions: 10,
    }),
  },
  {
    name: 'PATCH /api/v1/promotions/{id}',
    method: 'PATCH',
    path: () => `/api/v1/promotions/${promotionId}`,
    headers: auth,
    valid: () => ({ valid_from: '2027-01-01T00:00:00Z', max_redemptions: 5, link_ids: null, active: true }),
  },
  {
    name: 'POST /pay/{slug} (dynamic link)',
    method: 'POST',
    path: () => '/pay/acme-open',
    linkOnSuccess: true,
    valid: () => ({
      key: TEST_TOKEN,
      customer: { first_name: 'Juan', last_name: 'Dela Cruz', contact: { email: 'juan@example.com', mobile: '+639171234567' } },
      payment: { description: 'Order 42', amount: '120.00', currency: 'PHP', merchant_reference_id: 'ord-42' },
      route: { callback_url: 'https://hooks.acme.example/paylink', notify_user: true },
    }),
  },
  {
    name: 'POST /checkout/{token}/pay',
    method: 'POST',
    path: () => `/checkout/${checkout.get()}/pay`,
    browser: true,
    valid: () => ({ fields, card: card() }),
    after: renewWhenSpent(checkout),
  },
  {
    name: 'POST /pay/{slug}/pay (static link)',
    method: 'POST',
    path: () => '/pay/acme-open/pay',
    browser: true,
    valid: () => ({ session: ticket.get(), amount: '10.00', fields, card: card() }),
    after: renewWhenSpent(ticket),
  },
  {
    name: 'POST /register/{token}/card',
    method: 'POST',
    path: () => `/register/${registration.get()}/card`,
    browser: true,
    valid: () => ({ card: card() }),
    after: renewWhenSpent(registration),
  },
];

describe(`fuzz › ${FUZZ_RUNS} hostile bodies per endpoint: a 2xx or 4xx envelope, never a 5xx or a reset`, () => {
  for (const target of targets) {
    it(target.name, async () => {
      let seen = 0;
      await fc.assert(
        fc.asyncProperty(hostileBodies(target.valid, { otherContentTypes: !target.browser }), async (body) => {
          const res = await send(target.method, target.path(), body, target.headers ?? {});
          const json = expectEnvelope(res, body, target);
          seen++;
          await target.after?.(res.status, json?.data?.status_code);
        }),
        { numRuns: FUZZ_RUNS },
      );
      expect(seen).toBeGreaterThanOrEqual(FUZZ_RUNS);
    }, 600_000);
  }

  it('POST /api/v1/schedule with mutated signed data', async () => {
    await fc.assert(
      fc.asyncProperty(
        mutatedObjects(() => scheduleData()),
        async (data) => {
          // Nesting too deep for this side's JSON.stringify to sign is not a case to test.
          const payload = await signSchedule(data as Record<string, unknown>).catch(() => undefined);
          fc.pre(payload !== undefined);
          const body = { text: JSON.stringify({ payload: payload! }), contentType: 'application/json' };
          expectEnvelope(await send('POST', '/api/v1/schedule', body, auth), body);
        },
      ),
      { numRuns: FUZZ_RUNS },
    );
  }, 600_000);

  it('left nothing behind that fails: no error was logged', () => {
    const errors = served.t.logs.filter((line) => JSON.parse(line).level === 'error');
    expect(errors).toEqual([]);
  });
});

/**
 * What a client library would never send, on a raw socket: methods no route takes and bodies
 * sent chunked past every size limit. Each is a 4xx envelope (or the endpoint's own answer),
 * never a 5xx or a reset, and the keep-alive connection still reads the next request.
 */
describe('fuzz › raw requests: odd methods and chunked bodies', () => {
  const CHUNKED_RUNS = Math.max(20, Math.round(FUZZ_RUNS / 10));
  const anyPath = fc.constantFrom(
    ...targets.map((target) => target.path),
    () => '/api/v1/transactions/txn_x',
    () => '/pay/acme-books',
    () => '/console',
    () => '/favicon.svg',
    () => '/healthz',
    () => '/webhooks/paymongo/whk_x',
  );

  it('a method no route takes: the 405 envelope on any path', async () => {
    await fc.assert(
      fc.asyncProperty(oddMethods, anyPath, async (method, path) => {
        const { responses, reset } = await rawExchange(served.server.url, [
          `${method} ${path()} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${TEST_TOKEN}\r\n\r\n`,
        ]);
        const context = `${method} ${path()}: ${responses[0]?.status} ${responses[0]?.body.slice(0, 200)}`;
        expect(reset, context).toBe(false);
        expect(responses[0]?.status, context).toBe(405);
        expect(JSON.parse(responses[0]!.body).data.status_code, context).toBe('ER.02.35');
      }),
      { numRuns: FUZZ_RUNS },
    );
  }, 600_000);

  const chunkedTargets: Target[] = [
    ...targets,
    {
      name: 'POST /api/v1/links (1 MiB)',
      method: 'POST',
      path: () => '/api/v1/links',
      headers: auth,
      valid: () => ({ title: 'Spring sale', currency: 'PHP', amount: '499.50' }),
    },
    { name: 'POST /webhooks/{provider}/{id}', method: 'POST', path: () => '/webhooks/paymongo/whk_x', valid: () => ({ data: { id: 'evt_1' } }) },
  ];
  for (const target of chunkedTargets) {
    it(`${target.name}, chunked: a 2xx or 4xx envelope at any size, and the connection reads the next request`, async () => {
      await fc.assert(
        fc.asyncProperty(chunkedBodies(target.valid), async ({ body, chunkSize }) => {
          const headers = { ...target.headers, ...(body.contentType ? { 'Content-Type': body.contentType } : {}) };
          const request = chunkedRequest(target.method, target.path(), Buffer.from(body.text), headers, chunkSize);
          const { responses, reset } = await rawExchange(served.server.url, [...request, getRequest('/healthz')], {
            responses: 2,
            timeoutMs: REQUEST_TIMEOUT_MS,
          });
          const context = { status: responses[0]?.status ?? 0, text: responses[0]?.body ?? '(no answer)' };
          expect(reset, `reset after ${Buffer.byteLength(body.text)} bytes in chunks of ${chunkSize}`).toBe(false);
          const json = expectEnvelope(context, { ...body, text: `${Buffer.byteLength(body.text)} bytes: ${body.text.slice(0, 200)}` }, target);
          expect(responses[1]?.status, 'the next request on the connection').toBe(200);
          await target.after?.(context.status, json?.data?.status_code);
        }),
        { numRuns: CHUNKED_RUNS },
      );
    }, 600_000);
  }

  it('left nothing behind that fails: no error was logged', () => {
    expect(served.t.logs.filter((line) => JSON.parse(line).level === 'error')).toEqual([]);
  });
});
