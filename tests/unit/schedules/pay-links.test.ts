import { describe, expect, it } from 'vitest';
import { PAY_LINK_MAX_OPEN_SECONDS, payLinkExpiry, wantsCustomer } from '../../../src/domain/schedules/pay-links.ts';

describe('schedules › payment links', () => {
  const now = new Date('2026-03-02T01:00:05.000Z');

  it('a link stays open until the next occurrence (in the schedule’s offset)', () => {
    // Daily at 09:00 +08:00: the next one is 01:00Z tomorrow.
    expect(payLinkExpiry({ cronPattern: '0 0 9 * * *', timeOffset: '+08:00', every: 1, anchorAt: null, dueAt: now }, now)).toEqual(
      new Date('2026-03-03T01:00:00.000Z'),
    );
    // Every minute: the link is open for the rest of this minute only.
    expect(payLinkExpiry({ cronPattern: '0 * * * * *', timeOffset: '+00:00', every: 1, anchorAt: null, dueAt: now }, now)).toEqual(
      new Date('2026-03-02T01:01:00.000Z'),
    );
  });

  it('at most 7 days, however far the next occurrence is', () => {
    expect(PAY_LINK_MAX_OPEN_SECONDS).toBe(604_800);
    // Monthly on the 1st: the next is 1 April, so the cap applies.
    expect(payLinkExpiry({ cronPattern: '0 0 9 1 * *', timeOffset: '+08:00', every: 1, anchorAt: null, dueAt: now }, now)).toEqual(
      new Date('2026-03-09T01:00:05.000Z'),
    );
  });

  it('with every N, a link stays open until the schedule’s next run, not the next occurrence', () => {
    // Weekly on Mondays, every 2 weeks from Monday 2 March: the next run is 16 March (capped at 7 days).
    const claim = {
      cronPattern: '0 0 1 * * 1',
      timeOffset: '+00:00',
      every: 2,
      anchorAt: new Date('2026-03-02T01:00:00.000Z'),
      dueAt: new Date('2026-03-02T01:00:00.000Z'),
    };
    expect(payLinkExpiry(claim, now)).toEqual(new Date('2026-03-09T01:00:05.000Z'));
    // Daily, every 3 days from 2 March 01:00: the next run is 5 March, not 3 March.
    expect(payLinkExpiry({ ...claim, cronPattern: '0 0 1 * * *', every: 3 }, now)).toEqual(new Date('2026-03-05T01:00:00.000Z'));
  });

  it('only an off-session decline that asks for the customer brings them back by link', () => {
    expect(wantsCustomer({ status: 'declined', code: 'card_declined', message: 'm', customerAction: 'authenticate' } as never)).toBe(true);
    expect(wantsCustomer({ status: 'declined', code: 'insufficient_funds', message: 'm' })).toBe(false);
    expect(wantsCustomer({ status: 'succeeded', chargeId: 'ch_1', brand: 'visa', last4: '4242', expMonth: 1, expYear: 2030, fingerprint: 'f' } as never)).toBe(
      false,
    );
  });
});
