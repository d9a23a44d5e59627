import { describe, expect, it } from 'vitest';
import { parseWith } from '../../../src/schemas/parse.ts';
import { REFUND_REASON_MAX_LENGTH, refundRequestSchema } from '../../../src/schemas/refund.ts';

const base = { transaction_id: 'txn_1', notify_user: true, reason: 'Damaged' };

describe('refund request schema', () => {
  it('refund request › reads the spec samples as they are', () => {
    expect(parseWith(refundRequestSchema, { ...base, notify_user: 'true' })).toEqual({ ok: true, value: { ...base, notify_user: true } });
    expect(parseWith(refundRequestSchema, { ...base, notify_user: 'false', amount: 50 })).toEqual({
      ok: true,
      value: { ...base, notify_user: false, amount: 50 },
    });
    expect(parseWith(refundRequestSchema, { ...base, amount: '12.50' })).toEqual({ ok: true, value: { ...base, amount: '12.50' } });
  });

  it('refund request › treats a missing amount as FULL and keeps the amount as given for exact parsing later', () => {
    const parsed = parseWith(refundRequestSchema, base);
    expect(parsed.ok && parsed.value.amount).toBeUndefined();
  });

  it('refund request › refuses notify_user values other than true/false', () => {
    for (const notify of ['yes', 'no', 'True', 0, 1, null]) {
      expect(parseWith(refundRequestSchema, { ...base, notify_user: notify })).toEqual({
        ok: false,
        messages: { notify_user: ['must be true or false (a boolean, or the text "true" or "false")'] },
      });
    }
  });

  it(`refund request › requires a reason of 1 to ${REFUND_REASON_MAX_LENGTH} characters after trimming`, () => {
    expect(parseWith(refundRequestSchema, { ...base, reason: '  ok  ' })).toMatchObject({ ok: true, value: { reason: 'ok' } });
    expect(parseWith(refundRequestSchema, { ...base, reason: 'x'.repeat(REFUND_REASON_MAX_LENGTH) }).ok).toBe(true);
    expect(parseWith(refundRequestSchema, { ...base, reason: 'x'.repeat(REFUND_REASON_MAX_LENGTH + 1) }).ok).toBe(false);
    expect(parseWith(refundRequestSchema, { ...base, reason: '' }).ok).toBe(false);
  });

  it('refund request › refuses unknown fields and amounts that are neither numbers nor strings', () => {
    expect(parseWith(refundRequestSchema, { ...base, currency: 'PHP' })).toEqual({ ok: false, messages: { currency: ['is not a recognised field'] } });
    for (const amount of [null, true, [], {}]) {
      expect(parseWith(refundRequestSchema, { ...base, amount })).toEqual({
        ok: false,
        messages: { amount: ['must be a decimal amount such as "12.50" or 12.5; omit it for a FULL refund'] },
      });
    }
  });
});
