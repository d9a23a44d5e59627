import { describe, expect, it } from 'vitest';
import {
  cadenceOf,
  countRuns,
  formatInOffset,
  latestRunAtOrBefore,
  minimumGapSeconds,
  nextOccurrence,
  nextRunAfter as nextRun,
  parseRecurrence,
  parseTimeOffset,
  type Recurrence,
} from '../../../src/domain/schedules/recurrence.ts';

const now = new Date('2026-01-10T12:00:00.000Z');
const rec = (fields: Partial<Recurrence>): Recurrence => ({ second: '0', minute: '0', hour: '9', day_of_month: '*', month: '*', day_of_week: '*', ...fields });
const parse = (fields: Partial<Recurrence>, offset = '+08:00', minIntervalSeconds = 60) => parseRecurrence(rec(fields), offset, { minIntervalSeconds, now });
const ok = (fields: Partial<Recurrence>, offset = '+08:00') => {
  const result = parse(fields, offset);
  if (!result.ok) throw new Error(JSON.stringify(result.messages));
  return result.value;
};
const nexts = (fields: Partial<Recurrence>, offset: string, count: number, from = now) => {
  const p = ok(fields, offset);
  const out: string[] = [];
  let at = from;
  for (let i = 0; i < count; i++) {
    at = nextOccurrence(p, at)!;
    out.push(at.toISOString());
  }
  return out;
};

describe('recurrence › time offset', () => {
  it('reads sign, hours, colon, minutes', () => {
    expect(parseTimeOffset('+08:00')).toBe(480);
    expect(parseTimeOffset('-05:30')).toBe(-330);
    expect(parseTimeOffset('+00:00')).toBe(0);
    expect(parseTimeOffset('+14:00')).toBe(840);
  });
  it('rejects other forms and offsets beyond ±14:00', () => {
    for (const bad of ['08:00', '+8:00', '+0800', '+15:00', '+08:60', 'Z', 'Asia/Manila', '']) expect(parseTimeOffset(bad)).toBeUndefined();
    const result = parse({}, 'Asia/Manila');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.messages.time_offset![0]).toMatch(/UTC offset such as \+08:00/);
  });
});

describe('recurrence › fixed offsets', () => {
  it('fires at 09:00 local time in +08:00 (01:00 UTC)', () => {
    expect(nexts({}, '+08:00', 2)).toEqual(['2026-01-11T01:00:00.000Z', '2026-01-12T01:00:00.000Z']);
  });
  it('fires at 09:00 local time in -05:30 (14:30 UTC)', () => {
    expect(nexts({}, '-05:30', 2)).toEqual(['2026-01-10T14:30:00.000Z', '2026-01-11T14:30:00.000Z']);
  });
  it('fires at 09:00 UTC in +00:00', () => {
    expect(nexts({}, '+00:00', 1)).toEqual(['2026-01-11T09:00:00.000Z']);
  });
  it('keeps the same UTC instant all year: a fixed offset has no daylight saving', () => {
    const july = new Date('2026-07-01T00:00:00Z');
    expect(nexts({}, '-05:30', 1, july)).toEqual(['2026-07-01T14:30:00.000Z']);
  });
  it('shows times in the schedule offset', () => {
    expect(formatInOffset(new Date('2026-01-11T01:00:00.000Z'), 480)).toBe('2026-01-11T09:00:00.000+08:00');
    expect(formatInOffset(new Date('2026-01-10T14:30:00.000Z'), -330)).toBe('2026-01-10T09:00:00.000-05:30');
    expect(formatInOffset(new Date('2026-01-10T14:30:00.000Z'), 0)).toBe('2026-01-10T14:30:00.000+00:00');
  });
});

describe('recurrence › month ends, names and steps', () => {
  it('day 31 fires only in months that have a 31st', () => {
    expect(nexts({ day_of_month: '31', hour: '0' }, '+00:00', 3)).toEqual(['2026-01-31T00:00:00.000Z', '2026-03-31T00:00:00.000Z', '2026-05-31T00:00:00.000Z']);
  });
  it('L is the last day of every month', () => {
    expect(nexts({ day_of_month: 'L', hour: '0' }, '+00:00', 3)).toEqual(['2026-01-31T00:00:00.000Z', '2026-02-28T00:00:00.000Z', '2026-03-31T00:00:00.000Z']);
  });
  it('Feb 29 fires only in leap years, at the local date', () => {
    expect(nexts({ day_of_month: '29', month: '2', hour: '0' }, '+08:00', 2)).toEqual(['2028-02-28T16:00:00.000Z', '2032-02-28T16:00:00.000Z']);
  });
  it('accepts month and day names', () => {
    expect(nexts({ hour: '10', month: 'JAN-MAR', day_of_week: 'MON-FRI' }, '+00:00', 3)).toEqual([
      '2026-01-12T10:00:00.000Z',
      '2026-01-13T10:00:00.000Z',
      '2026-01-14T10:00:00.000Z',
    ]);
  });
  it('accepts steps, ranges and lists', () => {
    expect(nexts({ minute: '*/15', hour: '9-10' }, '+00:00', 3)).toEqual(['2026-01-11T09:00:00.000Z', '2026-01-11T09:15:00.000Z', '2026-01-11T09:30:00.000Z']);
    expect(nexts({ hour: '8,20' }, '+00:00', 2)).toEqual(['2026-01-10T20:00:00.000Z', '2026-01-11T08:00:00.000Z']);
  });
});

describe('recurrence › refusals say why', () => {
  it('rejects a pattern that never fires', () => {
    const result = parse({ day_of_month: '30', month: '2' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.messages.schedule![0]).toMatch(/never fires/);
  });
  it('rejects a pattern that fires more often than the minimum interval', () => {
    const every = parse({ second: '*', minute: '*', hour: '*' });
    expect(every.ok).toBe(false);
    if (!every.ok) expect(every.messages.schedule![0]).toMatch(/fires too often: two charges can be 1 second apart.*at least 60 seconds/);
    const twice = parse({ second: '0,30', minute: '0', hour: '9' });
    expect(twice.ok).toBe(false);
    if (!twice.ok) expect(twice.messages.schedule![0]).toMatch(/30 seconds apart/);
  });
  it('counts the gap across midnight when the pattern fires on consecutive days', () => {
    expect(minimumGapSeconds('30 59 23 * * *', 0, now)).toBe(86_400);
    expect(minimumGapSeconds('30 59 0,23 * * *', 0, now)).toBe(3_600);
    expect(minimumGapSeconds('0,50 59,0 23,0 * * *', 0, now)).toBe(10);
    const result = parse({ second: '0,50', minute: '59,0', hour: '23,0' }, '+00:00', 60);
    expect(result.ok).toBe(false);
  });
  it('accepts every minute at the default minimum of 60 seconds', () => {
    expect(parse({ second: '0', minute: '*', hour: '*' }).ok).toBe(true);
  });
  it('names the bad field and what it accepts', () => {
    const result = parse({ hour: '25', day_of_month: '32', minute: 'every' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.messages['schedule.hour']![0]).toMatch(/not a valid cron field.*0-23/);
      expect(result.messages['schedule.day_of_month']![0]).toMatch(/1-31/);
      expect(result.messages['schedule.minute']![0]).toMatch(/not a valid cron field/);
    }
    const spaced = parse({ minute: '0 0' });
    expect(spaced.ok).toBe(false);
    if (!spaced.ok) expect(spaced.messages['schedule.minute']![0]).toMatch(/without spaces/);
  });
});

describe('recurrence › catch-up', () => {
  it('the latest occurrence at or before a time includes that exact time', () => {
    const p = { ...ok({ minute: '*', hour: '*' }, '+00:00'), every: 1, anchorAt: null };
    expect(latestRunAtOrBefore(p, new Date('2026-01-10T12:05:00.000Z'))!.toISOString()).toBe('2026-01-10T12:05:00.000Z');
    expect(latestRunAtOrBefore(p, new Date('2026-01-10T12:05:59.999Z'))!.toISOString()).toBe('2026-01-10T12:05:00.000Z');
  });
});

describe('recurrence › counting the charges a cancellation stops', () => {
  const monthly = { cronPattern: '0 0 7 1 * *', offsetMinutes: 480, every: 1, anchorAt: null };
  it('counts the occurrences after a time and up to another, at most a limit', () => {
    const after = new Date('2026-04-01T02:00:00Z');
    expect(countRuns(monthly, after, new Date('2027-04-01T02:00:00Z'), 1000)).toBe(12);
    expect(countRuns(monthly, after, new Date('2026-04-30T22:59:59Z'), 1000)).toBe(0);
    expect(countRuns(monthly, after, new Date('2026-04-30T23:00:00Z'), 1000)).toBe(1);
    expect(countRuns({ cronPattern: '0 * * * * *', offsetMinutes: 0, every: 1, anchorAt: null }, after, new Date('2027-04-01T02:00:00Z'), 1000)).toBe(1000);
  });
});

describe('recurrence › every N occurrences, counted from the anchor', () => {
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  /** The runs after `from`, each the next strictly after the one before. */
  const runs = (c: ReturnType<typeof cadenceOf>, from: Date, n: number) => {
    const out: (string | null)[] = [];
    let at: Date | null = from;
    for (let i = 0; i < n && at; i++) out.push(iso((at = nextRunAfter(c, at, at))));
    return out;
  };
  const cadence = (cronPattern: string, every: number, anchor: string) => cadenceOf({ cronPattern, timeOffset: '+00:00', every, anchorAt: new Date(anchor) });
  const nextRunAfter = (c: ReturnType<typeof cadenceOf>, after: Date, from?: Date | null) => nextRun(c, after, from);

  it('every 2 weeks (UTC has no daylight saving): day 14 and 28, never 7', () => {
    const c = cadence('0 30 9 * * 4', 2, '2026-01-01T09:30:00Z'); // Thursdays
    expect(runs(c, new Date('2026-01-01T09:30:00Z'), 3)).toEqual(['2026-01-15T09:30:00.000Z', '2026-01-29T09:30:00.000Z', '2026-02-12T09:30:00.000Z']);
    // From any moment, counted from the anchor, not from that moment: 8 January is not a run.
    expect(iso(nextRunAfter(c, new Date('2026-01-05T00:00:00Z')))).toBe('2026-01-15T09:30:00.000Z');
    expect(iso(nextRunAfter(c, new Date('2026-01-15T09:30:00Z')))).toBe('2026-01-29T09:30:00.000Z');
    // Catch-up: the latest run at or before a time, on the count.
    expect(iso(latestRunAtOrBefore(c, new Date('2026-01-28T00:00:00Z')))).toBe('2026-01-15T09:30:00.000Z');
    expect(iso(latestRunAtOrBefore(c, new Date('2026-01-29T09:30:00Z'), new Date('2026-01-15T09:30:00Z')))).toBe('2026-01-29T09:30:00.000Z');
    expect(latestRunAtOrBefore(c, new Date('2025-12-31T00:00:00Z'))).toBeNull();
  });

  it('every 5 months from 31 January: 30 June, 30 November, 30 April, 30 September (the last day)', () => {
    const c = cadence('0 0 8 L * *', 5, '2026-01-31T08:00:00Z');
    expect(runs(c, new Date('2026-01-31T08:00:00Z'), 4)).toEqual([
      '2026-06-30T08:00:00.000Z',
      '2026-11-30T08:00:00.000Z',
      '2027-04-30T08:00:00.000Z',
      '2027-09-30T08:00:00.000Z',
    ]);
  });

  it('every 2 years from 29 February: 28 February 2030, 29 February 2032', () => {
    const c = cadence('0 0 12 L 2 *', 2, '2028-02-29T12:00:00Z');
    expect(runs(c, new Date('2028-02-29T12:00:00Z'), 2)).toEqual(['2030-02-28T12:00:00.000Z', '2032-02-29T12:00:00.000Z']);
  });

  it('counts the runs a cancellation stops with the period, and every 1 is every occurrence', () => {
    const c = cadence('0 30 9 * * 4', 2, '2026-01-01T09:30:00Z');
    expect(countRuns(c, new Date('2026-01-01T09:30:00Z'), new Date('2026-12-31T00:00:00Z'), 1000)).toBe(25); // 15 January … 17 December; 31 December falls after
    const weekly = cadenceOf({ cronPattern: '0 30 9 * * 4', timeOffset: '+00:00', every: 1, anchorAt: null });
    expect(iso(nextRunAfter(weekly, new Date('2026-01-01T09:30:00Z')))).toBe('2026-01-08T09:30:00.000Z');
  });
});
