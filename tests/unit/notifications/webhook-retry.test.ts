import { describe, expect, it } from 'vitest';
import { nextRetry } from '../../../src/domain/notifications/retry.ts';
import { MAX_RETRY_AFTER_SECONDS, parseRetryAfter } from '../../../src/outbound/retry-after.ts';

const now = new Date('2025-01-01T00:00:00Z');
const schedule = [5, 300, 1800];

describe('callbacks › retry schedule', () => {
  it('waits the scheduled delay after each failed attempt, within ±10 % jitter', () => {
    for (const [attempt, base] of [
      [1, 5],
      [2, 300],
      [3, 1800],
    ] as const) {
      const low = nextRetry({ attempt, schedule, now, random: () => 0 });
      const high = nextRetry({ attempt, schedule, now, random: () => 0.999999 });
      expect(low).toMatchObject({ kind: 'retry', delaySeconds: base * 0.9 });
      expect(high.kind === 'retry' && high.delaySeconds).toBeCloseTo(base * 1.1, 3);
    }
  });

  it('gives up after the last scheduled retry', () => {
    expect(nextRetry({ attempt: 4, schedule, now })).toEqual({ kind: 'give-up' });
  });

  it('waits at least as long as Retry-After asks, never less than the schedule', () => {
    expect(nextRetry({ attempt: 1, schedule, now, retryAfterSeconds: 120, random: () => 0.5 })).toMatchObject({
      delaySeconds: 120,
      at: new Date(now.getTime() + 120_000),
    });
    expect(nextRetry({ attempt: 2, schedule, now, retryAfterSeconds: 1, random: () => 0.5 })).toMatchObject({ delaySeconds: 300 });
  });

  it('reads Retry-After as seconds or an HTTP date, bounded to 24 hours', () => {
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:10:00 GMT', now)).toBe(600);
    expect(parseRetryAfter('Tue, 31 Dec 2024 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('9999999', now)).toBe(MAX_RETRY_AFTER_SECONDS);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
