import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MethodSupport } from '../../../src/acquirer/connector.ts';
import { outboxEvents, payments, refunds } from '../../../src/db/schema.ts';
import { settleProviderRefund } from '../../../src/domain/refunds/recovery.ts';
import { CONSOLE_USERS, call, sandboxOf, useServedApp } from '../../support/app.ts';
import { ConsoleClient, textOf } from '../../support/console.ts';
import { CARDS, createPayment } from '../../support/payments.ts';
import { testClock } from '../../support/schedules.ts';

/**
 * Everything after a payment exists knows how it was paid: the API's transactions, refunds and
 * events carry `payment_method` and filter by it; a refund follows the rules of the payment's
 * method at the acquirer (refused before anything is reserved, naming the method and the reason);
 * the console lists, filters, exports and sums by it. Payments by other methods are recorded as
 * their connector reports them (`recordCharge` with `method`), on the sandbox's ledger.
 */
const clock = testClock('2026-04-01T09:00:00Z');
const served = useServedApp({ now: clock.now });
const DAY = 86_400;

/**
 * The acquirer's refund rules as PayMongo's documentation gives them for some methods: QR Ph
 * cannot be refunded, cards within 60 days, GCash within 180, GrabPay only in whole payments.
 * The sandbox stands in with these rules (it refunds everything otherwise), and refunds through
 * the general call as PayMongo and Stripe do (its one-call refund set aside), so the connector
 * is told the payment's method and a refund may stay pending.
 */
const rules: MethodSupport[] = [
  { method: 'card', refunds: { refundable: true, partial: true, windowDays: 60 }, requires: [] },
  { method: 'qrph', refunds: { refundable: false, partial: false, windowDays: null }, requires: [] },
  { method: 'gcash', refunds: { refundable: true, partial: true, windowDays: 180 }, requires: [] },
  { method: 'grab_pay', refunds: { refundable: true, partial: false, windowDays: 90 }, requires: [] },
  { method: 'paymaya', refunds: { refundable: true, partial: true, windowDays: 365 }, requires: [] },
];
beforeAll(() => {
  const sandbox = sandboxOf(served.t.app);
  Object.assign(sandbox, { capabilities: { ...sandbox.capabilities, methods: rules }, refundAtOnce: undefined });
});

const api = (method: 'GET' | 'POST', path: string, body?: unknown) => call(served.server.url, method, path, { body });
const refund = (body: Record<string, unknown>) => api('POST', '/api/v1/refund', { notify_user: false, reason: 'Returned', ...body });
const db = () => served.t.app.db;
const paymentRow = async (id: string) => (await db().select().from(payments).where(eq(payments.id, id)))[0]!;
const refundRows = (id: string) => db().select().from(refunds).where(eq(refunds.paymentId, id));
const eventsOf = (id: string) => db().select().from(outboxEvents).where(eq(outboxEvents.paymentId, id)).orderBy(outboxEvents.createdAt);

describe('payment method › the API', () => {
  it('transaction › carries payment_method; a card keeps its brand and last four, another method has no card', async () => {
    const card = await createPayment(served.t, { amount: '120.00' });
    const gcash = await createPayment(served.t, { amount: '80.00', method: 'gcash' });
    const cardView = (await api('GET', `/api/v1/transactions/${card.id}`)).json.data.transaction;
    expect(cardView).toMatchObject({ payment_method: 'card', card: { brand: 'visa', last4: '4242' } });
    const gcashView = (await api('GET', `/api/v1/transactions/${gcash.id}`)).json.data.transaction;
    expect(gcashView).toMatchObject({ payment_method: 'gcash', card: null, amount: '80.00', status: 'succeeded' });
  });

  it('transactions › filter by payment_method, newest first, only the integrator’s own', async () => {
    clock.advance(60);
    const qr = await createPayment(served.t, { method: 'qrph', merchantReferenceId: 'filter-qr' });
    clock.advance(60);
    const qr2 = await createPayment(served.t, { method: 'qrph', card: CARDS.declined });
    await createPayment(served.t, { integrator: 'Other Shop', method: 'qrph', currency: 'USD' });
    const res = await api('GET', '/api/v1/transactions?payment_method=qrph');
    expect(res.status).toBe(200);
    const items = res.json.data.items as Array<{ transaction_id: string; payment_method: string; status: string }>;
    expect(items.map((i) => i.transaction_id)).toEqual([qr2.id, qr.id]);
    expect(items.map((i) => [i.payment_method, i.status])).toEqual([
      ['qrph', 'failed'],
      ['qrph', 'succeeded'],
    ]);
    // Combined with another filter, both apply.
    const both = await api('GET', '/api/v1/transactions?payment_method=qrph&status=succeeded');
    expect(both.json.data.items.map((i: { transaction_id: string }) => i.transaction_id)).toEqual([qr.id]);
    const cards = await api('GET', '/api/v1/transactions?payment_method=card&limit=100');
    expect(cards.json.data.items.every((i: { payment_method: string }) => i.payment_method === 'card')).toBe(true);
    expect(cards.json.data.items.map((i: { transaction_id: string }) => i.transaction_id)).not.toContain(qr.id);
  });

  it('transactions and refunds › an unknown payment_method is a clear 422 ER.02.30 naming the field and the methods', async () => {
    for (const path of ['/api/v1/transactions', '/api/v1/refunds']) {
      for (const value of ['bitcoin', 'CARD', '', 'gcash,qrph']) {
        const res = await api('GET', `${path}?payment_method=${encodeURIComponent(value)}`);
        expect(res.status, `${path} ${value}`).toBe(422);
        expect(res.json.data.status_code).toBe('ER.02.30');
        expect(res.json.messages.payment_method).toEqual(['must be one of card, qrph, gcash, paymaya, grab_pay, shopeepay, dob, brankas, billease']);
      }
    }
  });

  it('events › payment.succeeded and refund.succeeded carry payment_method, and card only for cards', async () => {
    const gcash = await createPayment(served.t, { amount: '50.00', method: 'gcash' });
    const res = await refund({ transaction_id: gcash.id, amount: '10.00' });
    expect(res.json.data).toMatchObject({ status_code: 'OK.04.00', payment_method: 'gcash' });
    const events = await eventsOf(gcash.id);
    expect(events.map((e) => [e.type, e.data.payment_method, e.data.card])).toEqual([
      ['payment.succeeded', 'gcash', null],
      ['refund.succeeded', 'gcash', null],
    ]);
    const listed = await api('GET', `/api/v1/events?type=refund.succeeded&limit=1`);
    expect(listed.json.data.items[0].data).toMatchObject({ transaction_id: gcash.id, payment_method: 'gcash', card: null });
    const card = await createPayment(served.t, { amount: '50.00' });
    expect((await eventsOf(card.id))[0]!.data).toMatchObject({ payment_method: 'card', card: { brand: 'visa', last4: '4242' } });
  });

  it('refunds › list carries the transaction’s payment_method and filters by it', async () => {
    const maya = await createPayment(served.t, { amount: '40.00', method: 'paymaya' });
    const card = await createPayment(served.t, { amount: '40.00' });
    expect((await refund({ transaction_id: maya.id })).json.data.status_code).toBe('OK.02.00');
    expect((await refund({ transaction_id: card.id })).json.data.status_code).toBe('OK.02.00');
    const res = await api('GET', '/api/v1/refunds?payment_method=paymaya');
    expect(res.status).toBe(200);
    expect(res.json.data.items.map((r: { transaction_id: string; payment_method: string }) => [r.transaction_id, r.payment_method])).toEqual([
      [maya.id, 'paymaya'],
    ]);
    const all = await api('GET', '/api/v1/refunds?limit=100');
    expect(all.json.data.items.find((r: { transaction_id: string }) => r.transaction_id === card.id)).toMatchObject({ payment_method: 'card' });
  });
});

describe('payment method › refunds follow the method’s rules at the acquirer', () => {
  it('a QR Ph payment cannot be refunded: ER.20.28 naming QR Ph, nothing reserved, balances unchanged, no event', async () => {
    const qr = await createPayment(served.t, { amount: '75.00', method: 'qrph' });
    const before = await paymentRow(qr.id);
    for (const amount of [undefined, '10.00']) {
      const res = await refund({ transaction_id: qr.id, ...(amount ? { amount } : {}) });
      expect(res.status).toBe(200);
      expect(res.json.data).toMatchObject({
        status_code: 'ER.20.28',
        status_description: 'Payment method cannot be refunded',
        payment_method: 'qrph',
        refusal_reason: 'method',
      });
      expect(res.json.data.refund_id).toBeUndefined();
      expect(res.json.messages).toEqual({ transaction_id: ['This acquirer cannot refund payments made by QR Ph.'] });
    }
    expect(await refundRows(qr.id)).toEqual([]);
    const after = await paymentRow(qr.id);
    expect(after).toMatchObject({ refundedMinor: 0n, refundReservedMinor: 0n, refundCount: 0, refundVersion: before.refundVersion });
    expect((await eventsOf(qr.id)).map((e) => e.type)).toEqual(['payment.succeeded']);
    expect((await api('GET', `/api/v1/transactions/${qr.id}`)).json.data.transaction).toMatchObject({
      refundable_amount: '75.00',
      refund_state: 'not_refunded',
    });
  });

  it('a GCash payment is refunded 90 days later: its own 180-day window, not the card’s 60', async () => {
    const gcash = await createPayment(served.t, { amount: '200.00', method: 'gcash' });
    const card = await createPayment(served.t, { amount: '200.00' });
    clock.advance(90 * DAY);
    const refused = await refund({ transaction_id: card.id });
    expect(refused.json.data).toMatchObject({ status_code: 'ER.20.27', payment_method: 'card', refusal_reason: 'window' });
    expect(refused.json.messages.transaction_id).toEqual(['This acquirer refunds card payments only within 60 days of the payment.']);
    const res = await refund({ transaction_id: gcash.id });
    expect(res.json.data).toMatchObject({ status_code: 'OK.02.00', refund_status: 'succeeded', amount: '200.00', payment_method: 'gcash' });
    expect(await paymentRow(gcash.id)).toMatchObject({ refundedMinor: 20000n, refundReservedMinor: 0n });
    // Past GCash's own window, the same refusal names GCash.
    const late = await createPayment(served.t, { amount: '30.00', method: 'gcash' });
    clock.advance(181 * DAY);
    const tooLate = await refund({ transaction_id: late.id });
    expect(tooLate.json.data).toMatchObject({ status_code: 'ER.20.27', payment_method: 'gcash', refusal_reason: 'window' });
    expect(tooLate.json.messages.transaction_id).toEqual(['This acquirer refunds GCash payments only within 180 days of the payment.']);
    expect(await refundRows(late.id)).toEqual([]);
  });

  it('a method refunded only in whole payments refuses a PARTIAL refund (ER.20.27, partial) and takes the FULL one', async () => {
    const grab = await createPayment(served.t, { amount: '60.00', method: 'grab_pay' });
    const partial = await refund({ transaction_id: grab.id, amount: '20.00' });
    expect(partial.json.data).toMatchObject({ status_code: 'ER.20.27', payment_method: 'grab_pay', refusal_reason: 'partial' });
    expect(partial.json.messages.transaction_id).toEqual(['This acquirer refunds GrabPay payments only in full.']);
    expect(await paymentRow(grab.id)).toMatchObject({ refundReservedMinor: 0n, refundCount: 0 });
    expect((await refund({ transaction_id: grab.id })).json.data.status_code).toBe('OK.02.00');
  });

  it('a pending refund of a GCash payment settles by the acquirer’s word, as a card’s does', async () => {
    const gcash = await createPayment(served.t, { amount: '90.00', method: 'gcash', card: CARDS.refundPending });
    const res = await refund({ transaction_id: gcash.id, amount: '30.00' });
    expect(res.json.data).toMatchObject({ status_code: 'OK.04.01', refund_status: 'pending', payment_method: 'gcash' });
    expect(await paymentRow(gcash.id)).toMatchObject({ refundReservedMinor: 3000n, refundedMinor: 0n });
    const [pending] = await refundRows(gcash.id);
    const integratorId = gcash.integratorId;
    expect(await settleProviderRefund(served.t.app, integratorId, { status: 'succeeded', refundId: pending!.acquirerReference! })).toBe('settled');
    expect(await settleProviderRefund(served.t.app, integratorId, { status: 'succeeded', refundId: pending!.acquirerReference! })).toBe('unchanged');
    expect(await paymentRow(gcash.id)).toMatchObject({ refundReservedMinor: 0n, refundedMinor: 3000n });
    const settled = (await eventsOf(gcash.id)).find((e) => e.type === 'refund.succeeded');
    expect(settled?.data).toMatchObject({ payment_method: 'gcash', amount: '30.00' });
  });
});

describe('payment method › the console', () => {
  let owner: { client: ConsoleClient; at: number } | undefined;
  async function asOwner() {
    const now = clock.now().getTime();
    if (!owner || now - owner.at > 10 * 60_000) {
      const client = new ConsoleClient(served.server.url);
      expect((await client.signIn(CONSOLE_USERS.acmeOwner.email, CONSOLE_USERS.acmeOwner.password)).status).toBe(303);
      owner = { client, at: now };
    }
    return owner.client;
  }

  it('payments › the list shows how each was paid and filters by method; a bad method is refused beside the field', async () => {
    const shopee = await createPayment(served.t, { amount: '33.00', method: 'shopeepay', customerEmail: 'shopee@example.com' });
    const card = await createPayment(served.t, { amount: '34.00', card: CARDS.mastercard });
    const c = await asOwner();
    const all = textOf((await c.get('/console/payments')).html);
    expect(all).toContain('shopee@example.com ₱33.00 Succeeded ShopeePay');
    expect(all).toContain('₱34.00 Succeeded Mastercard •••• 4444');
    const filtered = await c.get('/console/payments?method=shopeepay');
    expect(filtered.status).toBe(200);
    expect(filtered.html).toContain(shopee.id);
    expect(filtered.html).not.toContain(card.id);
    expect(filtered.html).toMatch(/<option value="shopeepay" selected/);
    const bad = await c.get('/console/payments?method=bitcoin');
    expect(bad.status).toBe(422);
    expect(textOf(bad.html)).toContain('Paid with must be one of card, qrph');
  });

  it('payments › a payment’s page says how it was paid, and why the acquirer cannot refund it instead of a form; a refusal shows the API’s message', async () => {
    const qr = await createPayment(served.t, { amount: '45.00', method: 'qrph' });
    const c = await asOwner();
    const path = `/console/payments/${qr.id}`;
    const page = await c.get(path);
    expect(textOf(page.html)).toContain('Paid with QR Ph');
    // Said where the refund form would be: no form to fill in for a refund that cannot be made.
    expect(textOf(page.html)).toContain('Refund Payment method cannot be refunded. This acquirer cannot refund payments made by QR Ph. Reference: ER.20.28');
    expect(page.html).not.toContain('name="nonce"');
    // A form sent anyway (an older page, another tab) gets the API's refusal.
    const card = await createPayment(served.t, { amount: '45.00' });
    const nonce = /name="nonce" value="([^"]+)"/.exec((await c.get(`/console/payments/${card.id}`)).html)?.[1] ?? '';
    const res = await c.post(path, { action: 'refund', kind: 'full', amount: '', reason: 'Returned', nonce });
    expect(res.status).toBe(200);
    const text = textOf(res.html);
    expect(text).toContain('Payment method cannot be refunded');
    expect(text).toContain('This acquirer cannot refund payments made by QR Ph. Reference: ER.20.28');
    expect(await refundRows(qr.id)).toEqual([]);
    // A GCash payment past the card's window keeps its refund form: its own window applies.
    const gcash = await createPayment(served.t, { amount: '45.00', method: 'gcash' });
    clock.advance(61 * DAY);
    const gcashPage = await (await asOwner()).get(`/console/payments/${gcash.id}`);
    expect(gcashPage.html).toContain('name="nonce"');
    const cardPage = await (await asOwner()).get(`/console/payments/${card.id}`);
    expect(textOf(cardPage.html)).toContain(
      "Refund not possible with the integrator's acquirer. This acquirer refunds card payments only within 60 days of the payment. Reference: ER.20.27",
    );
    expect(cardPage.html).not.toContain('name="nonce"');
  });

  it('payments.csv › has a payment_method column, and the method filter applies', async () => {
    const billease = await createPayment(served.t, { amount: '500.00', method: 'billease', merchantReferenceId: 'csv-billease' });
    const c = await asOwner();
    const csv = (await c.get('/console/payments.csv?method=billease')).html;
    const [header, ...rows] = csv.split('\r\n').filter(Boolean);
    const columns = header!.split(',');
    expect(columns).toContain('payment_method');
    const at = (row: string, name: string) => row.split(',')[columns.indexOf(name)];
    expect(rows.map((r) => [at(r, 'transaction_id'), at(r, 'payment_method'), at(r, 'card_brand'), at(r, 'card_last4')])).toEqual([
      [billease.id, 'billease', '', ''],
    ]);
    const cards = (await c.get('/console/payments.csv?method=card')).html.split('\r\n').filter(Boolean).slice(1);
    expect(cards.length).toBeGreaterThan(0);
    expect(cards.every((r) => at(r, 'payment_method') === 'card' && at(r, 'card_last4') !== '')).toBe(true);
  });

  it('home › splits the last 30 days’ paid volume by method, largest first, with each one’s share', async () => {
    // A fresh month: only these payments are in the window.
    clock.advance(400 * DAY);
    await createPayment(served.t, { amount: '300.00', method: 'gcash' });
    await createPayment(served.t, { amount: '100.00', method: 'gcash' });
    await createPayment(served.t, { amount: '100.00' });
    await createPayment(served.t, { amount: '999.00', method: 'qrph', card: CARDS.declined });
    const text = textOf((await (await asOwner()).get('/console')).html);
    expect(text).toContain('Paid with, last 30 days Method Paid Payments Share GCash ₱400.00 2 80 % Card ₱100.00 1 20 %');
    // The failed QR Ph payment is in no figure (Home lists it under Failed payments only).
    const figures = text.slice(0, text.indexOf('Recent payments'));
    expect(figures).not.toContain('QR Ph');
    expect(text).toContain('Failed payments All failed payments The latest failed payments, newest first Date Payer Amount Status Paid with');
  });
});
