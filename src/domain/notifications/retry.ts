/**
 * When to try a callback again. After failed attempt n (1-based) the next one waits
 * `schedule[n-1]` seconds with ±10 % jitter (so a receiver that came back up is not hit by every
 * sender at once); after the last entry the event is marked failed. A `Retry-After` from the
 * receiver (src/outbound/retry-after.ts) pushes the next attempt later, never earlier.
 */
export const JITTER = 0.1;

export type RetryDecision = { kind: 'retry'; at: Date; delaySeconds: number } | { kind: 'give-up' };

export function nextRetry(opts: {
  /** The attempt that just failed, 1-based. */
  attempt: number;
  schedule: readonly number[];
  now: Date;
  retryAfterSeconds?: number;
  /** A number in [0, 1); Math.random by default. */
  random?: () => number;
}): RetryDecision {
  const base = opts.schedule[opts.attempt - 1];
  if (base === undefined) return { kind: 'give-up' };
  const random = opts.random ?? Math.random;
  const jittered = base * (1 - JITTER + 2 * JITTER * random());
  const delaySeconds = Math.max(jittered, opts.retryAfterSeconds ?? 0);
  return { kind: 'retry', delaySeconds, at: new Date(opts.now.getTime() + Math.round(delaySeconds * 1000)) };
}
