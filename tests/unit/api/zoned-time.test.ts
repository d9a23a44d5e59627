import { describe, expect, it } from 'vitest';
import { isTimeZone, utcToZonedTime, zonedTimeToUtc } from '../../../src/api/zoned-time.ts';

describe('zoned time › a picker’s time read in a zone', () => {
  it('reads Manila (UTC+8, no daylight saving) eight hours ahead of UTC', () => {
    expect(zonedTimeToUtc('2027-01-31T23:59', 'Asia/Manila')).toBe('2027-01-31T15:59:00.000Z');
    expect(zonedTimeToUtc('2027-01-31T23:59:30', 'Asia/Manila')).toBe('2027-01-31T15:59:30.000Z');
  });

  it('follows daylight saving: New York is UTC−5 in January and UTC−4 in July', () => {
    expect(zonedTimeToUtc('2027-01-15T12:00', 'America/New_York')).toBe('2027-01-15T17:00:00.000Z');
    expect(zonedTimeToUtc('2027-07-15T12:00', 'America/New_York')).toBe('2027-07-15T16:00:00.000Z');
  });

  it('reads a clock time skipped by the spring change as the same time after it', () => {
    // 2027-03-14 02:30 does not exist in New York (02:00 → 03:00).
    expect(zonedTimeToUtc('2027-03-14T02:30', 'America/New_York')).toBe('2027-03-14T07:30:00.000Z');
  });

  it('reads nothing that is not a picker’s time or not a known zone', () => {
    expect(zonedTimeToUtc('31/01/2027 23:59', 'Asia/Manila')).toBeUndefined();
    expect(zonedTimeToUtc('2027-01-31T23:59', 'Mars/Olympus')).toBeUndefined();
    expect(isTimeZone('Asia/Manila')).toBe(true);
    expect(isTimeZone('../../etc')).toBe(false);
    expect(isTimeZone('x'.repeat(65))).toBe(false);
  });
});

describe('zoned time › a UTC time shown in a zone', () => {
  it('shows the wall clock of the zone, seconds only when not zero', () => {
    expect(utcToZonedTime('2027-01-31T15:59:00.000Z', 'Asia/Manila')).toBe('2027-01-31T23:59');
    expect(utcToZonedTime('2027-01-31T15:59:59.000Z', 'Asia/Manila')).toBe('2027-01-31T23:59:59');
    expect(utcToZonedTime('2027-07-15T16:00:00Z', 'America/New_York')).toBe('2027-07-15T12:00');
  });

  it('round-trips with reading', () => {
    for (const zone of ['UTC', 'Asia/Manila', 'Europe/London', 'America/Los_Angeles', 'Asia/Kolkata']) {
      const iso = '2027-10-31T01:30:00.000Z';
      expect(zonedTimeToUtc(utcToZonedTime(iso, zone)!, zone), zone).toBe(iso);
    }
  });

  it('shows nothing for text that is not a time', () => {
    expect(utcToZonedTime('soon', 'UTC')).toBeUndefined();
  });
});
