import { describe, expect, it } from 'vitest';
import { cardRegistrationPageSchema } from '../../../src/schemas/card-registration.ts';
import { eventPageSchema, legacyEventPageSchema } from '../../../src/schemas/events.ts';
import { linkPageSchema } from '../../../src/schemas/link.ts';
import { schedulePageSchema } from '../../../src/schemas/schedule.ts';
import { refundPageSchema, transactionPageSchema } from '../../../src/schemas/transaction.ts';
import { call, defaultSeed, OTHER_TOKEN, TEST_TOKEN, useServedApp } from '../../support/app.ts';
import { CARD_EXPIRY } from '../../support/cards.ts';
import { CARDS, createPayment } from '../../support/payments.ts';
import { scheduleData, signSchedule, testClock } from '../../support/schedules.ts';

/**
 * The six list endpoints share one shape and one keyset helper: newest first, cursors that are
 * object ids, filters as query parameters, 422 naming a bad parameter.
 */
const clock = testClock('2026-05-01T08:00:00.000Z');
const seed = defaultSeed();
seed.integrators[0]!.links.push({
  slug: 'acme-ship',
  title: 'Acme shipping',
  currency: 'PHP',
  amount: '500.00',
  labels: {},
  fields: { 'customer.contact.mobile': 'customer', 'customer.billing_address.line1': 'customer', 'customer.billing_address.country_code': 'customer' },
  active: true,
});
const served = useServedApp({ now: clock.now }, seed);
const get = (path: string, token?: string) => call(served.server.url, 'GET', path, { token });
const ids = (res: { json: any }) => res.json.data.items.map((i: Record<string, string>) => i.refund_id ?? i.transaction_id ?? i.reference ?? i.id);

/** Five payments a second apart, newest last: [0] failed, the rest succeeded. */
const made: string[] = [];
async function makePayments() {
  if (made.length) return made;
  const specs = [
    { card: CARDS.declined, merchantReferenceId: 'ord-a', customerEmail: 'ana@example.com' },
    { merchantReferenceId: 'ord-b', customerEmail: 'Ben@Example.com' },
    { merchantReferenceId: 'ord-c', customerEmail: 'ana@example.com' },
    { merchantReferenceId: 'ord-d', customerEmail: null },
    { merchantReferenceId: 'ord-e', customerEmail: 'ana@example.com' },
  ];
  for (const spec of specs) {
    made.push((await createPayment(served.t, spec)).id);
    clock.advance(1);
  }
  await createPayment(served.t, { integrator: 'Other Shop', currency: 'USD', amount: '1.00', customerEmail: 'ana@example.com' });
  return made;
}

describe('lists › transactions', () => {
  it('lists newest first inside data, with has_more and both cursors', async () => {
    const all = await makePayments();
    const res = await get('/api/v1/transactions');
    expect(res.status).toBe(200);
    expect(res.json.data.status_code).toBe('OK.00.00');
    expect(ids(res)).toEqual([...all].reverse());
    expect(res.json.data).toMatchObject({ has_more: false, next_cursor: null, previous_cursor: null });
  });

  it('pages older with starting_after = next_cursor and newer with ending_before = previous_cursor', async () => {
    const all = [...(await makePayments())].reverse();
    const first = await get('/api/v1/transactions?limit=2');
    expect(ids(first)).toEqual(all.slice(0, 2));
    expect(first.json.data).toMatchObject({ has_more: true, next_cursor: all[1], previous_cursor: null });
    const second = await get(`/api/v1/transactions?limit=2&starting_after=${first.json.data.next_cursor}`);
    expect(ids(second)).toEqual(all.slice(2, 4));
    expect(second.json.data).toMatchObject({ has_more: true, next_cursor: all[3], previous_cursor: all[2] });
    const third = await get(`/api/v1/transactions?limit=2&starting_after=${second.json.data.next_cursor}`);
    expect(ids(third)).toEqual(all.slice(4));
    expect(third.json.data).toMatchObject({ has_more: false, next_cursor: null });
    const back = await get(`/api/v1/transactions?limit=2&ending_before=${third.json.data.previous_cursor}`);
    expect(ids(back)).toEqual(all.slice(2, 4));
    expect(back.json.data.has_more).toBe(true);
    const top = await get(`/api/v1/transactions?limit=2&ending_before=${all[2]}`);
    expect(ids(top)).toEqual(all.slice(0, 2));
    expect(top.json.data).toMatchObject({ has_more: false, next_cursor: all[1] });
  });

  it('filters by status, merchant_reference_id, customer e-mail (case-insensitive) and created range', async () => {
    const all = await makePayments();
    expect(ids(await get('/api/v1/transactions?status=failed'))).toEqual([all[0]]);
    expect(ids(await get('/api/v1/transactions?merchant_reference_id=ord-c'))).toEqual([all[2]]);
    expect(ids(await get('/api/v1/transactions?customer_email=ANA@example.com'))).toEqual([all[4], all[2], all[0]]);
    expect(ids(await get('/api/v1/transactions?customer_email=ben@example.com'))).toEqual([all[1]]);
    expect(ids(await get('/api/v1/transactions?created_gte=2026-05-01T08:00:01Z&created_lt=2026-05-01T08:00:03Z'))).toEqual([all[2], all[1]]);
    expect(ids(await get('/api/v1/transactions?created_gte=2026-05-01T16:00:02%2B08:00&status=succeeded&limit=1'))).toEqual([all[4]]);
    expect(ids(await get('/api/v1/transactions?link=no-such-link'))).toEqual([]);
  });

  it('refuses bad parameters with 422 naming each one, and changes nothing', async () => {
    const res = await get('/api/v1/transactions?limit=0&status=paid&created_gte=yesterday&customer_email=nope&colour=red');
    expect(res.status).toBe(422);
    expect(res.json.data.status_code).toBe('ER.02.30');
    expect(Object.keys(res.json.messages).sort()).toEqual(['colour', 'created_gte', 'customer_email', 'limit', 'status']);
    const both = await get('/api/v1/transactions?starting_after=txn_a&ending_before=txn_b');
    expect(both.status).toBe(422);
    expect(both.json.messages.ending_before[0]).toMatch(/cannot be combined/);
    expect((await get('/api/v1/transactions?limit=101')).json.messages.limit).toEqual(['must be a whole number from 1 to 100']);
    expect((await get('/api/v1/transactions?created_gte=0000-01-01T00:00:00Z')).json.messages.created_gte).toHaveLength(1);
    const range = await get('/api/v1/transactions?created_gte=2026-05-02T00:00:00Z&created_lt=2026-05-01T00:00:00Z');
    expect(range.json.messages.created_lt).toEqual(['must be later than created_gte']);
  });

  it('answers 404 for a cursor that is not one of the integrator’s objects', async () => {
    const all = await makePayments();
    const res = await get(`/api/v1/transactions?starting_after=${all[0]}`, OTHER_TOKEN);
    expect(res.status).toBe(404);
    expect(res.json.messages.starting_after[0]).toMatch(/does not exist/);
  });

  it('shows each integrator only its own transactions, and needs the token', async () => {
    await makePayments();
    const other = await get('/api/v1/transactions', OTHER_TOKEN);
    expect(other.json.data.items).toHaveLength(1);
    expect(other.json.data.items[0].currency).toBe('USD');
    expect((await call(served.server.url, 'GET', '/api/v1/transactions', { token: null })).status).toBe(401);
    expect((await call(served.server.url, 'POST', '/api/v1/transactions', { body: {} })).status).toBe(405);
  });
});

describe('lists › who paid', () => {
  it('a static link’s payment shows the customer, address and mobile as given, with the link, in the transaction and its event', async () => {
    const html = await (await fetch(`${served.server.url}/pay/acme-ship`)).text();
    const session = /&quot;session&quot;:\[0,&quot;([^&]+)&quot;\]/.exec(html)![1]!;
    const body = {
      session,
      card: { number: CARDS.visa, expiry: CARD_EXPIRY, cvc: '123', name: 'Maria Santos' },
      fields: {
        'customer.first_name': 'Maria',
        'customer.last_name': 'Santos',
        'customer.contact.email': 'Maria@Example.com',
        'customer.contact.mobile': '+639171234567',
        'customer.billing_address.line1': '12 Mabini St',
        'customer.billing_address.country_code': 'PH',
      },
    };
    const paid = await call(served.server.url, 'POST', '/pay/acme-ship/pay', { token: null, body });
    expect(paid.status, paid.text).toBe(200);
    const list = await get('/api/v1/transactions?link=acme-ship');
    expect(list.json.data.items).toHaveLength(1);
    const txn = list.json.data.items[0];
    const customer = {
      first_name: 'Maria',
      last_name: 'Santos',
      name: 'Maria Santos',
      email: 'maria@example.com',
      mobile: '+639171234567',
      billing_address: { line1: '12 Mabini St', line2: null, city_municipality: null, state_province_region: null, zip: null, country_code: 'PH' },
    };
    expect(txn).toMatchObject({ link: 'acme-ship', customer, card: { brand: 'visa', last4: '4242' } });
    expect(JSON.stringify(txn)).not.toContain('4242424242424242');
    const one = await get(`/api/v1/transactions/${txn.transaction_id}`);
    expect(one.json.data.transaction.customer).toEqual(customer);
    expect(ids(await get('/api/v1/transactions?customer_email=maria@example.com'))).toEqual([txn.transaction_id]);
    const events = await get('/api/v1/events?type=payment.succeeded&limit=1');
    expect(events.json.data.items[0].data).toMatchObject({ transaction_id: txn.transaction_id, link: 'acme-ship', customer });
  });
});

describe('lists › refunds, schedules, card registrations, links, events', () => {
  it('lists refunds newest first with their transaction’s references and customer, filtered by status and transaction', async () => {
    const all = await makePayments();
    const r1 = await call(served.server.url, 'POST', '/api/v1/refund', {
      body: { transaction_id: all[1], notify_user: false, reason: 'one', amount: '10.00' },
    });
    clock.advance(1);
    const r2 = await call(served.server.url, 'POST', '/api/v1/refund', { body: { transaction_id: all[2], notify_user: false, reason: 'two' } });
    expect(r1.json.data.status_code).toBe('OK.04.00');
    const res = await get('/api/v1/refunds');
    expect(ids(res)).toEqual([r2.json.data.refund_id, r1.json.data.refund_id]);
    expect(res.json.data.items[1]).toMatchObject({
      transaction_id: all[1],
      merchant_reference_id: 'ord-b',
      description: 'Test order',
      amount: '10.00',
      refund_type: 'PARTIAL',
      customer: { email: 'Ben@Example.com' },
    });
    expect(ids(await get(`/api/v1/refunds?transaction_id=${all[2]}`))).toEqual([r2.json.data.refund_id]);
    expect(ids(await get('/api/v1/refunds?status=failed'))).toEqual([]);
    expect((await get('/api/v1/refunds?status=done')).json.messages.status).toEqual(['must be pending, succeeded or failed']);
    expect((await get('/api/v1/refunds', OTHER_TOKEN)).json.data.items).toEqual([]);
  });

  it('lists schedules newest first, filtered by status and merchant_reference_id, with the card’s customer', async () => {
    const make = async (ref: string) => {
      const payload = await signSchedule(scheduleData({ payment: { amount: 150, currency: 'PHP', merchant_reference_id: ref } }), { iat: clock.now() });
      clock.advance(1);
      return (await call(served.server.url, 'POST', '/api/v1/schedule', { body: { payload } })).json.data.reference as string;
    };
    const a = await make('plan-a');
    const b = await make('plan-b');
    await call(served.server.url, 'DELETE', '/api/v1/schedule', { body: { reference: a } });
    const res = await get('/api/v1/schedules');
    expect(ids(res).slice(0, 2)).toEqual([b, a]);
    expect(res.json.data.items[0]).toMatchObject({ reference: b, status: 'active', amount: '150.00', merchant_reference_id: 'plan-b' });
    expect(res.json.data.items[0].customer).toMatchObject({ name: 'Juan Dela Cruz' });
    expect(ids(await get('/api/v1/schedules?status=cancelled'))).toEqual([a]);
    expect(ids(await get('/api/v1/schedules?merchant_reference_id=plan-b'))).toEqual([b]);
    expect((await get('/api/v1/schedules?card_registration_reference=nope')).status).toBe(422);
    expect((await get('/api/v1/schedules', OTHER_TOKEN)).json.data.items).toEqual([]);
  });

  it('lists card registrations newest first, filtered by status and customer e-mail', async () => {
    const created = await call(served.server.url, 'POST', '/api/v1/card-registrations', { body: { customer: { name: 'Lia', email: 'Lia@example.com' } } });
    expect(created.status, created.text).toBe(200);
    const res = await get('/api/v1/card-registrations?status=pending');
    expect(res.json.data.items[0]).toMatchObject({
      reference: created.json.data.reference,
      status: 'pending',
      customer: { name: 'Lia', email: 'Lia@example.com' },
    });
    expect(ids(await get('/api/v1/card-registrations?customer_email=lia@EXAMPLE.com'))).toEqual([created.json.data.reference]);
    const foreign = await get('/api/v1/card-registrations?starting_after=txn_0123');
    expect(foreign.status).toBe(404);
    expect(foreign.json.messages.starting_after[0]).toMatch(/does not exist/);
    expect(ids(await get('/api/v1/card-registrations?status=active'))).toEqual(['6f1c1b0e-8a53-4d0e-9d0e-2f5b2a1c9e11']);
    expect((await get('/api/v1/card-registrations', OTHER_TOKEN)).json.data.items.map((i: { reference: string }) => i.reference)).toEqual([
      '0b7e2f4a-1c3d-4e5f-8a9b-0c1d2e3f4a5b',
    ]);
  });

  it('lists links with their kind, address and amounts, filtered by active and currency', async () => {
    const res = await get('/api/v1/links');
    expect(res.json.data.items.map((l: { slug: string }) => l.slug).sort()).toEqual(['acme-books', 'acme-open', 'acme-ship']);
    const books = res.json.data.items.find((l: { slug: string }) => l.slug === 'acme-books');
    expect(books).toMatchObject({ kind: 'static', active: true, amount: '250.00', currency: 'PHP', url: `${served.server.url}/pay/acme-books` });
    expect((await get('/api/v1/links?active=false')).json.data.items).toEqual([]);
    expect((await get('/api/v1/links?currency=USD')).json.data.items).toEqual([]);
    expect((await get('/api/v1/links?active=yes')).json.messages.active).toEqual(['must be true or false']);
    const one = await get('/api/v1/links/acme-books');
    expect(one.json.data.link).toEqual(books);
    expect((await get('/api/v1/links/acme-books', OTHER_TOKEN)).status).toBe(404);
  });

  it('lists events newest first by default, keeps the legacy after feed, and refuses mixing the two', async () => {
    await makePayments();
    const newest = await get('/api/v1/events?limit=3');
    const items = newest.json.data.items as Array<{ id: string; created_at: string }>;
    expect(items).toHaveLength(3);
    expect([...items].sort((x, y) => y.created_at.localeCompare(x.created_at))).toEqual(items);
    expect(newest.json.data).toMatchObject({ has_more: true, next_cursor: items[2]!.id });
    const older = await get(`/api/v1/events?limit=3&starting_after=${items[2]!.id}`);
    expect(older.json.data.items.every((e: { created_at: string }) => e.created_at <= items[2]!.created_at)).toBe(true);
    const legacy = await get('/api/v1/events?after=2000-01-01T00:00:00Z&limit=2');
    expect(Object.keys(legacy.json.data).sort()).toEqual(['events', 'has_more', 'next_after', 'status_code', 'status_description'].sort());
    expect(legacy.json.data.events[0].created_at <= legacy.json.data.events[1].created_at).toBe(true);
    const mixed = await get(`/api/v1/events?after=2000-01-01T00:00:00Z&starting_after=${items[0]!.id}`);
    expect(mixed.status).toBe(422);
    expect(mixed.json.messages.starting_after[0]).toMatch(/cannot be combined with after/);
  });
});

void TEST_TOKEN;

describe('lists › every page matches its published schema (src/schemas, the OpenAPI source)', () => {
  it('transactions, refunds, schedules, card registrations, links and events parse with their page schemas', async () => {
    await makePayments();
    const pages: Array<[string, { safeParse(v: unknown): { success: boolean; error?: unknown } }]> = [
      ['/api/v1/transactions', transactionPageSchema],
      ['/api/v1/refunds', refundPageSchema],
      ['/api/v1/schedules', schedulePageSchema],
      ['/api/v1/card-registrations', cardRegistrationPageSchema],
      ['/api/v1/links', linkPageSchema],
      ['/api/v1/events', eventPageSchema],
      ['/api/v1/events?after=2000-01-01T00:00:00Z', legacyEventPageSchema],
    ];
    for (const [path, schema] of pages) {
      const res = await get(path);
      const parsed = schema.safeParse(res.json.data);
      expect(parsed.success, `${path}: ${JSON.stringify(parsed.error)}`).toBe(true);
    }
  });
});
