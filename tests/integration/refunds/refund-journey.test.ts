import { describe, expect, it } from 'vitest';
import { call, TEST_TOKEN, useServedApp } from '../../support/app.ts';
import { CARD_EXPIRY } from '../../support/cards.ts';

/**
 * The newcomer's journey, all over HTTP: pay a link with a test card, refund part of it, then the
 * rest, then see ER.20.20 on a third try, and find it all on the transaction.
 */
const served = useServedApp();

const refund = (body: unknown) => call(served.server.url, 'POST', '/api/v1/refund', { body });

describe('refund journey', () => {
  it('refund › a paid link is refunded in part, then the rest, then answers ER.20.20', async () => {
    const link = await call(served.server.url, 'POST', '/pay/acme-books', {
      token: null,
      body: { key: TEST_TOKEN, payment: { merchant_reference_id: 'order-1001' } },
    });
    expect(link.status, link.text).toBe(200);
    const token = new URL(link.json.link).pathname.split('/')[2]!;
    const paid = await call(served.server.url, 'POST', `/checkout/${token}/pay`, {
      token: null,
      body: {
        fields: { 'customer.first_name': 'Juan', 'customer.last_name': 'Dela Cruz', 'customer.contact.email': 'juan@example.com' },
        card: { number: '4242424242424242', expiry: CARD_EXPIRY, cvc: '123', name: 'Juan Dela Cruz' },
      },
    });
    expect(paid.json.data.status_code, paid.text).toBe('OK.03.00');
    const txn = paid.json.data.transaction_id as string;

    const part = await refund({ transaction_id: txn, notify_user: true, reason: 'One book was damaged', amount: 100 });
    expect(part.json.data).toMatchObject({
      transaction_id: txn,
      status_code: 'OK.04.00',
      amount: '100.00',
      refunded_amount: '100.00',
      refundable_amount: '150.00',
    });
    const rest = await refund({ transaction_id: txn, notify_user: 'true', reason: 'Order cancelled' });
    expect(rest.json.data).toMatchObject({
      transaction_id: txn,
      status_code: 'OK.02.00',
      amount: '150.00',
      refunded_amount: '250.00',
      refundable_amount: '0.00',
    });
    const third = await refund({ transaction_id: txn, notify_user: 'true', reason: 'Once more' });
    expect(third.status).toBe(200);
    expect(third.json.data.status_code).toBe('ER.20.20');

    const view = (await call(served.server.url, 'GET', `/api/v1/transactions/${txn}`)).json.data.transaction;
    expect(view).toMatchObject({ merchant_reference_id: 'order-1001', amount: '250.00', refund_state: 'refunded', refunded_amount: '250.00', refund_count: 2 });
    expect(view.refunds.map((r: { status: string }) => r.status)).toEqual(['succeeded', 'succeeded']);
  });
});
