import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxEvents, payments, refunds, sandboxCharges } from '../../../src/db/schema.ts';
import type { Payment } from '../../../src/domain/payments/record.ts';
import { call, createTestApp, defaultSeed, OTHER_TOKEN, provision, startTestServer, type TestApp } from '../../support/app.ts';
import { CARDS, createPayment } from '../../support/payments.ts';

/**
 * POST /api/v1/refund over HTTP against the built app, on PGlite and PostgreSQL. Acme Books may
 * refund Mastercard only in FULL; Other Shop may not refund at all (its default is `none`).
 */
let t: TestApp;
let server: { url: string; close(): Promise<void> };
let clock = new Date('2026-05-04T08:00:00.000Z');

beforeAll(async () => {
  t = await createTestApp({ now: () => clock });
  const seed = defaultSeed();
  seed.integrators[0]!.refund_capabilities = { mastercard: 'full' };
  seed.integrators[1]!.refund_capabilities = { default: 'none' };
  await provision(t, seed);
  server = await startTestServer(t.app);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

const refund = (body: unknown, opts: { token?: string; key?: string } = {}) =>
  call(server.url, 'POST', '/api/v1/refund', { body, token: opts.token, headers: opts.key ? { 'idempotency-key': opts.key } : {} });

async function paymentRow(id: string): Promise<Payment> {
  const [row] = await t.app.db.select().from(payments).where(eq(payments.id, id));
  return row!;
}
const refundRows = (paymentId: string) => t.app.db.select().from(refunds).where(eq(refunds.paymentId, paymentId));
async function acquirerRefunded(p: Payment): Promise<bigint> {
  const [charge] = await t.app.db.select().from(sandboxCharges).where(eq(sandboxCharges.id, p.acquirerReference!));
  return charge!.refundedMinor;
}
const refundEvents = (transactionId: string) =>
  t.app.db
    .select()
    .from(outboxEvents)
    .where(and(sql`${outboxEvents.type} like 'refund.%'`, sql`${outboxEvents.data}->>'transaction_id' = ${transactionId}`));

describe('refund: the spec samples replayed as they are', () => {
  it('refund › FULL sample (notify_user "true", no amount) answers OK.02.00 with the transaction id', async () => {
    const p = await createPayment(t, { amount: '100.00' });
    const res = await refund({ transaction_id: p.id, notify_user: 'true', reason: 'Customer returned the item' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      status: 200,
      message: 'OK',
      path: '/api/v1/refund',
      data: {
        transaction_id: p.id,
        status_code: 'OK.02.00',
        status_description: 'Full refund successful',
        refund_id: expect.stringMatching(/^rfd_/),
        refund_type: 'FULL',
        refund_status: 'succeeded',
        amount: '100.00',
        refunded_amount: '100.00',
        refundable_amount: '0.00',
        currency: 'PHP',
      },
    });
  });

  it('refund › PARTIAL sample (notify_user true, numeric amount 50) answers OK.04.00', async () => {
    const p = await createPayment(t, { amount: '100.00' });
    const res = await refund({ transaction_id: p.id, notify_user: true, reason: 'Partial refund for damaged box', amount: 50 });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({
      transaction_id: p.id,
      status_code: 'OK.04.00',
      status_description: 'Partial refund successful',
      refund_type: 'PARTIAL',
      amount: '50.00',
      refunded_amount: '50.00',
      refundable_amount: '50.00',
    });
  });

  it('refund › a refund of an already refunded transaction answers ER.20.20 with HTTP 200 and no transaction_id', async () => {
    const p = await createPayment(t, { amount: '20.00' });
    expect((await refund({ transaction_id: p.id, notify_user: 'false', reason: 'Cancelled' })).json.data.status_code).toBe('OK.02.00');
    const again = await refund({ transaction_id: p.id, notify_user: 'false', reason: 'Cancelled' });
    expect(again.status).toBe(200);
    expect(again.json.data).toMatchObject({
      status_code: 'ER.20.20',
      status_description: 'Unable to process client request because the transaction is already refunded',
      refundable_amount: '0.00',
    });
    expect(again.json.data).not.toHaveProperty('transaction_id');
    expect(again.json.messages.transaction_id[0]).toMatch(/already been fully refunded/);
  });
});

describe('refund: partial, then the rest, then nothing', () => {
  it('refund › a payment is refunded in parts, then in full, then answers ER.20.20', async () => {
    const p = await createPayment(t, { amount: '100.00' });
    const first = await refund({ transaction_id: p.id, notify_user: true, reason: 'Late delivery', amount: '12.50' });
    expect(first.json.data).toMatchObject({ status_code: 'OK.04.00', amount: '12.50', refunded_amount: '12.50', refundable_amount: '87.50' });
    const rest = await refund({ transaction_id: p.id, notify_user: true, reason: 'Order cancelled' });
    expect(rest.json.data).toMatchObject({ status_code: 'OK.02.00', amount: '87.50', refunded_amount: '100.00', refundable_amount: '0.00' });
    const third = await refund({ transaction_id: p.id, notify_user: true, reason: 'Again' });
    expect(third.json.data.status_code).toBe('ER.20.20');
    const partialAfter = await refund({ transaction_id: p.id, notify_user: true, reason: 'Again', amount: 1 });
    expect(partialAfter.json.data.status_code).toBe('ER.20.20');

    const row = await paymentRow(p.id);
    expect(row).toMatchObject({ refundedMinor: 10_000n, refundReservedMinor: 0n, refundCount: 2, refundedAt: clock });
    expect(await acquirerRefunded(row)).toBe(10_000n);
  });

  it('refund › rejects an amount above what is still refundable, saying how much remains', async () => {
    const p = await createPayment(t, { amount: '100.00' });
    await refund({ transaction_id: p.id, notify_user: true, reason: 'Part', amount: '62.50' });
    const res = await refund({ transaction_id: p.id, notify_user: true, reason: 'Too much', amount: '37.51' });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ status_code: 'ER.20.21', refundable_amount: '37.50', refunded_amount: '62.50', currency: 'PHP' });
    expect(res.json.data).not.toHaveProperty('transaction_id');
    expect(res.json.messages).toEqual({ amount: ['exceeds what is still refundable: at most 37.50 PHP remains'] });
    expect((await paymentRow(p.id)).refundedMinor).toBe(6_250n);
    expect(await refundRows(p.id)).toHaveLength(1);
  });

  it('refund › respects the currency: a JPY payment refunds whole yen only', async () => {
    const p = await createPayment(t, { amount: '5000', currency: 'JPY' });
    const bad = await refund({ transaction_id: p.id, notify_user: true, reason: 'x', amount: '10.5' });
    expect(bad.status).toBe(422);
    expect(bad.json.messages.amount).toEqual(['JPY has no minor unit: give a whole number']);
    const ok = await refund({ transaction_id: p.id, notify_user: true, reason: 'x', amount: 1500 });
    expect(ok.json.data).toMatchObject({ status_code: 'OK.04.00', amount: '1500', refundable_amount: '3500', currency: 'JPY' });
  });
});

describe('refund: invalid requests', () => {
  it('refund › requires transaction_id, notify_user and reason (422 ER.02.30 with messages)', async () => {
    const res = await refund({});
    expect(res.status).toBe(422);
    expect(res.json.data.status_code).toBe('ER.02.30');
    expect(res.json.messages).toEqual({ transaction_id: ['is required'], notify_user: ['is required'], reason: ['is required'] });
  });

  it('refund › accepts notify_user only as a boolean or the text "true"/"false"', async () => {
    const p = await createPayment(t);
    for (const notify of ['yes', 'TRUE', 1, null]) {
      const res = await refund({ transaction_id: p.id, notify_user: notify, reason: 'x' });
      expect(res.status).toBe(422);
      expect(res.json.messages).toEqual({ notify_user: ['must be true or false (a boolean, or the text "true" or "false")'] });
    }
  });

  it('refund › rejects an empty or overlong reason and unknown fields', async () => {
    const p = await createPayment(t);
    expect((await refund({ transaction_id: p.id, notify_user: true, reason: '   ' })).json.messages.reason).toEqual([
      'must not be empty: say why the transaction is refunded',
    ]);
    expect((await refund({ transaction_id: p.id, notify_user: true, reason: 'x'.repeat(501) })).json.messages.reason).toEqual([
      'must be at most 500 characters',
    ]);
    const extra = await refund({ transaction_id: p.id, notify_user: true, reason: 'x', currency: 'USD' });
    expect(extra.status).toBe(422);
    expect(extra.json.messages).toEqual({ currency: ['is not a recognised field'] });
  });

  it('refund › rejects an amount that is zero, negative, malformed or has too many decimals (422 on amount)', async () => {
    const p = await createPayment(t);
    const cases: [unknown, string][] = [
      [0, 'must be greater than zero'],
      ['0.00', 'must be greater than zero'],
      [-5, 'must not be negative'],
      ['-5', 'must not be negative'],
      ['12.345', 'PHP allows at most 2 decimal places'],
      [12.345, 'PHP allows at most 2 decimal places'],
      ['abc', 'must be a decimal number such as "12.50"'],
      ['1e3', 'must be written as a plain decimal number, without exponent notation'],
      [null, 'must be a decimal amount such as "12.50" or 12.5; omit it for a FULL refund'],
      [true, 'must be a decimal amount such as "12.50" or 12.5; omit it for a FULL refund'],
    ];
    for (const [amount, message] of cases) {
      const res = await refund({ transaction_id: p.id, notify_user: true, reason: 'x', amount });
      expect(res.status, JSON.stringify(amount)).toBe(422);
      expect(res.json.data.status_code).toBe('ER.02.30');
      expect(res.json.messages).toEqual({ amount: [message] });
    }
    expect(await refundRows(p.id)).toHaveLength(0);
  });

  it('refund › answers an unknown transaction with 404 ER.02.30 on transaction_id', async () => {
    const res = await refund({ transaction_id: 'txn_does_not_exist', notify_user: true, reason: 'x' });
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ status: 404, data: { status_code: 'ER.02.30' }, messages: { transaction_id: ['This transaction does not exist'] } });
  });

  it("refund › answers another integrator's transaction exactly like an unknown one and leaves it untouched", async () => {
    const theirs = await createPayment(t, { integrator: 'Other Shop', amount: '10.00', currency: 'USD' });
    const res = await refund({ transaction_id: theirs.id, notify_user: true, reason: 'x', amount: '1.00' });
    const unknown = await refund({ transaction_id: 'txn_does_not_exist', notify_user: true, reason: 'x', amount: '1.00' });
    expect(res.status).toBe(404);
    expect(res.json.messages).toEqual(unknown.json.messages);
    expect(res.json.data).toEqual(unknown.json.data);
    expect(await refundRows(theirs.id)).toHaveLength(0);
  });

  it('refund › answers 401 without a token and 405 for other methods', async () => {
    expect((await call(server.url, 'POST', '/api/v1/refund', { body: {}, token: null })).status).toBe(401);
    const get = await call(server.url, 'GET', '/api/v1/refund');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });
});

describe('refund: business rules', () => {
  it('refund › refuses a failed payment with ER.20.22', async () => {
    const p = await createPayment(t, { card: CARDS.declined });
    expect(p.status).toBe('failed');
    const res = await refund({ transaction_id: p.id, notify_user: true, reason: 'x' });
    expect(res.status).toBe(200);
    expect(res.json.data.status_code).toBe('ER.20.22');
    expect(res.json.data).not.toHaveProperty('transaction_id');
  });

  it('refund › enforces the refund capability for the card brand (ER.20.23)', async () => {
    const mastercard = await createPayment(t, { card: CARDS.mastercard, amount: '40.00' });
    const partial = await refund({ transaction_id: mastercard.id, notify_user: true, reason: 'x', amount: '10.00' });
    expect(partial.json.data.status_code).toBe('ER.20.23');
    expect(partial.json.messages.amount[0]).toMatch(/PARTIAL refunds are not available for mastercard cards/);
    const full = await refund({ transaction_id: mastercard.id, notify_user: true, reason: 'x' });
    expect(full.json.data).toMatchObject({ status_code: 'OK.02.00', amount: '40.00' });

    const none = await createPayment(t, { integrator: 'Other Shop', amount: '10.00', currency: 'USD' });
    const refused = await refund({ transaction_id: none.id, notify_user: true, reason: 'x' }, { token: OTHER_TOKEN });
    expect(refused.json.data.status_code).toBe('ER.20.23');
    expect(refused.json.messages.transaction_id[0]).toMatch(/refunds are not available for visa cards/);
  });

  it('refund › allows at most PAYLINK_REFUND_MAX_COUNT (10) refunds per payment (ER.20.24)', async () => {
    const p = await createPayment(t, { amount: '100.00' });
    for (let i = 0; i < 10; i++) {
      expect((await refund({ transaction_id: p.id, notify_user: false, reason: `part ${i}`, amount: 1 })).json.data.status_code).toBe('OK.04.00');
    }
    const eleventh = await refund({ transaction_id: p.id, notify_user: false, reason: 'one more', amount: 1 });
    expect(eleventh.json.data.status_code).toBe('ER.20.24');
    expect(eleventh.json.messages.transaction_id[0]).toMatch(/already has 10 refunds/);
  });

  it('refund › closes the refund window PAYLINK_REFUND_WINDOW_DAYS (365) days after payment (ER.20.25)', async () => {
    const p = await createPayment(t, { amount: '30.00' });
    const paidAt = clock;
    try {
      clock = new Date(paidAt.getTime() + 366 * 86_400_000);
      const late = await refund({ transaction_id: p.id, notify_user: true, reason: 'x' });
      expect(late.json.data.status_code).toBe('ER.20.25');
      clock = new Date(paidAt.getTime() + 365 * 86_400_000);
      expect((await refund({ transaction_id: p.id, notify_user: true, reason: 'x' })).json.data.status_code).toBe('OK.02.00');
    } finally {
      clock = paidAt;
    }
  });
});

describe('refund: the acquirer refuses', () => {
  it("refund › records an acquirer refusal as a failed refund with the acquirer's code and reason, balance unchanged", async () => {
    const p = await createPayment(t, { card: CARDS.refundFails, amount: '80.00' });
    const res = await refund({ transaction_id: p.id, notify_user: true, reason: 'Damaged', amount: '30.00' });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({
      status_code: 'ER.20.26',
      refund_id: expect.stringMatching(/^rfd_/),
      refund_status: 'failed',
      failure_code: 'refund_not_supported',
      failure_message: 'The card issuer does not accept refunds to this card.',
      refunded_amount: '0.00',
      refundable_amount: '80.00',
    });
    expect(res.json.data).not.toHaveProperty('transaction_id');
    expect(res.json.messages.transaction_id[0]).toMatch(/refund_not_supported/);

    const [row] = await refundRows(p.id);
    expect(row).toMatchObject({
      status: 'failed',
      failureCode: 'refund_not_supported',
      failureMessage: 'The card issuer does not accept refunds to this card.',
      failedAt: clock,
    });
    expect(await paymentRow(p.id)).toMatchObject({ refundedMinor: 0n, refundReservedMinor: 0n, refundCount: 0, refundedAt: null });
    expect(await acquirerRefunded(p)).toBe(0n);

    const [event] = await refundEvents(p.id);
    expect(event).toMatchObject({ type: 'refund.failed', callbackState: 'pending', emailState: 'none', emailTo: null });
    expect(event!.data).toMatchObject({
      refund_id: row!.id,
      status: 'failed',
      failure_code: 'refund_not_supported',
      amount: '30.00',
      refunded_amount: '0.00',
      refundable_amount: '80.00',
    });
  });
});

describe('refund: notifications', () => {
  it('refund › writes refund.succeeded for the callback and an e-mail to the customer when notify_user is true', async () => {
    const p = await createPayment(t, {
      amount: '45.00',
      customerEmail: 'maria@example.com',
      callbackUrl: 'https://shop.example/paylink',
      merchantReferenceId: 'order-77',
    });
    const res = await refund({ transaction_id: p.id, notify_user: 'true', reason: 'Wrong size', amount: '15.00' });
    const [event] = await refundEvents(p.id);
    expect(event).toMatchObject({
      type: 'refund.succeeded',
      callbackUrl: 'https://shop.example/paylink',
      callbackState: 'pending',
      emailTo: 'maria@example.com',
      emailState: 'pending',
    });
    expect(event!.data).toEqual({
      transaction_id: p.id,
      refund_id: res.json.data.refund_id,
      refund_type: 'PARTIAL',
      status: 'succeeded',
      amount: '15.00',
      currency: 'PHP',
      reason: 'Wrong size',
      notify_user: true,
      failure_code: null,
      failure_message: null,
      merchant_reference_id: 'order-77',
      other_references: [],
      description: 'Test order',
      customer: { first_name: null, last_name: null, name: null, email: 'maria@example.com', mobile: null, billing_address: null },
      payment_method: 'card',
      card: { brand: 'visa', last4: '4242' },
      payment_amount: '45.00',
      refunded_amount: '15.00',
      refundable_amount: '30.00',
    });
  });

  it('refund › sends no customer e-mail when notify_user is false, and no callback without a callback_url', async () => {
    const p = await createPayment(t, { amount: '45.00', callbackUrl: null });
    await refund({ transaction_id: p.id, notify_user: 'false', reason: 'x' });
    const [event] = await refundEvents(p.id);
    expect(event).toMatchObject({ type: 'refund.succeeded', callbackState: 'no_destination', emailState: 'none', emailTo: null, callbackUrl: null });
  });
});

describe('refund: Idempotency-Key', () => {
  it('refund › a retried refund returns the first reply and refunds once', async () => {
    const p = await createPayment(t, { amount: '100.00' });
    const body = { transaction_id: p.id, notify_user: true, reason: 'Retry me', amount: '25.00' };
    const first = await refund(body, { key: 'refund-retry-1' });
    const second = await refund(body, { key: 'refund-retry-1' });
    expect(first.json.data.status_code).toBe('OK.04.00');
    expect(second.text).toBe(first.text);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await refundRows(p.id)).toHaveLength(1);
    const row = await paymentRow(p.id);
    expect(row.refundedMinor).toBe(2_500n);
    expect(await acquirerRefunded(row)).toBe(2_500n);
    expect(await refundEvents(p.id)).toHaveLength(1);
  });

  it('refund › the same key with a different refund is refused (ER.02.40)', async () => {
    const p = await createPayment(t, { amount: '100.00' });
    await refund({ transaction_id: p.id, notify_user: true, reason: 'x', amount: '5.00' }, { key: 'refund-retry-2' });
    const other = await refund({ transaction_id: p.id, notify_user: true, reason: 'x', amount: '6.00' }, { key: 'refund-retry-2' });
    expect(other.status).toBe(422);
    expect(other.json.data.status_code).toBe('ER.02.40');
    expect(await refundRows(p.id)).toHaveLength(1);
  });
});

describe('ping', () => {
  it('ping › answers OK.00.00 without authentication', async () => {
    const res = await call(server.url, 'GET', '/api/v1/ping', { token: null });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 200, path: '/api/v1/ping', data: { status_code: 'OK.00.00', status_description: 'Request successful' } });
  });
});
