import { describe, expect, it } from 'vitest';
import { CODE_PATTERN, normalizeCode, normalizeEmail, type Promotion, promotionRefusal } from '../../../src/domain/promotions/rules.ts';

const now = new Date('2026-11-26T12:00:00Z');
const promo = (over: Partial<Promotion> = {}): Promotion => ({
  id: 'promo_1',
  code: 'LAUNCH10',
  discount: { kind: 'percent', percent: 10 },
  linkIds: null,
  validFrom: null,
  validUntil: null,
  maxRedemptions: null,
  redeemed: 0,
  oncePerEmail: false,
  active: true,
  ...over,
});
const pay = { now, linkId: 'lnk_1', currency: 'PHP' };

describe('promotion codes › rules', () => {
  it('applies an active code with no limits', () => {
    expect(promotionRefusal(promo(), pay)).toBeNull();
  });

  it('holds to its window: from is inclusive, until is exclusive', () => {
    expect(promotionRefusal(promo({ validFrom: new Date('2026-11-27T00:00:00Z') }), pay)).toBe('not_yet_valid');
    expect(promotionRefusal(promo({ validFrom: now }), pay)).toBeNull();
    expect(promotionRefusal(promo({ validUntil: now }), pay)).toBe('expired');
    expect(promotionRefusal(promo({ active: false }), pay)).toBe('inactive');
  });

  it('applies only to its links and, for a fixed amount, its currency', () => {
    expect(promotionRefusal(promo({ linkIds: ['lnk_2'] }), pay)).toBe('other_link');
    expect(promotionRefusal(promo({ linkIds: ['lnk_1', 'lnk_2'] }), pay)).toBeNull();
    expect(promotionRefusal(promo({ discount: { kind: 'fixed', minor: '5000', currency: 'USD' } }), pay)).toBe('other_currency');
  });

  it('is used up at its maximum, and once per e-mail where it says so', () => {
    expect(promotionRefusal(promo({ maxRedemptions: 10, redeemed: 10 }), pay)).toBe('used_up');
    expect(promotionRefusal(promo({ maxRedemptions: 10, redeemed: 9 }), pay)).toBeNull();
    expect(promotionRefusal(promo({ oncePerEmail: true }), pay)).toBe('email_needed');
    expect(promotionRefusal(promo({ oncePerEmail: true }), { ...pay, email: 'a@b.example', usedByEmail: true })).toBe('already_used');
    expect(promotionRefusal(promo({ oncePerEmail: true }), { ...pay, email: 'a@b.example' })).toBeNull();
  });

  it('compares codes without case or surrounding spaces', () => {
    expect(normalizeCode(' launch10 ')).toBe('LAUNCH10');
    expect(normalizeEmail(' Ana@Example.PH ')).toBe('ana@example.ph');
  });

  it('takes codes of 3 to 32 letters, digits, - and _', () => {
    expect(['ABC', 'LAUNCH-10', 'X_2026', 'A'.repeat(32)].every((c) => CODE_PATTERN.test(c))).toBe(true);
    expect(['AB', 'A'.repeat(33), '-ABC', 'LAUNCH 10', 'ÑAN'].some((c) => CODE_PATTERN.test(c))).toBe(false);
  });
});
