import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../src/api/openapi/document.ts';
import { integratorAcquirers, integrators, links, schedules } from '../../../src/db/schema.ts';
import { issueStaticTicket } from '../../../src/domain/checkout/sessions.ts';
import { setAcquirer } from '../../../src/domain/integrators/acquirer.ts';
import { call, OTHER_TOKEN, TEST_TOKEN, useServedApp } from '../../support/app.ts';
import { CARD_EXPIRY } from '../../support/cards.ts';
import { browserPays, startFakePaymongo } from '../../support/fakes/paymongo.ts';
import { openApiValidator, templateOf } from '../../support/openapi.ts';
import { CARDS } from '../../support/payments.ts';
import { scheduleData, signSchedule } from '../../support/schedules.ts';

/**
 * The contract: real responses of every operation, successes and typical errors, checked
 * against the served OpenAPI document (status documented, body valid by the response's JSON
 * Schema). The document is fetched from the server itself, as a client would.
 */
const served = useServedApp();
const doc = openApiDocument();
const validator = openApiValidator(doc);
/** `method template` → HTTP statuses seen. */
const seen = new Map<string, Set<number>>();

async function contract(method: string, path: string, opts: Parameters<typeof call>[3] = {}) {
  const res = await call(served.server.url, method, path, opts);
  const template = templateOf(doc, method, path.split('?')[0]!);
  expect(template, `${method} ${path} is not in the document`).toBeDefined();
  expect(validator.response(method, template!, res.status, res.json), `${method} ${path} → ${res.status} ${res.text.slice(0, 400)}`).toEqual([]);
  const key = `${method.toLowerCase()} ${template}`;
  seen.set(key, (seen.get(key) ?? new Set()).add(res.status));
  return res;
}

const customer = { first_name: 'Ana', last_name: 'Reyes', contact: { email: 'ana@example.com' } };
const fields = { 'customer.first_name': 'Ana', 'customer.last_name': 'Reyes', 'customer.contact.email': 'ana@example.com' };
const card = (number: string = CARDS.visa) => ({ number, expiry: CARD_EXPIRY, cvc: '123', name: 'Ana Reyes' });

describe('openapi › contract: real responses match the document', () => {
  afterAll(() => {
    // Every documented operation was called and answered with a success at least once.
    const untested = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods)
        .map((m) => `${m} ${path}`)
        .filter((op) => ![...(seen.get(op) ?? [])].some((s) => s === 200)),
    );
    expect(untested).toEqual([]);
  });

  it('serves the document publicly and cacheably, equal to the generated one', async () => {
    const res = await contract('GET', '/api/v1/openapi.json', { token: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.json).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it('ping and integrator: success, a missing and an unknown token', async () => {
    expect((await contract('GET', '/api/v1/ping', { token: null })).status).toBe(200);
    expect((await contract('GET', '/api/v1/integrator')).json.data.integrator.name).toBe('Acme Books');
    expect((await contract('GET', '/api/v1/integrator', { token: null })).status).toBe(401);
    expect((await contract('GET', '/api/v1/integrator', { token: 'nobody' })).json.data.status_code).toBe('ER.01.00');
  });

  let transactionId = '';

  it('dynamic link, checkout and static link payments: success, decline, paid twice, bad key, unknown link, bad fields and bodies', async () => {
    const dynamic = await contract('POST', '/pay/acme-open', {
      token: null,
      body: { key: TEST_TOKEN, customer, payment: { amount: '250.00', description: 'Order 1' } },
    });
    expect(dynamic.status).toBe(200);
    const token = new URL(dynamic.json.link).pathname.split('/').pop()!;
    expect((await contract('POST', '/pay/acme-open', { token: null, body: { key: 'wrong', payment: { amount: 1 } } })).status).toBe(401);
    expect((await contract('POST', '/pay/no-such-link', { token: null, body: { key: TEST_TOKEN } })).status).toBe(404);
    expect((await contract('POST', '/pay/acme-open', { token: null, body: { key: TEST_TOKEN, payment: { amount: 'lots' } } })).status).toBe(422);
    expect((await contract('POST', '/pay/acme-open', { token: null, raw: '{"key":' })).status).toBe(400);
    expect((await contract('POST', '/pay/acme-open', { token: null, raw: 'key=x', headers: { 'content-type': 'text/plain' } })).status).toBe(415);

    const paid = await contract('POST', `/checkout/${token}/pay`, { token: null, body: { fields: {}, card: card() } });
    expect(paid.json.data.status_code, paid.text).toBe('OK.03.00');
    transactionId = paid.json.data.transaction_id;
    expect((await contract('POST', `/checkout/${token}/pay`, { token: null, body: { fields: {}, card: card() } })).status).toBe(409);
    expect((await contract('POST', '/checkout/no-such-token/pay', { token: null, body: { fields: {}, card: card() } })).status).toBe(404);
    expect(
      (await contract('POST', `/checkout/${token}/pay`, { token: null, body: { card: card(), fields: {} }, headers: { origin: 'https://evil.example' } }))
        .status,
    ).toBe(403);

    const second = await contract('POST', '/pay/acme-open', { token: null, body: { key: TEST_TOKEN, customer, payment: { amount: 10 } } });
    const declined = await contract('POST', `${new URL(second.json.link).pathname}/pay`, { token: null, body: { fields: {}, card: card(CARDS.declined) } });
    expect(declined.json.data.status_code).toBe('ER.03.30');
    expect((await contract('POST', `${new URL(second.json.link).pathname}/pay`, { token: null, body: { fields: {}, card: { number: '1' } } })).status).toBe(
      422,
    );

    const [link] = await served.t.app.db.select().from(links).where(eq(links.slug, 'acme-books'));
    const session = issueStaticTicket(served.t.app, link!.id);
    expect((await contract('POST', '/pay/acme-books/pay', { token: null, body: { session, fields, card: card() } })).json.data.status_code).toBe('OK.03.00');
    expect((await contract('POST', '/pay/acme-books/pay', { token: null, body: { session, fields, card: card() } })).status).toBe(409);
    // The running total of a page (a link that sells nothing has no lines to show).
    expect((await contract('POST', '/pay/acme-books/quote', { token: null, body: { tip: 'none' } })).json.data).toMatchObject({
      status_code: 'OK.00.00',
      say: {},
    });
    expect((await contract('POST', `${new URL(second.json.link).pathname}/quote`, { token: null, body: {} })).status).toBe(200);
    expect((await contract('POST', '/checkout/no-such-token/quote', { token: null, body: {} })).status).toBe(404);
  });

  it('refund and transaction: partial, too much, full, already refunded, unknown, invalid, idempotent replay and misuse', async () => {
    const refund = (body: unknown, headers: Record<string, string> = {}) => contract('POST', '/api/v1/refund', { body, headers });
    const partial = await refund({ transaction_id: transactionId, notify_user: 'true', reason: 'Damaged', amount: 12.5 }, { 'idempotency-key': 'k-1' });
    expect(partial.json.data.status_code).toBe('OK.04.00');
    expect((await refund({ transaction_id: transactionId, notify_user: 'true', reason: 'Damaged', amount: 12.5 }, { 'idempotency-key': 'k-1' })).text).toBe(
      partial.text,
    );
    expect((await refund({ transaction_id: transactionId, notify_user: true, reason: 'Other' }, { 'idempotency-key': 'k-1' })).json.data.status_code).toBe(
      'ER.02.40',
    );
    expect((await refund({ transaction_id: transactionId, notify_user: true, reason: 'x' }, { 'idempotency-key': '' })).status).toBe(400);
    expect((await refund({ transaction_id: transactionId, notify_user: true, reason: 'Too much', amount: '9999.00' })).json.data.status_code).toBe('ER.20.21');
    expect((await refund({ transaction_id: transactionId, notify_user: false, reason: 'The rest' })).json.data.status_code).toBe('OK.02.00');
    expect((await refund({ transaction_id: transactionId, notify_user: false, reason: 'Again' })).json.data.status_code).toBe('ER.20.20');
    expect((await refund({ transaction_id: 'txn_nope', notify_user: false, reason: 'Who' })).status).toBe(404);
    expect((await refund({ transaction_id: transactionId, notify_user: 'maybe', reason: '' })).status).toBe(422);
    expect((await contract('POST', '/api/v1/refund', { body: {}, token: null })).status).toBe(401);

    const txn = await contract('GET', `/api/v1/transactions/${transactionId}`);
    expect(txn.json.data.transaction.refunds).toHaveLength(2);
    expect((await contract('GET', '/api/v1/transactions/txn_nope')).status).toBe(404);
  });

  it('card registrations and schedules: create, complete, read, schedule, cancel twice, delete twice, unknown and invalid', async () => {
    const created = await contract('POST', '/api/v1/card-registrations', { body: { customer: { name: 'Ana Reyes', email: 'ana@example.com' } } });
    expect(created.json.data.status_code).toBe('OK.11.00');
    const { reference, link } = created.json.data;
    expect((await contract('POST', '/api/v1/card-registrations', { body: { customer: { email: 'not mail' } } })).status).toBe(422);
    expect((await contract('GET', `/api/v1/card-registrations/${reference}`)).json.data.card_registration.status).toBe('pending');
    const registered = await contract('POST', `${new URL(link).pathname}/card`, { token: null, body: { fields: {}, card: card() } });
    expect(registered.json.data.status_code).toBe('OK.11.00');
    expect((await contract('POST', '/register/no-such-token/card', { token: null, body: { fields: {}, card: card() } })).status).toBe(404);
    expect((await contract('GET', '/api/v1/card-registrations/00000000-0000-4000-8000-000000000000')).status).toBe(404);

    const payload = await signSchedule(scheduleData({ credit_card: { reference } }));
    const scheduled = await contract('POST', '/api/v1/schedule', { body: { payload } });
    expect(scheduled.json.data.status_code).toBe('OK.12.00');
    const sch = scheduled.json.data.reference;
    expect((await contract('POST', '/api/v1/schedule', { body: { payload: 'not.a.jwt' } })).json.data.status_code).toBe('ER.01.10');
    const unknownCard = await contract('POST', '/api/v1/schedule', {
      body: { payload: await signSchedule(scheduleData({ credit_card: { reference: '00000000-0000-4000-8000-000000000000' } })) },
    });
    expect(unknownCard.json.data.status_code).toBe('ER.02.30');
    expect((await contract('POST', '/api/v1/schedule', { body: { payload: await signSchedule(scheduleData({ time_offset: 'noon' })) } })).status).toBe(422);
    expect((await contract('GET', `/api/v1/schedules/${sch}`)).json.data.schedule.status).toBe('active');
    const ran = await contract('POST', `/api/v1/schedules/${sch}/run`);
    expect(ran.json.data.status_code, ran.text).toBe('OK.12.10');
    expect((await contract('POST', '/api/v1/schedules/sch_nope/run')).status).toBe(404);
    expect((await contract('POST', `/api/v1/schedules/${sch}/resume`)).json.data.status_code).toBe('ER.12.34');
    // What the scheduler leaves after too many failed occurrences in a row.
    await served.t.app.db.update(schedules).set({ status: 'suspended', nextRunAt: null, consecutiveFailures: 3 }).where(eq(schedules.id, sch));
    expect((await contract('POST', `/api/v1/schedules/${sch}/resume`)).json.data.status_code).toBe('OK.12.11');
    expect((await contract('POST', '/api/v1/schedules/sch_nope/resume')).status).toBe(404);
    expect((await contract('GET', '/api/v1/schedules/sch_nope')).status).toBe(404);
    expect((await contract('DELETE', '/api/v1/schedule', { body: { reference: sch } })).json.data.status_code).toBe('OK.12.20');
    expect((await contract('DELETE', '/api/v1/schedule', { body: { reference: sch } })).json.data.status_code).toBe('OK.12.21');
    expect((await contract('POST', `/api/v1/schedules/${sch}/run`)).json.data.status_code).toBe('ER.12.33');
    expect((await contract('DELETE', '/api/v1/schedule', { body: { reference: 'nothing' } })).status).toBe(404);
    expect((await contract('DELETE', '/api/v1/schedule', { body: {} })).status).toBe(422);

    expect((await contract('DELETE', '/api/v1/card-registration', { body: { reference } })).json.data.status_code).toBe('OK.11.20');
    expect((await contract('DELETE', '/api/v1/card-registration', { body: { reference } })).json.data.status_code).toBe('OK.11.21');
    expect((await contract('DELETE', '/api/v1/schedule', { body: { reference: '6f1c1b0e-8a53-4d0e-9d0e-2f5b2a1c9e11' } })).json.data.status_code).toBe(
      'OK.11.20',
    );
    expect((await contract('DELETE', '/api/v1/card-registration', { body: { reference: '00000000-0000-4000-8000-000000000000' } })).status).toBe(404);
  });

  it('events and the webhook secret: a page, a filter, a bad query, a rotation', async () => {
    const page = await contract('GET', '/api/v1/events?limit=5');
    expect(page.json.data.items.length).toBeGreaterThan(0);
    const legacy = await contract('GET', '/api/v1/events?after=1970-01-01T00:00:00Z&limit=2');
    expect(legacy.json.data.events.length).toBe(2);
    await contract('GET', `/api/v1/events?after=${legacy.json.data.next_after}&type=refund.succeeded`);
    expect((await contract('GET', '/api/v1/events?limit=0')).status).toBe(422);
    expect((await contract('POST', '/api/v1/webhook-secret/rotate')).json.data.webhook_secret).toMatch(/^whsec_/);
  });

  it('lists: a page of each, a filter, the next page, a bad parameter and an unknown cursor', async () => {
    for (const list of ['transactions', 'refunds', 'card-registrations', 'schedules', 'links']) {
      const first = await contract('GET', `/api/v1/${list}?limit=1`);
      expect(first.json.data.items.length, `${list}: ${first.text.slice(0, 300)}`).toBe(1);
      if (first.json.data.has_more) await contract('GET', `/api/v1/${list}?limit=1&starting_after=${first.json.data.next_cursor}`);
      expect((await contract('GET', `/api/v1/${list}?limit=0`)).status).toBe(422);
      expect((await contract('GET', `/api/v1/${list}?colour=blue`)).status).toBe(422);
    }
    expect((await contract('GET', '/api/v1/transactions?status=succeeded&customer_email=ANA@example.com')).json.data.items.length).toBeGreaterThan(0);
    expect((await contract('GET', '/api/v1/transactions?starting_after=txn_00000000000000000000000000000000')).status).toBe(404);
    expect((await contract('GET', '/api/v1/events?starting_after=evt_00000000000000000000000000000000')).status).toBe(404);
  });

  it('links by API: create, a taken slug, read, change, deactivate, unknown and invalid', async () => {
    const created = await contract('POST', '/api/v1/links', { body: { slug: 'contract-gift', title: 'Gift card', currency: 'PHP', amount: '500.00' } });
    expect(created.json.data.link.kind, created.text).toBe('static');
    expect((await contract('POST', '/api/v1/links', { body: { slug: 'contract-gift', title: 'Again', currency: 'PHP' } })).status).toBe(422);
    expect((await contract('POST', '/api/v1/links', { body: { title: '', currency: 'pesos' } })).status).toBe(422);
    expect((await contract('GET', '/api/v1/links/contract-gift')).json.data.link.amount).toBe('500.00');
    expect((await contract('GET', '/api/v1/links/no-such-link')).status).toBe(404);
    const changed = await contract('PATCH', '/api/v1/links/contract-gift', { body: { min_amount: '100.00', max_amount: '900.00', active: false } });
    expect(changed.json.data.link).toMatchObject({ amount: null, min_amount: '100.00', active: false });
    expect((await contract('PATCH', '/api/v1/links/contract-gift', { body: { brand_color: 'red' } })).status).toBe(422);
    expect((await contract('PATCH', '/api/v1/links/no-such-link', { body: { title: 'X' } })).status).toBe(404);
  });

  it('promotion codes by API: create, a taken code, list, read, change, unknown and invalid', async () => {
    const created = await contract('POST', '/api/v1/promotions', {
      body: { code: 'contract10', discount: { kind: 'fixed', amount: '50.00', currency: 'PHP' }, max_redemptions: 5 },
    });
    expect(created.json.data.promotion.code, created.text).toBe('CONTRACT10');
    const { id } = created.json.data.promotion;
    expect((await contract('POST', '/api/v1/promotions', { body: { code: 'CONTRACT10', discount: { kind: 'percent', percent: 10 } } })).status).toBe(409);
    expect((await contract('POST', '/api/v1/promotions', { body: { code: 'x', discount: { kind: 'percent', percent: 101 } } })).status).toBe(422);
    expect((await contract('GET', '/api/v1/promotions')).json.data.items[0].id).toBe(id);
    expect((await contract('GET', `/api/v1/promotions/${id}`)).json.data.promotion.discount.amount).toBe('50.00');
    expect((await contract('GET', '/api/v1/promotions/promo_missing')).status).toBe(404);
    expect((await contract('PATCH', `/api/v1/promotions/${id}`, { body: { active: false, max_redemptions: 1 } })).json.data.promotion.active).toBe(false);
    expect((await contract('PATCH', `/api/v1/promotions/${id}`, { body: { max_redemptions: 'many' } })).status).toBe(422);
    expect((await contract('PATCH', '/api/v1/promotions/promo_missing', { body: { active: true } })).status).toBe(404);
  });

  it('webhook tools: the default callback URL and an event delivered again', async () => {
    expect((await contract('PATCH', '/api/v1/integrator', { body: { default_callback_url: 'ftp://shop.example.com' } })).status).toBe(422);
    const set = await contract('PATCH', '/api/v1/integrator', { body: { default_callback_url: 'https://shop.example.com/paylink' } });
    expect(set.json.data.integrator.default_callback_url).toBe('https://shop.example.com/paylink');
    const [event] = (await contract('GET', '/api/v1/events?limit=1')).json.data.items;
    const resent = await contract('POST', `/api/v1/events/${event.id}/resend`);
    expect(resent.json.data.status_code, resent.text).toBe('OK.13.00');
    expect((await contract('POST', '/api/v1/events/evt_00000000000000000000000000000000/resend')).status).toBe(404);
    const test = await contract('POST', '/api/v1/events/test');
    expect(test.json.data).toMatchObject({ status_code: 'OK.13.01', callback_url: 'https://shop.example.com/paylink', callback_state: 'pending' });
    expect((await contract('PATCH', '/api/v1/integrator', { body: { default_callback_url: null } })).json.data.integrator.default_callback_url).toBeNull();
    expect((await contract('POST', '/api/v1/events/test')).json.data.status_code).toBe('ER.13.30');
  });
  it('a PayMongo merchant: the card form’s start (checkout and static link) and the provider webhook', async () => {
    const fake = await startFakePaymongo();
    try {
      const { app } = served.t;
      const [other] = await app.db.select().from(integrators).where(eq(integrators.name, 'Other Shop'));
      await app.db.transaction((tx) =>
        setAcquirer(
          app,
          tx,
          other!.id,
          { provider: 'paymongo', public_key: fake.publicKey, secret_key: fake.secretKey, webhook_secret: fake.webhookSecret, api_base_url: fake.url },
          { fromSeed: true },
        ),
      );
      app.connectors.forget(other!.id);
      // Other Shop's link is in USD: PayMongo takes PHP only, so a PHP dynamic link.
      const dynamic = await call(served.server.url, 'POST', '/pay/other-shop', {
        token: null,
        body: { key: OTHER_TOKEN, payment: { amount: '250.00', currency: 'PHP' } },
      });
      const token = new URL(dynamic.json?.link ?? 'http://x/checkout/none').pathname.split('/')[2]!;
      const started = await contract('POST', `/checkout/${token}/provider`, { token: null, body: { fields } });
      if (started.status === 200) {
        expect(started.json.data.public_key).toBe(fake.publicKey);
        await browserPays(
          fake,
          { providerPaymentId: started.json.data.provider_payment_id, clientKey: started.json.data.client_key },
          { number: '4343434343434345', cvc: '123', expMonth: 12, expYear: 2040 },
          started.json.data.return_url,
        );
      }
      expect(started.status, started.text).toBe(200);
      // The sandbox merchant's checkout refuses it.
      const [acmeLink] = await app.db.select().from(links).where(eq(links.slug, 'acme-books'));
      const refused = await contract('POST', '/pay/acme-books/provider', { token: null, body: { session: issueStaticTicket(app, acmeLink!.id), fields } });
      expect(refused.json.data.status_code).toBe('ER.03.26');
      const usd = await contract('POST', '/pay/other-shop/provider', {
        token: null,
        body: { session: issueStaticTicket(app, (await app.db.select().from(links).where(eq(links.slug, 'other-shop')))[0]!.id), fields },
      });
      expect(usd.status).toBe(422); // USD: PayMongo takes PHP only
      const created = await call(served.server.url, 'POST', '/api/v1/links', {
        token: OTHER_TOKEN,
        body: { slug: 'other-php', title: 'Pesos', currency: 'PHP', amount: '300.00' },
      });
      expect(created.status, created.text).toBe(200);
      const [php] = await app.db.select().from(links).where(eq(links.slug, 'other-php'));
      const staticStart = await contract('POST', '/pay/other-php/provider', { token: null, body: { session: issueStaticTicket(app, php!.id), fields } });
      expect(staticStart.json.data.client_key, staticStart.text).toMatch(/_client_/);
      const [row] = await app.db.select().from(integratorAcquirers).where(eq(integratorAcquirers.integratorId, other!.id));
      const event = fake.event('payment.paid', {
        id: 'pay_contract',
        type: 'payment',
        attributes: { status: 'paid', payment_intent_id: started.json.data.provider_payment_id },
      });
      const received = await contract('POST', `/webhooks/paymongo/${row!.webhookId}`, {
        token: null,
        raw: event.rawBody,
        headers: Object.fromEntries(event.headers),
      });
      expect(received.json.data.outcome).toBe('applied');
      expect((await contract('POST', `/webhooks/paymongo/${row!.webhookId}`, { token: null, raw: event.rawBody, headers: {} })).status).toBe(401);
      expect(
        (await contract('POST', '/webhooks/paymongo/wh_nobody', { token: null, raw: event.rawBody, headers: Object.fromEntries(event.headers) })).status,
      ).toBe(404);
    } finally {
      await fake.close();
    }
  });
});
