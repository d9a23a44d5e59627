import { describe, expect, it } from 'vitest';
import { CUSTOM_RECURRENCE, fieldValues, ordinal, recurrenceInWords } from '../../../src/console/recurrence-words.ts';
import { parseRecurrence, recurrenceFields } from '../../../src/domain/schedules/recurrence.ts';

describe('recurrence in words', () => {
  const cases: [string, string, string][] = [
    ['0 0 7 1 * *', '+08:00', 'Every month on the 1st at 07:00, UTC+08:00'],
    ['0 0 9 * * *', '+08:00', 'Every day at 09:00, UTC+08:00'],
    ['0 30 9 * * *', '+00:00', 'Every day at 09:30, UTC'],
    ['30 0 9 * * *', '-05:30', 'Every day at 09:00:30, UTC-05:30'],
    ['0 0 9,17 * * *', '+08:00', 'Every day at 09:00 and 17:00, UTC+08:00'],
    ['0 0 9 * * 1', '+08:00', 'Every Monday at 09:00, UTC+08:00'],
    ['0 0 9 * * MON', '+08:00', 'Every Monday at 09:00, UTC+08:00'],
    ['0 0 9 ? * mon,thu', '+08:00', 'Every Monday and Thursday at 09:00, UTC+08:00'],
    ['0 0 9 * * 1-5', '+08:00', 'Every weekday (Monday to Friday) at 09:00, UTC+08:00'],
    ['0 0 10 * * 0,6', '+08:00', 'Every Saturday and Sunday at 10:00, UTC+08:00'],
    ['0 0 10 * * 7', '+08:00', 'Every Sunday at 10:00, UTC+08:00'],
    ['0 0 10 * * 0-6', '+08:00', 'Every day at 10:00, UTC+08:00'],
    ['0 0 8 1,15 * *', '+08:00', 'Every month on the 1st and 15th at 08:00, UTC+08:00'],
    ['0 0 8 L * *', '+08:00', 'Every month on the last day at 08:00, UTC+08:00'],
    ['0 0 8 1-7 * *', '+08:00', 'Every month on every day from the 1st to the 7th at 08:00, UTC+08:00'],
    ['0 0 8 22 * *', '+08:00', 'Every month on the 22nd at 08:00, UTC+08:00'],
    ['0 0 0 1 1 *', '+08:00', 'Every year on 1 January at 00:00, UTC+08:00'],
    ['0 0 12 25 DEC *', '+08:00', 'Every year on 25 December at 12:00, UTC+08:00'],
    ['0 0 7 1 1,7 *', '+08:00', 'Every January and July on the 1st at 07:00, UTC+08:00'],
    ['0 0 7 1 */3 *', '+08:00', 'Every January, April, July and October on the 1st at 07:00, UTC+08:00'],
    ['0 0 7 1,15 6 *', '+08:00', 'Every June on the 1st and 15th at 07:00, UTC+08:00'],
    ['0 0 9 * 12 *', '+08:00', 'Every day in December at 09:00, UTC+08:00'],
    ['0 0 9 * * 5#1', '+08:00', 'Every month on the first Friday at 09:00, UTC+08:00'],
    ['0 0 9 * * MON#2', '+08:00', 'Every month on the second Monday at 09:00, UTC+08:00'],
    ['0 0 9 * * 5L', '+08:00', 'Every month on the last Friday at 09:00, UTC+08:00'],
    ['0 0 9 1 * 1', '+08:00', 'Every month on the 1st, and every Monday at 09:00, UTC+08:00'],
    ['0 0 * * * *', '+08:00', 'Every hour on the hour, UTC+08:00'],
    ['0 15 * * * *', '+08:00', 'Every hour at 15 minutes past the hour, UTC+08:00'],
    ['0 0 */6 * * *', '+08:00', 'Every day at 00:00, 06:00, 12:00 and 18:00, UTC+08:00'],
    ['0 30 */2 * * *', '+08:00', 'Every 2 hours from 00:30 to 22:30, UTC+08:00'],
    ['0 */15 * * * *', '+08:00', 'Every 15 minutes, UTC+08:00'],
    ['0 * * * * *', '+08:00', 'Every minute, UTC+08:00'],
    ['30 * 9 * * *', '+08:00', 'Every minute (at 30 seconds past) from 09:00:30 to 09:59:30, UTC+08:00'],
    ['0 */30 9-17 * * 1-5', '+08:00', 'Every weekday (Monday to Friday), every 30 minutes from 09:00 to 17:30, UTC+08:00'],
    ['0 0 * * * 1', '+08:00', 'Every Monday, every hour on the hour, UTC+08:00'],
  ];
  it.each(cases)('%s at %s → %s', (pattern, offset, words) => {
    expect(recurrenceInWords(pattern, offset)).toBe(words);
  });

  it('says honestly when it cannot phrase a pattern, with the offset', () => {
    for (const pattern of [
      '0 0 9 15W * *',
      '0 0 9 * * 1#2,3#2',
      '0 7,23,41 9,13,21 * * *',
      '0 0 9 * *',
      'not a pattern at all',
      '0 0 1,5,6,9,11,15,22 * * *',
    ]) {
      expect(recurrenceInWords(pattern, '+08:00')).toBe(`${CUSTOM_RECURRENCE}, UTC+08:00`);
    }
  });

  it('never shows cron syntax: every valid pattern in a sample reads as words', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const samples = ['0 0 9 * * *', '0 5 4 * 2 *', '0 0 0 31 * *', '0 0 6 * * SAT', '0 45 23 L 12 *', '15 10 8 2,4,6 * *'];
    for (const pattern of samples) {
      const fields = Object.fromEntries(recurrenceFields.map((f, i) => [f, pattern.split(' ')[i]!])) as Record<(typeof recurrenceFields)[number], string>;
      expect(parseRecurrence(fields, '+08:00', { minIntervalSeconds: 3600, now }).ok).toBe(true);
      const words = recurrenceInWords(pattern, '+08:00');
      expect(words).not.toContain('*');
      expect(words).not.toContain(CUSTOM_RECURRENCE);
    }
  });

  it('reads ranges, steps, lists and names the way croner does', () => {
    expect(fieldValues('1-5', { min: 0, max: 7 })).toEqual([1, 2, 3, 4, 5]);
    expect(fieldValues('10-20/5', { min: 0, max: 59 })).toEqual([10, 15, 20]);
    expect(fieldValues('5/20', { min: 0, max: 59 })).toEqual([5, 25, 45]);
    expect(fieldValues('JAN-MAR', { min: 1, max: 12, names: ['JAN', 'FEB', 'MAR'], nameBase: 1 })).toEqual([1, 2, 3]);
    expect(fieldValues('99', { min: 0, max: 59 })).toBeUndefined();
    expect(fieldValues('5-1', { min: 0, max: 59 })).toBeUndefined();
  });

  it('writes ordinals the English way', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 31].map(ordinal)).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '31st']);
  });

  it('puts a period of every N first (a subscription every 2 weeks, 5 months, 2 years)', () => {
    expect(recurrenceInWords('0 30 10 * * 4', '+00:00', 2)).toBe('Every 2 weeks on Thursday at 10:30, UTC');
    expect(recurrenceInWords('0 0 8 L * *', '+00:00', 5)).toBe('Every 5 months on the last day at 08:00, UTC');
    expect(recurrenceInWords('0 0 12 14 6 *', '+00:00', 2)).toBe('Every 2 years on 14 June at 12:00, UTC');
    expect(recurrenceInWords('0 0 12 L 2 *', '+00:00', 2)).toBe('Every 2 years on the last day of February at 12:00, UTC');
    expect(recurrenceInWords('0 0 9 * * *', '+08:00', 3)).toBe('Every day at 09:00, UTC+08:00, one occurrence in every 3');
    expect(recurrenceInWords('0 30 10 * * 4', '+00:00', 1)).toBe('Every Thursday at 10:30, UTC');
  });
});
