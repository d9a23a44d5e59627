/**
 * When to try a callback again. After failed attempt n (1-based) the next one waits
 * `schedule[n-1]` seconds with ±10 % jitter (so a receiver that came back up is not hit by every
 * sender at once); after the last entry the event is marked failed. A `Retry-After` from the
 * receiver pushes the next attempt later (never earlier), bounded by MAX_RETRY_AFTER_SECONDS.
 */
export const MAX_RETRY_AFTER_SECONDS = 24 * 60 * 60;
export const JITTER = 0.1;

/**
 * `Retry-After` as delay-seconds or an HTTP date, in seconds from `now`; undefined when absent
 * or unparseable; capped at MAX_RETRY_AFTER_SECONDS.
 */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  let seconds: number;
  if (/^\d+$/.test(text)) seconds = Number(text);
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return undefined;
    seconds = Math.ceil((at - now.getTime()) / 1000);
  }
  return Math.min(Math.max(seconds, 0), MAX_RETRY_AFTER_SECONDS);
}

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
