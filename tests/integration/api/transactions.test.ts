import { describe, expect, it } from 'vitest';
import { call, OTHER_TOKEN, useServedApp } from '../../support/app.ts';
import { CARDS, createPayment } from '../../support/payments.ts';

/** GET /api/v1/transactions/{transaction_id}: a payment with its refunds, for reconciliation. */
let clock = new Date('2026-06-01T12:00:00.000Z');

const served = useServedApp({ now: () => clock });

const refund = (body: unknown) => call(served.server.url, 'POST', '/api/v1/refund', { body });
const transaction = (id: string, token?: string) => call(served.server.url, 'GET', `/api/v1/transactions/${encodeURIComponent(id)}`, { token });

describe('transactions', () => {
  it('transaction › shows a paid transaction nobody refunded yet', async () => {
    const p = await createPayment(served.t, { amount: '120.00', merchantReferenceId: 'order-1' });
    const res = await transaction(p.id);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ path: `/api/v1/transactions/${p.id}`, data: { status_code: 'OK.00.00' } });
    expect(res.json.data.transaction).toEqual({
      transaction_id: p.id,
      status: 'succeeded',
      refund_state: 'not_refunded',
      amount: '120.00',
      currency: 'PHP',
      refunded_amount: '0.00',
      pending_refund_amount: '0.00',
      refundable_amount: '120.00',
      refund_count: 0,
      description: 'Test order',
      merchant_reference_id: 'order-1',
      other_references: [],
      link: null,
      schedule_reference: null,
      customer: { first_name: null, last_name: null, name: null, email: 'juan@example.com', mobile: null, billing_address: null },
      payment_method: 'card',
      card: { brand: 'visa', last4: '4242', exp_month: null, exp_year: null },
      failure_code: null,
      failure_message: null,
      created_at: clock.toISOString(),
      paid_at: clock.toISOString(),
      failed_at: null,
      refunded_at: null,
      refunds: [],
      sale: null,
    });
  });

  it('transaction › lists its refunds with amounts and states as they are refunded', async () => {
    const p = await createPayment(served.t, { amount: '100.00' });
    const part = await refund({ transaction_id: p.id, notify_user: true, reason: 'Scratched', amount: '25.00' });
    let view = (await transaction(p.id)).json.data.transaction;
    expect(view).toMatchObject({
      refund_state: 'partially_refunded',
      refunded_amount: '25.00',
      refundable_amount: '75.00',
      refund_count: 1,
      refunded_at: null,
    });
    expect(view.refunds).toEqual([
      {
        refund_id: part.json.data.refund_id,
        refund_type: 'PARTIAL',
        status: 'succeeded',
        amount: '25.00',
        currency: 'PHP',
        reason: 'Scratched',
        notify_user: true,
        acquirer_reference: expect.stringMatching(/^re_/),
        failure_code: null,
        failure_message: null,
        created_at: clock.toISOString(),
        succeeded_at: clock.toISOString(),
        failed_at: null,
      },
    ]);
    clock = new Date(clock.getTime() + 1000); // refunds are listed oldest first
    await refund({ transaction_id: p.id, notify_user: 'false', reason: 'Cancelled' });
    view = (await transaction(p.id)).json.data.transaction;
    expect(view).toMatchObject({
      refund_state: 'refunded',
      refunded_amount: '100.00',
      refundable_amount: '0.00',
      refund_count: 2,
      refunded_at: clock.toISOString(),
    });
    expect(view.refunds.map((r: { refund_type: string; amount: string }) => [r.refund_type, r.amount])).toEqual([
      ['PARTIAL', '25.00'],
      ['FULL', '75.00'],
    ]);
  });

  it("transaction › shows a failed refund with the acquirer's code and an unchanged balance", async () => {
    const p = await createPayment(served.t, { card: CARDS.refundFails, amount: '60.00' });
    await refund({ transaction_id: p.id, notify_user: true, reason: 'x' });
    const view = (await transaction(p.id)).json.data.transaction;
    expect(view).toMatchObject({ refund_state: 'not_refunded', refunded_amount: '0.00', refundable_amount: '60.00', refund_count: 0 });
    expect(view.refunds).toMatchObject([
      { refund_type: 'FULL', status: 'failed', amount: '60.00', failure_code: 'refund_not_supported', failed_at: clock.toISOString() },
    ]);
  });

  it('transaction › shows a failed payment as not refundable', async () => {
    const p = await createPayment(served.t, { card: CARDS.declined });
    const view = (await transaction(p.id)).json.data.transaction;
    expect(view).toMatchObject({ status: 'failed', refundable_amount: '0.00', failure_code: 'card_declined', paid_at: null, failed_at: clock.toISOString() });
  });

  it("transaction › answers an unknown or another integrator's transaction with 404 ER.02.30", async () => {
    const theirs = await createPayment(served.t, { integrator: 'Other Shop', currency: 'USD', amount: '10.00' });
    for (const id of ['txn_nope', theirs.id]) {
      const res = await transaction(id);
      expect(res.status).toBe(404);
      expect(res.json.data.status_code).toBe('ER.02.30');
      expect(res.json.messages).toEqual({ transaction_id: ['This transaction does not exist'] });
    }
    expect((await transaction(theirs.id, OTHER_TOKEN)).json.data.transaction.transaction_id).toBe(theirs.id);
  });

  it('transaction › requires a token and only answers GET', async () => {
    const p = await createPayment(served.t);
    expect((await transaction(p.id, '')).status).toBe(401);
    const post = await call(served.server.url, 'POST', `/api/v1/transactions/${p.id}`, { body: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });
});
