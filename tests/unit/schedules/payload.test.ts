import { describe, expect, it } from 'vitest';
import { CARD_REFERENCE_MISSING, parseSchedulePayload } from '../../../src/domain/schedules/payload.ts';

const now = new Date('2026-03-02T01:00:05.000Z');
const opts = { now, minIntervalSeconds: 60, allowPrivateCallbacks: false };

/** The spec §2.2 schedule data: every minute at second 0, +08:00, PHP 150.00. */
const payload = (overrides: Record<string, unknown> = {}) => ({
  credit_card: { reference: '6f1c1b0e-8a53-4d0e-9d0e-2f5b2a1c9e11' },
  schedule: { second: '0', minute: '*', hour: '*', day_of_month: '*', month: '*', day_of_week: '*' },
  payment: { description: 'Monthly plan', amount: 150, currency: 'PHP', merchant_reference_id: 'order-1', other_references: ['inv-1'] },
  route: { callback_url: 'https://merchant.example/hooks/paylink', notify_user: false },
  time_offset: '+08:00',
  ...overrides,
});

/** The refusal parsing throws: its code and the messages it names by field. */
function refusal(data: unknown, options = opts) {
  try {
    parseSchedulePayload(data, options);
  } catch (error) {
    const { code, messages } = error as { code: string; messages: Record<string, string[]> };
    return { code, fields: Object.keys(messages).sort(), messages };
  }
  throw new Error('expected a refusal');
}

describe('schedules › the signed payload', () => {
  it('a spec payload becomes the schedule to store: the amount in minor units, the cron pattern, the first occurrence', () => {
    const plan = parseSchedulePayload(payload(), opts);
    expect(plan.amountMinor).toBe(15000n);
    expect(plan.recurrence).toEqual({ cronPattern: '0 * * * * *', offsetMinutes: 480 });
    expect(plan.nextRunAt).toEqual(new Date('2026-03-02T01:01:00.000Z'));
    expect(plan.data.payment).toMatchObject({ currency: 'PHP', merchant_reference_id: 'order-1' });
  });

  it('is pure: the same payload and clock give the same schedule', () => {
    expect(parseSchedulePayload(payload(), opts)).toEqual(parseSchedulePayload(payload(), opts));
  });

  it('a JWT without a data claim is refused under `data`', () => {
    for (const data of [undefined, null, 'a string']) expect(refusal(data)).toMatchObject({ code: 'ER.02.30', fields: ['data'] });
  });

  it('names every bad field at once: currency, recurrence and offset', () => {
    const bad = payload({
      payment: { amount: 150, currency: 'ZZZ' },
      schedule: { second: '0', minute: 'sixty', hour: '*', day_of_month: '*', month: '*', day_of_week: '*' },
      time_offset: '+99:00',
    });
    expect(refusal(bad).fields).toEqual(['data.payment.currency', 'data.schedule.minute', 'data.time_offset']);
  });

  it('more decimals than the currency has are refused under data.payment.amount', () => {
    expect(refusal(payload({ payment: { amount: '150.123', currency: 'PHP' } })).fields).toEqual(['data.payment.amount']);
  });

  it('a card reference that is not a UUID reads as one that does not exist', () => {
    const { fields, messages } = refusal(payload({ credit_card: { reference: 'not-a-uuid' } }));
    expect(fields).toEqual(['reference']);
    expect(messages.reference).toEqual([CARD_REFERENCE_MISSING]);
  });

  it('a callback URL on a private address is refused unless private callbacks are allowed', () => {
    const local = payload({ route: { callback_url: 'http://127.0.0.1:9/callback', notify_user: false } });
    expect(refusal(local).fields).toEqual(['data.route.callback_url']);
    expect(parseSchedulePayload(local, { ...opts, allowPrivateCallbacks: true }).data.route?.callback_url).toBe('http://127.0.0.1:9/callback');
  });

  it('a schedule more often than the minimum interval is refused under data.schedule', () => {
    const everySecond = payload({ schedule: { second: '*', minute: '*', hour: '*', day_of_month: '*', month: '*', day_of_week: '*' } });
    expect(refusal(everySecond).fields.every((f) => f.startsWith('data.schedule'))).toBe(true);
  });
});
