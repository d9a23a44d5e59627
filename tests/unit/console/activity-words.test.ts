import { describe, expect, it } from 'vitest';
import { actionsOf, activityHref, activityInWords, activityQuerySchema } from '../../../src/console/activity-words.ts';
import { parseWith } from '../../../src/schemas/parse.ts';

const noUsers = () => undefined;
const users = (email: string) => (email === 'staff@shop.test' ? 'usr_1' : undefined);

describe('activity in words', () => {
  it('says a refund with its amount and links the payment', () => {
    const line = activityInWords({ action: 'refund.requested', target: 'rfd_9 of txn_abc (partial, 500.00 PHP)' }, noUsers);
    expect(line.text).toBe('Refunded ₱500.00 of txn_abc (partial refund)');
    expect(line.link).toEqual({ href: '/console/payments/txn_abc', label: 'View payment' });
  });

  it('says which payment support looked at and why, and links it', () => {
    const line = activityInWords({ action: 'payment.read_by_support', target: 'txn_abc: #4521: charged twice?' }, noUsers);
    expect(line.text).toBe('Support looked at payment txn_abc: #4521: charged twice?');
    expect(line.link).toEqual({ href: '/console/payments/txn_abc', label: 'View payment' });
  });

  it('links schedules, links and users that still exist', () => {
    expect(activityInWords({ action: 'schedule.cancelled', target: 'sch_0123' }, noUsers)).toMatchObject({
      text: 'Cancelled the schedule sch_0123',
      link: { href: '/console/schedules/sch_0123' },
    });
    const card = '6f1c1b0e-8a53-4d0e-9d0e-2f5b2a1c9e11';
    expect(activityInWords({ action: 'card_registration.deleted', target: `${card} (2 schedules cancelled)` }, noUsers)).toMatchObject({
      text: `Deleted the card registration ${card} (2 schedules cancelled)`,
      link: { href: `/console/card-registrations/${card}`, label: 'View card registration' },
    });
    expect(activityInWords({ action: 'link.updated', target: 'spring-sale' }, noUsers)).toMatchObject({
      text: 'Changed the payment link spring-sale',
      link: { href: '/console/links/spring-sale' },
    });
    expect(activityInWords({ action: 'user.role_changed', target: 'Staff@shop.test: staff → owner' }, users)).toMatchObject({
      text: 'Made Staff@shop.test an owner (was staff)',
      link: { href: '/console/users/usr_1' },
    });
    expect(activityInWords({ action: 'user.removed', target: 'gone@shop.test (staff)' }, users)).toEqual({
      text: 'Removed gone@shop.test as staff',
      group: 'users',
    });
  });

  it('puts sign-ins, rotations and settings into sentences without dotted action names', () => {
    const cases: [string, string | null, string][] = [
      ['sign_in.succeeded', 'a@b.test', 'Signed in'],
      ['sign_in.failed', 'unknown e-mail', 'Failed sign-in with an e-mail that has no account'],
      ['api_token.rotated', 'overlap 24h', 'Rotated the API token, the old one working 24 hours more'],
      ['jwt_secret.rotated', 'overlap none', 'Rotated the JWT secret, the old one stopped at once'],
      ['callback_url.changed', '(none)', 'Cleared the default callback URL'],
      ['acquirer.changed', 'paymongo (pk_test_1)', 'Switched payments to PayMongo (public key pk_test_1)'],
      ['event.resent', 'evt_1 (payment.succeeded)', 'Resent the callback “payment succeeded” (evt_1)'],
      ['receipt.resent', 'txn_1', 'E-mailed the receipt again for txn_1'],
      ['user.invited', 'new@shop.test (owner)', 'Invited new@shop.test as owner'],
      ['integrator.suspended', 'KYC documents expired', 'Suspended the account: KYC documents expired'],
      ['integrator.reactivated', null, 'Reactivated the account'],
      ['refund_caps.changed', 'PHP: ₱500.00 a refund, ₱2,000.00 a day', 'Changed the staff refund limits: PHP: ₱500.00 a refund, ₱2,000.00 a day'],
    ];
    for (const [action, target, text] of cases) {
      const line = activityInWords({ action, target }, noUsers);
      expect(line.text).toBe(text);
      expect(line.text).not.toContain(action);
    }
  });

  it('shows an action it does not know as stored, without failing', () => {
    expect(activityInWords({ action: 'future_thing.done', target: 'x' }, noUsers)).toEqual({ text: 'future thing.done: x', group: undefined });
  });

  it('groups every action for the filter', () => {
    expect(actionsOf('refunds')).toEqual(['refund.requested', 'event.resent', 'receipt.resent', 'payment.read_by_support', 'refund_caps.changed']);
    expect(actionsOf('schedules')).toEqual(['schedule.cancelled', 'schedule.resumed', 'card_registration.deleted']);
  });

  it('reads its filters from the address and refuses what it cannot use, saying why', () => {
    expect(parseWith(activityQuerySchema, { user: 'a@b.test', action: 'refunds', before: '42' })).toEqual({
      ok: true,
      value: { user: 'a@b.test', action: 'refunds', before: 42 },
    });
    expect(parseWith(activityQuerySchema, { user: '', action: '', before: '' })).toEqual({ ok: true, value: {} });
    const bad = parseWith(activityQuerySchema, { action: 'everything', before: '-1' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(Object.keys(bad.messages).sort()).toEqual(['action', 'before']);
    expect(activityHref({ user: 'a+b@c.test', action: 'links' }, 7)).toBe('/console/activity?user=a%2Bb%40c.test&action=links&before=7');
  });
});
