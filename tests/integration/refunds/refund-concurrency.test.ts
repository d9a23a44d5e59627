import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { payments, refunds, sandboxCharges } from '../../../src/db/schema.ts';
import { parseAmount } from '../../../src/domain/money.ts';
import { call, useServedApp } from '../../support/app.ts';
import { createPayment } from '../../support/payments.ts';

/**
 * Concurrent refunds through HTTP against one payment, on PGlite and on PostgreSQL: the sum
 * refunded never exceeds the payment, every reply is a success or a clean business failure, and
 * the database (payment balance, refund rows, the acquirer's own ledger) agrees with the replies.
 * The refund count limit is raised so that only the balance decides.
 *
 * Only the PostgreSQL run proves the lock: PGlite runs one transaction at a time, so the
 * requests never race there and removing `FOR UPDATE` on the payment row passes on PGlite. Run
 * with DATABASE_URL set (docs/testing.md); `npm test` says when it was not.
 */
const served = useServedApp({ env: { PAYLINK_REFUND_MAX_COUNT: '1000' } });

const CLEAN_FAILURES = ['ER.20.20', 'ER.20.21'];
const minor = (decimal: string) => parseAmount(decimal, 'PHP', { allowZero: true }).minor;

async function ledger(paymentId: string) {
  const [payment] = await served.t.app.db.select().from(payments).where(eq(payments.id, paymentId));
  const rows = await served.t.app.db.select().from(refunds).where(eq(refunds.paymentId, paymentId));
  const [charge] = await served.t.app.db.select().from(sandboxCharges).where(eq(sandboxCharges.id, payment!.acquirerReference!));
  const succeeded = rows.filter((r) => r.status === 'succeeded');
  return {
    payment: payment!,
    rows,
    succeededSum: succeeded.reduce((sum, r) => sum + r.amountMinor, 0n),
    succeededCount: succeeded.length,
    acquirerRefunded: charge!.refundedMinor,
  };
}

type Reply = Awaited<ReturnType<typeof call>>;

function successesOf(replies: Reply[]) {
  for (const reply of replies) {
    expect(reply.status, reply.text).toBe(200);
    const code = reply.json.data.status_code;
    expect(['OK.02.00', 'OK.04.00', ...CLEAN_FAILURES], reply.text).toContain(code);
  }
  return replies.filter((r) => r.json.data.status_code.startsWith('OK.'));
}

describe('refund concurrency', () => {
  it('refund › 50 concurrent PARTIAL refunds never refund more than the payment, and the database agrees with the replies', async () => {
    const p = await createPayment(served.t, { amount: '100.00' });
    const amounts = Array.from({ length: 50 }, (_, i) => ['1.00', '2.50', '3.75', '5.00', '7.25'][i % 5]!);
    const replies = await Promise.all(
      amounts.map((amount, i) =>
        call(served.server.url, 'POST', '/api/v1/refund', { body: { transaction_id: p.id, notify_user: false, reason: `race ${i}`, amount } }),
      ),
    );
    const ok = successesOf(replies);
    const replied = ok.reduce((sum, r) => sum + minor(r.json.data.amount), 0n);
    const db = await ledger(p.id);

    expect(replied).toBeLessThanOrEqual(10_000n);
    expect(ok.length).toBeGreaterThan(0);
    expect(ok.length).toBeLessThan(50); // 50 requests ask for 195.00 of a 100.00 payment
    expect(db.payment.refundedMinor).toBe(replied);
    expect(db.succeededSum).toBe(replied);
    expect(db.acquirerRefunded).toBe(replied);
    expect(db.payment.refundReservedMinor).toBe(0n);
    expect(db.succeededCount).toBe(ok.length);
    expect(db.rows).toHaveLength(ok.length); // business failures leave no refund behind
    expect(db.payment.refundCount).toBe(ok.length);
    expect(new Set(ok.map((r) => r.json.data.refund_id))).toEqual(new Set(db.rows.map((r) => r.id)));
    // Each success reported a balance that was true at its moment: refunded + refundable never exceeds the payment.
    for (const r of ok) expect(minor(r.json.data.refunded_amount) + minor(r.json.data.refundable_amount)).toBeLessThanOrEqual(10_000n);
    // Every rejection was right to be: no amount was refused while that much was still free at the end.
    const left = 10_000n - replied;
    for (const r of replies.filter((x) => x.json.data.status_code === 'ER.20.21')) {
      expect(minor(amounts[replies.indexOf(r)]!)).toBeGreaterThan(left);
    }
  });

  it('refund › a FULL refund racing PARTIAL refunds takes exactly what they left', async () => {
    const p = await createPayment(served.t, { amount: '100.00' });
    const partials = Array.from({ length: 20 }, (_, i) =>
      call(served.server.url, 'POST', '/api/v1/refund', { body: { transaction_id: p.id, notify_user: 'false', reason: `partial ${i}`, amount: '4.00' } }),
    );
    const full = call(served.server.url, 'POST', '/api/v1/refund', { body: { transaction_id: p.id, notify_user: 'false', reason: 'everything' } });
    const replies = await Promise.all([...partials.slice(0, 10), full, ...partials.slice(10)]);
    const ok = successesOf(replies);
    const fullReply = await full;
    const replied = ok.reduce((sum, r) => sum + minor(r.json.data.amount), 0n);
    const db = await ledger(p.id);

    expect(['OK.02.00', 'ER.20.20']).toContain(fullReply.json.data.status_code);
    if (fullReply.json.data.status_code === 'OK.02.00') expect(replied).toBe(10_000n);
    expect(replied).toBeLessThanOrEqual(10_000n);
    expect(db.payment.refundedMinor).toBe(replied);
    expect(db.succeededSum).toBe(replied);
    expect(db.acquirerRefunded).toBe(replied);
    expect(db.payment.refundReservedMinor).toBe(0n);
    expect(db.rows).toHaveLength(ok.length);
    expect(db.rows.filter((r) => r.type === 'full').length).toBe(fullReply.json.data.status_code === 'OK.02.00' ? 1 : 0);
  });

  it('refund › concurrent FULL refunds of one payment refund it once', async () => {
    const p = await createPayment(served.t, { amount: '100.00' });
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call(served.server.url, 'POST', '/api/v1/refund', { body: { transaction_id: p.id, notify_user: true, reason: `full ${i}` } }),
      ),
    );
    const ok = successesOf(replies);
    expect(ok).toHaveLength(1);
    expect(ok[0]!.json.data).toMatchObject({ status_code: 'OK.02.00', amount: '100.00' });
    expect(replies.filter((r) => r.json.data.status_code === 'ER.20.20')).toHaveLength(9);
    const db = await ledger(p.id);
    expect(db.acquirerRefunded).toBe(10_000n);
    expect(db.rows).toHaveLength(1);
  });
});
