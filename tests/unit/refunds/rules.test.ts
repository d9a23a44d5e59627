import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.ts';
import {
  checkRefund,
  DEFAULT_REFUND_MAX_COUNT,
  DEFAULT_REFUND_WINDOW_DAYS,
  parseRefundAmount,
  type RefundablePayment,
  refundableMinor,
} from '../../../src/domain/refunds/rules.ts';

const paidAt = new Date('2026-03-01T10:00:00Z');
const now = new Date('2026-03-02T10:00:00Z');
const limits = { maxCount: DEFAULT_REFUND_MAX_COUNT, windowDays: DEFAULT_REFUND_WINDOW_DAYS };
const ctx = { capability: 'full_partial' as const, limits, now };

const payment = (over: Partial<RefundablePayment> = {}): RefundablePayment => ({
  status: 'succeeded',
  amountMinor: 10_000n,
  refundedMinor: 0n,
  refundReservedMinor: 0n,
  refundCount: 0,
  currency: 'PHP',
  cardBrand: 'visa',
  paidAt,
  ...over,
});

function rejection(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError');
}

describe('refund rules', () => {
  it('refund › FULL returns everything not yet refunded or in flight', () => {
    expect(checkRefund(payment({ refundedMinor: 2_500n, refundReservedMinor: 1_000n, refundCount: 2 }), { type: 'full' }, ctx)).toBe(6_500n);
  });

  it('refund › PARTIAL returns exactly the amount asked for', () => {
    expect(checkRefund(payment(), { type: 'partial', amountMinor: 1_250n }, ctx)).toBe(1_250n);
    expect(checkRefund(payment({ refundedMinor: 9_000n, refundCount: 1 }), { type: 'partial', amountMinor: 1_000n }, ctx)).toBe(1_000n);
  });

  it('refund › rejects an amount above what is still refundable, saying how much remains', () => {
    const error = rejection(() => checkRefund(payment({ refundedMinor: 7_500n, refundCount: 1 }), { type: 'partial', amountMinor: 2_501n }, ctx));
    expect(error.code).toBe('ER.20.21');
    expect(error.messages).toEqual({ amount: ['exceeds what is still refundable: at most 25.00 PHP remains'] });
    expect(error.data).toMatchObject({ refundable_amount: '25.00', refunded_amount: '75.00', currency: 'PHP' });
  });

  it('refund › counts refunds in flight as taken', () => {
    const error = rejection(() => checkRefund(payment({ refundReservedMinor: 9_000n, refundCount: 1 }), { type: 'partial', amountMinor: 1_001n }, ctx));
    expect(error.code).toBe('ER.20.21');
  });

  it('refund › answers ER.20.20 when nothing is left, for FULL and PARTIAL alike', () => {
    for (const request of [{ type: 'full' as const }, { type: 'partial' as const, amountMinor: 1n }]) {
      expect(rejection(() => checkRefund(payment({ refundedMinor: 10_000n, refundCount: 1 }), request, ctx)).code).toBe('ER.20.20');
    }
  });

  it('refund › prefers ER.20.20 over the count limit when the payment is fully refunded', () => {
    expect(rejection(() => checkRefund(payment({ refundedMinor: 10_000n, refundCount: 10 }), { type: 'full' }, ctx)).code).toBe('ER.20.20');
  });

  it('refund › rejects a failed or unpaid payment with ER.20.22', () => {
    expect(rejection(() => checkRefund(payment({ status: 'failed', paidAt: null }), { type: 'full' }, ctx)).code).toBe('ER.20.22');
  });

  it('refund › enforces the refund capability for the card brand', () => {
    const none = rejection(() => checkRefund(payment(), { type: 'full' }, { ...ctx, capability: 'none' }));
    expect(none.code).toBe('ER.20.23');
    expect(none.messages).toEqual({ transaction_id: [expect.stringContaining('refunds are not available for visa cards')] });
    const fullOnly = rejection(() => checkRefund(payment(), { type: 'partial', amountMinor: 100n }, { ...ctx, capability: 'full' }));
    expect(fullOnly.code).toBe('ER.20.23');
    expect(fullOnly.messages).toEqual({ amount: [expect.stringContaining('omit amount to make a FULL refund')] });
    expect(checkRefund(payment(), { type: 'full' }, { ...ctx, capability: 'full' })).toBe(10_000n);
  });

  it(`refund › allows at most ${DEFAULT_REFUND_MAX_COUNT} refunds per payment by default`, () => {
    const p = payment({ refundedMinor: 900n, refundCount: DEFAULT_REFUND_MAX_COUNT });
    expect(rejection(() => checkRefund(p, { type: 'partial', amountMinor: 1n }, ctx)).code).toBe('ER.20.24');
    expect(checkRefund({ ...p, refundCount: DEFAULT_REFUND_MAX_COUNT - 1 }, { type: 'partial', amountMinor: 1n }, ctx)).toBe(1n);
  });

  it(`refund › closes the window ${DEFAULT_REFUND_WINDOW_DAYS} days after payment`, () => {
    const lastDay = new Date(paidAt.getTime() + DEFAULT_REFUND_WINDOW_DAYS * 86_400_000);
    expect(checkRefund(payment(), { type: 'full' }, { ...ctx, now: lastDay })).toBe(10_000n);
    const error = rejection(() => checkRefund(payment(), { type: 'full' }, { ...ctx, now: new Date(lastDay.getTime() + 1) }));
    expect(error.code).toBe('ER.20.25');
  });

  it('refund › never reports a negative refundable amount', () => {
    expect(refundableMinor({ amountMinor: 100n, refundedMinor: 100n, refundReservedMinor: 5n })).toBe(0n);
  });
});

describe('refund amount parsing', () => {
  it('refund amount › reads numbers and decimal strings exactly in the payment currency', () => {
    expect(parseRefundAmount(50, 'PHP')).toBe(5_000n);
    expect(parseRefundAmount('12.50', 'PHP')).toBe(1_250n);
    expect(parseRefundAmount(0.1, 'PHP')).toBe(10n);
    expect(parseRefundAmount('500', 'JPY')).toBe(500n);
  });

  it('refund amount › rejects zero, negatives, junk and extra decimals as 422 ER.02.30 on amount', () => {
    for (const [input, currency] of [
      [0, 'PHP'],
      ['-1', 'PHP'],
      [-5, 'PHP'],
      ['abc', 'PHP'],
      ['1.234', 'PHP'],
      ['1.5', 'JPY'],
      ['1e3', 'PHP'],
      ['', 'PHP'],
    ] as const) {
      const error = rejection(() => parseRefundAmount(input, currency));
      expect(error.code).toBe('ER.02.30');
      expect(error.httpStatus).toBe(422);
      expect(Object.keys(error.messages as object)).toEqual(['amount']);
    }
  });
});

describe('refund rules › what each refusal tells the integrator', () => {
  const refusal = (p: RefundablePayment, request: Parameters<typeof checkRefund>[1], over: Partial<Parameters<typeof checkRefund>[2]> = {}) => {
    const error = rejection(() => checkRefund(p, request, { ...ctx, ...over }));
    return { code: error.code, messages: error.messages, data: error.data };
  };

  it('refund › a payment that failed, or succeeded without a payment time, cannot be refunded', () => {
    const expected = { code: 'ER.20.22', messages: { transaction_id: ['was not paid (the payment failed), so there is nothing to refund'] } };
    expect(refusal(payment({ status: 'failed' }), { type: 'full' })).toMatchObject(expected);
    expect(refusal(payment({ paidAt: null }), { type: 'full' })).toMatchObject(expected);
  });

  it('refund › names the card brand the capability is missing for', () => {
    expect(refusal(payment(), { type: 'full' }, { capability: 'none' })).toMatchObject({
      code: 'ER.20.23',
      messages: { transaction_id: ['refunds are not available for visa cards on your account; contact support to enable them'] },
    });
    expect(refusal(payment({ cardBrand: null }), { type: 'partial', amountMinor: 100n }, { capability: 'full' })).toMatchObject({
      code: 'ER.20.23',
      messages: { amount: ['PARTIAL refunds are not available for this card on your account; omit amount to make a FULL refund'] },
    });
  });

  it('refund › says how long the window is', () => {
    expect(refusal(payment(), { type: 'full' }, { now: new Date(paidAt.getTime() + (DEFAULT_REFUND_WINDOW_DAYS + 1) * 86_400_000) })).toMatchObject({
      code: 'ER.20.25',
      messages: {
        transaction_id: [
          `was paid more than ${DEFAULT_REFUND_WINDOW_DAYS} days ago; refunds are accepted for ${DEFAULT_REFUND_WINDOW_DAYS} days after payment`,
        ],
      },
    });
  });

  it('refund › says what is in flight when nothing is left, and the balances', () => {
    expect(refusal(payment({ refundedMinor: 7_000n, refundReservedMinor: 3_000n, refundCount: 2 }), { type: 'full' })).toEqual({
      code: 'ER.20.20',
      messages: { transaction_id: ['has already been fully refunded (30.00 PHP is being refunded right now); nothing is left to refund'] },
      data: { refunded_amount: '70.00', refundable_amount: '0.00', currency: 'PHP' },
    });
    expect(refusal(payment({ refundedMinor: 10_000n, refundCount: 1 }), { type: 'full' }).messages).toEqual({
      transaction_id: ['has already been fully refunded; nothing is left to refund'],
    });
  });

  it('refund › says the count limit', () => {
    expect(refusal(payment({ refundedMinor: 100n, refundCount: 10 }), { type: 'full' })).toMatchObject({
      code: 'ER.20.24',
      messages: { transaction_id: ['already has 10 refunds, the most one transaction may have (10)'] },
    });
  });

  it('refund amount › carries the money rule that was broken as the message on amount', () => {
    const error = rejection(() => parseRefundAmount('1.234', 'PHP'));
    expect(error.code).toBe('ER.02.30');
    expect(error.messages).toEqual({ amount: ['PHP allows at most 2 decimal places'] });
  });

  it('refund › nothing refundable is exactly zero when refunds and reservations add up to the amount', () => {
    expect(refundableMinor({ amountMinor: 100n, refundedMinor: 60n, refundReservedMinor: 40n })).toBe(0n);
    expect(refundableMinor({ amountMinor: 100n, refundedMinor: 60n, refundReservedMinor: 39n })).toBe(1n);
  });
});
