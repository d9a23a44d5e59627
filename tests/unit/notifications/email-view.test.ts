import { describe, expect, it } from 'vitest';
import { presentEvent } from '../../../src/api/presenters/events.ts';
import type { CardRegistration, Payment, Refund, Schedule } from '../../../src/db/schema.ts';
import type { DomainEvent } from '../../../src/domain/notifications/domain-events.ts';
import { emailViewOf } from '../../../src/domain/notifications/email/view.ts';
import { emailViewFromData } from '../../support/email-view.ts';

/** One fact of each kind, with only what their presenters and views read. */
const payment = {
  id: 'txn_1',
  status: 'failed',
  amountMinor: 25000n,
  currency: 'PHP',
  refundedMinor: 0n,
  refundReservedMinor: 0n,
  description: 'Two books',
  merchantReferenceId: 'order-7',
  otherReferences: [],
  customer: {},
  customerEmail: 'ana@example.com',
  callbackUrl: null,
  notifyUser: true,
  paymentMethod: 'card',
  cardBrand: 'visa',
  cardLast4: '4242',
  failureCode: 'card_declined',
  failureMessage: 'The card was declined',
} as unknown as Payment;
const refund = {
  id: 'rfd_1',
  paymentId: 'txn_1',
  type: 'partial',
  status: 'failed',
  amountMinor: 4000n,
  currency: 'PHP',
  reason: 'Returned',
  notifyUser: true,
  failureCode: 'x',
  failureMessage: 'The acquirer refused',
} as unknown as Refund;
const run = { scheduleId: 'sch_1', runId: 'run_1', dueAt: new Date('2026-01-01T00:00:00Z'), offsetMinutes: 480, attempt: 1 };
const registration = {
  reference: 'reg_1',
  status: 'active',
  collection: 'saved_card',
  brand: 'mastercard',
  last4: '4444',
  expMonth: 1,
  expYear: 2030,
} as unknown as CardRegistration;
const schedule = {
  id: 'sch_1',
  cardRegistrationReference: 'reg_1',
  amountMinor: 1000n,
  currency: 'USD',
  recurrence: {},
  timeOffset: '+08:00',
  nextRunAt: null,
  merchantReferenceId: 'plan-1',
} as unknown as Schedule;
const failure = { code: 'expired', message: 'The link expired unpaid' };

const facts: DomainEvent[] = [
  { type: 'payment.succeeded', payment: { ...payment, status: 'succeeded', failureCode: null, failureMessage: null } },
  { type: 'payment.failed', payment: { ...payment, cardBrand: null, cardLast4: null } },
  { type: 'schedule.charge_failed', payment, run },
  { type: 'refund.failed', refund, payment },
  { type: 'card_registration.completed', registration },
  { type: 'card_registration.deleted', registration, cancelledSchedules: ['sch_1'] },
  { type: 'schedule.created', schedule, offsetMinutes: 480, customer: { customerName: 'Ana Reyes', customerEmail: 'ana@example.com' } },
  { type: 'schedule.resumed', scheduleId: 'sch_1', nextRunAt: new Date('2026-03-01T00:00:00Z'), timeOffset: '+08:00', offsetMinutes: 480 },
  { type: 'schedule.cancelled', scheduleId: 'sch_1', reason: 'requested' },
  { type: 'schedule.suspended', scheduleId: 'sch_1', consecutiveFailedRuns: 3, payment },
  { type: 'schedule.suspended', scheduleId: 'sch_1', consecutiveFailedRuns: 3, payment: null, failure },
  {
    type: 'schedule.payment_link_sent',
    run,
    amountMinor: 15000n,
    currency: 'PHP',
    description: null,
    merchantReferenceId: 'plan-1',
    paymentUrl: `https://pay.example/checkout/${'A'.repeat(43)}`,
    expiresAt: new Date('2026-01-02T01:00:00Z'),
    reason: 'authentication_required',
    failure,
  },
  { type: 'schedule.payment_link_expired', run, failure },
];

describe('mail › an e-mail’s view is built from the fact', () => {
  it('says what the event’s data says, for every kind of fact', () => {
    for (const fact of facts) expect(emailViewOf(fact), fact.type).toEqual(emailViewFromData(fact.type, presentEvent(fact)));
  });

  it('names the payment and the schedule it reports on, and only the brand and last four digits of a card', () => {
    const view = emailViewOf(facts[2]!);
    expect(view).toMatchObject({ transactionId: 'txn_1', scheduleReference: 'sch_1', card: { brand: 'visa', last4: '4242' }, amount: '250.00' });
    expect(Object.keys(emailViewOf(facts[4]!).card!)).toEqual(['brand', 'last4']);
  });
});
