import { RateLimiterMemory } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import { AUTH_CLEAR_FOR_MS, type LimiterFactory, RateLimits } from '../../../src/api/rate-limits.ts';
import type { Config } from '../../../src/config.ts';
import { DomainError } from '../../../src/domain/errors.ts';

/**
 * The failed-authentication limit is read before every token is checked. A read that found the
 * address below its limit is kept for AUTH_CLEAR_FOR_MS (on PostgreSQL it is a query per API
 * request otherwise). Two RateLimits over one store stand for two processes on one database.
 */
const limits = { authFailures: { points: 3, seconds: 900 } } as unknown as Config['limits'];

function sharedStore() {
  const limiters = new Map<string, RateLimiterMemory>();
  let reads = 0;
  const factory: LimiterFactory = (opts) => {
    let limiter = limiters.get(opts.keyPrefix);
    if (!limiter) {
      limiter = new RateLimiterMemory(opts);
      const get = limiter.get.bind(limiter);
      limiter.get = (key, options) => {
        reads++;
        return get(key, options);
      };
      limiters.set(opts.keyPrefix, limiter);
    }
    return limiter;
  };
  return { factory, reads: () => reads };
}

const refused = (p: Promise<void>) =>
  p.then(
    () => undefined,
    (error: unknown) => (error instanceof DomainError ? error.code : Promise.reject(error)),
  );

describe('rate limits › failed authentications', () => {
  it('reads an address once per AUTH_CLEAR_FOR_MS while it has not failed', async () => {
    const store = sharedStore();
    let now = 0;
    const process = new RateLimits(limits, store.factory, () => now);
    for (let i = 0; i < 50; i++) await process.assertMayAuthenticate('198.51.100.7');
    expect(store.reads()).toBe(1);
    now += AUTH_CLEAR_FOR_MS + 1;
    await process.assertMayAuthenticate('198.51.100.7');
    expect(store.reads()).toBe(2);
    // Another address has its own read.
    await process.assertMayAuthenticate('198.51.100.8');
    expect(store.reads()).toBe(3);
  });

  it('refuses at once, in the process that counted them, an address whose failures reached the limit', async () => {
    const store = sharedStore();
    const process = new RateLimits(limits, store.factory, () => 0);
    await process.assertMayAuthenticate('198.51.100.7');
    for (let i = 0; i < 3; i++) await process.authenticationFailed('198.51.100.7');
    expect(await refused(process.assertMayAuthenticate('198.51.100.7'))).toBe('ER.01.02');
    // Refused on every request, a good token included (the caller checks before the token).
    expect(await refused(process.assertMayAuthenticate('198.51.100.7'))).toBe('ER.01.02');
    expect(await refused(process.assertMayAuthenticate('198.51.100.9'))).toBeUndefined();
  });

  it('sees failures another process counted within AUTH_CLEAR_FOR_MS', async () => {
    const store = sharedStore();
    let now = 0;
    const a = new RateLimits(limits, store.factory, () => now);
    const b = new RateLimits(limits, store.factory, () => now);
    await a.assertMayAuthenticate('198.51.100.7');
    for (let i = 0; i < 3; i++) await b.authenticationFailed('198.51.100.7');
    expect(await refused(b.assertMayAuthenticate('198.51.100.7'))).toBe('ER.01.02');
    // a read the address clear a moment ago and keeps that read for at most AUTH_CLEAR_FOR_MS.
    now += AUTH_CLEAR_FOR_MS - 1;
    expect(await refused(a.assertMayAuthenticate('198.51.100.7'))).toBeUndefined();
    now += 2;
    expect(await refused(a.assertMayAuthenticate('198.51.100.7'))).toBe('ER.01.02');
  });

  it('does not keep a read that a failure of the same process overtook', async () => {
    const store = sharedStore();
    const process = new RateLimits({ authFailures: { points: 1, seconds: 900 } } as unknown as Config['limits'], store.factory, () => 0);
    // The read starts, a failure is counted before it answers: the next request reads again.
    const reading = process.assertMayAuthenticate('198.51.100.7');
    await process.authenticationFailed('198.51.100.7');
    await reading;
    expect(await refused(process.assertMayAuthenticate('198.51.100.7'))).toBe('ER.01.02');
  });

  it('remembers at most 10,000 addresses, forgetting the oldest first', async () => {
    const store = sharedStore();
    const process = new RateLimits(limits, store.factory, () => 0);
    for (let i = 0; i < 10_001; i++) await process.assertMayAuthenticate(`10.0.${i >> 8}.${i & 255}`);
    expect(store.reads()).toBe(10_001);
    await process.assertMayAuthenticate('10.0.39.16'); // the last one: still remembered
    expect(store.reads()).toBe(10_001);
    await process.assertMayAuthenticate('10.0.0.0'); // the first one: forgotten, read again
    expect(store.reads()).toBe(10_002);
  });
});
