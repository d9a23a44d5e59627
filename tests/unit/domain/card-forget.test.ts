import { describe, expect, it } from 'vitest';
import { forgetBackoffMs, forgetOnDelete } from '../../../src/domain/cards/forget.ts';

describe('card forget › retry waits', () => {
  it('doubles from one minute and never waits more than six hours', () => {
    expect([1, 2, 3, 4, 9, 10, 20].map(forgetBackoffMs)).toEqual([60_000, 120_000, 240_000, 480_000, 15_360_000, 21_600_000, 21_600_000]);
  });

  it('marks a card to forget on deletion with its first attempt counted; a registration without a card is not marked', () => {
    const now = new Date('2026-03-02T00:00:00.000Z');
    expect(forgetOnDelete({ cardToken: 'pm_1' }, now)).toEqual({ forgetNextAt: new Date('2026-03-02T00:01:00.000Z'), forgetAttempts: 1 });
    expect(forgetOnDelete({ cardToken: null }, now)).toEqual({});
  });
});
