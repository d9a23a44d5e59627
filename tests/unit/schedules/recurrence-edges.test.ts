import { describe, expect, it } from 'vitest';
import { minimumGapSeconds, parseRecurrence, parseTimeOffset, type Recurrence } from '../../../src/domain/schedules/recurrence.ts';

const now = new Date('2026-01-10T12:00:00.000Z');
const rec = (fields: Partial<Recurrence>): Recurrence => ({ second: '0', minute: '0', hour: '9', day_of_month: '*', month: '*', day_of_week: '*', ...fields });
const messagesOf = (fields: Partial<Recurrence>, prefix?: { schedule: string; timeOffset: string }) => {
  const result = parseRecurrence(rec(fields), '+08:00', { minIntervalSeconds: 60, now, prefix });
  if (result.ok) throw new Error('accepted');
  return result.messages;
};

describe('recurrence › edges', () => {
  it('takes minutes up to 59 in an offset, and only the whole string', () => {
    expect(parseTimeOffset('+00:59')).toBe(59);
    expect(parseTimeOffset('-13:59')).toBe(-839);
    for (const bad of ['x+08:00', '+08:00x', ' +08:00']) expect(parseTimeOffset(bad), bad).toBeUndefined();
  });

  it('tells, for each field, which values it takes, without the cron library’s prefix', () => {
    const messages = messagesOf({ second: '60', minute: '61', month: '13', day_of_week: '8' });
    expect(messages['schedule.second']![0]).toMatch(/^is not a valid cron field: .+; use 0-59, \*, ranges like 1-5/);
    expect(messages['schedule.minute']![0]).toMatch(/; use 0-59, \*, ranges like 1-5/);
    expect(messages['schedule.month']![0]).toMatch(/; use 1-12 or JAN-DEC, \*, ranges like 1-5/);
    expect(messages['schedule.day_of_week']![0]).toMatch(/; use 0-7 \(0 and 7 are Sunday\) or SUN-SAT, \*, ranges like 1-5/);
    for (const [field, [message]] of Object.entries(messages)) expect(message, field).not.toMatch(/CronPattern/);
  });

  it('ignores spaces around a field', () => {
    const result = parseRecurrence(rec({ second: ' 0 ', hour: '9 ' }), '+08:00', { minIntervalSeconds: 60, now });
    expect(result).toEqual({ ok: true, value: { cronPattern: '0 0 9 * * *', offsetMinutes: 480 } });
  });

  it('files whole-pattern refusals under the schedule key of the prefix it was given', () => {
    const prefix = { schedule: 'payment.schedule.', timeOffset: 'payment.time_offset' };
    expect(Object.keys(messagesOf({ day_of_month: '30', month: '2' }, prefix))).toEqual(['payment.schedule']);
    expect(Object.keys(messagesOf({ second: '*', minute: '*', hour: '*' }, prefix))).toEqual(['payment.schedule']);
  });

  it('measures gaps in minutes, steps that wrap, and times in order', () => {
    expect(minimumGapSeconds('0 0,30 9 * * *', 0, now)).toBe(1_800);
    expect(minimumGapSeconds('*/7 0 9 * * *', 0, now)).toBe(7);
    expect(minimumGapSeconds('0 0,1,2 0 * * *', 0, now)).toBe(60);
  });

  it('does not count the gap across midnight when the pattern never fires on consecutive days', () => {
    expect(minimumGapSeconds('30 59 0,23 1 * *', 0, now)).toBe(82_800);
  });
});
