/** A receiver's `Retry-After` (callbacks): it can delay the next attempt, never hasten it. */
export const MAX_RETRY_AFTER_SECONDS = 24 * 60 * 60;

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
