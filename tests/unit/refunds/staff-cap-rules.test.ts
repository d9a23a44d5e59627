import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.ts';
import { assertConfirmedAmount, assertWithinStaffCap } from '../../../src/domain/refunds/rules.ts';

const thrown = (fn: () => void) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a refusal');
};

describe('staff refund caps › the pure rule', () => {
  it('caps › no cap, or a null limit, lets any amount through', () => {
    expect(() => assertWithinStaffCap(10n ** 12n, 'PHP', undefined, 0n)).not.toThrow();
    expect(() => assertWithinStaffCap(10n ** 12n, 'PHP', { perRefundMinor: null, perDayMinor: null }, 10n ** 12n)).not.toThrow();
  });

  it('caps › the per-refund limit allows exactly the limit and refuses one minor unit more (ER.20.40)', () => {
    const cap = { perRefundMinor: 10_000n, perDayMinor: null };
    expect(() => assertWithinStaffCap(10_000n, 'PHP', cap, 0n)).not.toThrow();
    const error = thrown(() => assertWithinStaffCap(10_001n, 'PHP', cap, 0n));
    expect(error.code).toBe('ER.20.40');
    expect(error.data).toEqual({ per_refund_limit: '100.00', currency: 'PHP' });
  });

  it('caps › the daily limit counts what was refunded already: up to the limit passes, past it is ER.20.41 with what is left', () => {
    const cap = { perRefundMinor: null, perDayMinor: 5_000n };
    expect(() => assertWithinStaffCap(2_000n, 'USD', cap, 3_000n)).not.toThrow();
    const error = thrown(() => assertWithinStaffCap(2_001n, 'USD', cap, 3_000n));
    expect(error.code).toBe('ER.20.41');
    expect(error.data).toEqual({ daily_limit: '50.00', refunded_today: '30.00', currency: 'USD' });
    expect((error.messages as Record<string, string[]>).amount![0]).toContain('30.00 USD refunded so far, 20.00 USD left');
    // Already past the limit (it was lowered): nothing is left, never a negative amount.
    expect((thrown(() => assertWithinStaffCap(1n, 'USD', cap, 6_000n)).messages as Record<string, string[]>).amount![0]).toContain('0.00 USD left');
  });

  it('caps › the per-refund limit is said first when both are passed; a zero-decimal currency is worded without decimals', () => {
    const error = thrown(() => assertWithinStaffCap(900n, 'JPY', { perRefundMinor: 500n, perDayMinor: 600n }, 0n));
    expect(error.code).toBe('ER.20.40');
    expect((error.messages as Record<string, string[]>).amount![0]).toContain('(500 JPY)');
  });
});

describe('console refunds › the confirmed amount', () => {
  it('refund › passes without a confirmed amount or with the same one, refuses another (ER.20.42)', () => {
    expect(() => assertConfirmedAmount(7_000n, undefined, 'PHP')).not.toThrow();
    expect(() => assertConfirmedAmount(7_000n, 7_000n, 'PHP')).not.toThrow();
    const error = thrown(() => assertConfirmedAmount(7_000n, 10_000n, 'PHP'));
    expect(error.code).toBe('ER.20.42');
    expect((error.messages as Record<string, string[]>).amount![0]).toContain('was confirmed as 100.00 PHP but would now be 70.00 PHP');
  });
});
