import ipaddr from 'ipaddr.js';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config, RateLimit } from '../config.ts';
import type { CardAttempt, CardVelocity } from '../domain/checkout/velocity.ts';
import { DomainError } from '../domain/errors.ts';
import type { MessageKey } from '../i18n/en.ts';
import type { StatusCode } from './catalogue.ts';

/**
 * The velocity limits, one rate-limiter-flexible limiter each (fixed windows per key). Counters
 * live in memory on the embedded database (one process) and in the `rate_limits` table on
 * PostgreSQL, where every process shares them (src/app.ts picks the store). Each limit, its
 * default and its setting are listed in docs/security.md.
 */
export type LimiterFactory = (opts: { keyPrefix: string; points: number; duration: number }) => RateLimiterAbstract;

export const memoryLimiters: LimiterFactory = (opts) => new RateLimiterMemory(opts);

/**
 * The key a client address is counted under: an IPv4 address as it is, an IPv6 address by its
 * /64 prefix (one subscriber gets a whole /64, so single addresses cost an attacker nothing).
 */
export function clientKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(':')}::/64`;
}

const waitInWords = (ms: number) => {
  const minutes = Math.ceil(ms / 60_000);
  if (ms < 60_000) return `${Math.max(1, Math.ceil(ms / 1000))} seconds`;
  if (minutes < 120) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `${Math.ceil(minutes / 60)} hours`;
};

function tooMany(code: StatusCode, description: string, field: string, text: (wait: string) => string, msBeforeNext: number, say?: MessageKey) {
  const ms = Math.max(msBeforeNext, 1000);
  return new DomainError(code, description, {
    messages: { [field]: [text(waitInWords(ms))] },
    retryAfterSeconds: Math.ceil(ms / 1000),
    say,
  });
}

/** True when `error` is the library's answer for a key over its limit (not a store failure). */
const isOverLimit = (error: unknown): error is RateLimiterRes => error instanceof RateLimiterRes;

/**
 * How long an address read below its failed-authentication limit is not read again. On PostgreSQL
 * the read is a query, and every API request would pay it before its token is checked. A failure
 * this process counts drops the address at once; one counted by another process is seen within
 * this time (or at once, if this process counts the address's next failure).
 */
export const AUTH_CLEAR_FOR_MS = 1000;
/** The most addresses remembered as clear (the oldest is forgotten first). */
const AUTH_CLEAR_MAX = 10_000;

export class RateLimits implements CardVelocity {
  private readonly limiters = new Map<string, RateLimiterAbstract>();
  /** Client keys read below the failed-authentication limit, with when to read them again (clock ms). */
  private readonly authClearUntil = new Map<string, number>();
  /** Failed authentications counted by this process: a read that one overtook is not remembered. */
  private authFailuresSeen = 0;

  constructor(
    private readonly limits: Config['limits'],
    private readonly factory: LimiterFactory = memoryLimiters,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  private limiter(name: keyof Config['limits']): { limiter: RateLimiterAbstract; limit: RateLimit } | undefined {
    const limit = this.limits[name];
    if (!limit) return undefined;
    let limiter = this.limiters.get(name);
    if (!limiter) this.limiters.set(name, (limiter = this.factory({ keyPrefix: `paylink:${name}`, points: limit.points, duration: limit.seconds })));
    return { limiter, limit };
  }

  /** Consumes a point; resolves with the wait (ms) when the key is over its limit, else undefined. */
  private async consume(name: keyof Config['limits'], key: string): Promise<number | undefined> {
    const found = this.limiter(name);
    if (!found) return undefined;
    try {
      await found.limiter.consume(key);
      return undefined;
    } catch (error) {
      if (isOverLimit(error)) return error.msBeforeNext;
      throw error;
    }
  }

  /** The wait (ms) when the key has already used all its points, else undefined. */
  private async exhausted(name: keyof Config['limits'], key: string): Promise<number | undefined> {
    const found = this.limiter(name);
    if (!found) return undefined;
    const state = await found.limiter.get(key);
    return state && state.consumedPoints >= found.limit.points ? state.msBeforeNext : undefined;
  }

  /** Before a token or link key is checked: a client that failed too often waits (ER.01.02, 429). */
  async assertMayAuthenticate(clientIp: string): Promise<void> {
    const key = clientKey(clientIp);
    if ((this.authClearUntil.get(key) ?? Number.NEGATIVE_INFINITY) > this.clock()) return;
    const failuresBefore = this.authFailuresSeen;
    const wait = await this.exhausted('authFailures', key);
    if (wait === undefined) {
      if (failuresBefore !== this.authFailuresSeen) return;
      this.authClearUntil.delete(key);
      if (this.authClearUntil.size >= AUTH_CLEAR_MAX) this.authClearUntil.delete(this.authClearUntil.keys().next().value!);
      this.authClearUntil.set(key, this.clock() + AUTH_CLEAR_FOR_MS);
    } else {
      throw tooMany(
        'ER.01.02',
        'Too many failed authentication attempts',
        'authorization',
        (w) => `too many requests from your address carried an unknown API token or link key; try again in ${w}`,
        wait,
      );
    }
  }

  /** An unknown API token or link key was presented. */
  async authenticationFailed(clientIp: string): Promise<void> {
    const key = clientKey(clientIp);
    this.authFailuresSeen++;
    this.authClearUntil.delete(key);
    await this.consume('authFailures', key);
  }

  /**
   * Before a console sign-in (or its TOTP code) is checked: the attempt is counted as a failure
   * first, in one atomic step of the store, and refused when that goes over the limit (ER.01.03,
   * 429). Counting before checking keeps the limit under parallel attempts: reading the count and
   * adding to it after the check let 80 attempts at once all read "below the limit".
   */
  async beginSignIn(clientIp: string): Promise<void> {
    const wait = await this.consume('signInFailures', clientKey(clientIp));
    if (wait !== undefined) {
      throw tooMany('ER.01.03', 'Too many failed sign-in attempts', 'email', (w) => `Too many sign-ins from your network failed. Try again in ${w}.`, wait);
    }
  }

  /** The sign-in begun did not fail (the password or code was right, or nothing was checked): its count is given back. */
  async signInDidNotFail(clientIp: string): Promise<void> {
    const found = this.limiter('signInFailures');
    if (found) await found.limiter.reward(clientKey(clientIp), 1);
  }

  /** One API request by an authenticated integrator (ER.02.43, 429, over the limit). */
  async countApiRequest(integratorId: string): Promise<void> {
    const wait = await this.consume('apiRequests', integratorId);
    if (wait !== undefined) {
      const limit = this.limits.apiRequests!;
      throw tooMany(
        'ER.02.43',
        'Too many requests',
        '(request)',
        (w) => `more than ${limit.points} requests in ${limit.seconds} second${limit.seconds === 1 ? '' : 's'} with this API token; retry in ${w}`,
        wait,
      );
    }
  }

  /** A QR code is about to be drawn for a client, not served from memory (ER.02.70, 429, over the limit). */
  async countQrRender(clientIp: string): Promise<void> {
    const wait = await this.consume('qrRenders', clientKey(clientIp));
    if (wait !== undefined) {
      const limit = this.limits.qrRenders!;
      throw tooMany(
        'ER.02.70',
        'Too many QR codes drawn',
        '(request)',
        (w) => `more than ${limit.points} QR codes were drawn for your network in ${limit.seconds} second${limit.seconds === 1 ? '' : 's'}; try again in ${w}`,
        wait,
      );
    }
  }

  async beforeAttempt(attempt: CardAttempt): Promise<void> {
    const cardWait = await this.exhausted('declinesPerCard', attempt.fingerprint);
    if (cardWait !== undefined) {
      throw tooMany(
        'ER.03.25',
        'Too many card attempts',
        '(request)',
        (w) => `This card has been declined too many times. Use another card, or try this one again in ${w}.`,
        cardWait,
        'refusal.wait_card',
      );
    }
    const ipWait = await this.consume('cardAttemptsPerIp', `${attempt.scope}:${clientKey(attempt.clientIp)}`);
    if (ipWait !== undefined) {
      throw tooMany(
        'ER.03.25',
        'Too many card attempts',
        '(request)',
        (w) => `Too many payment attempts were made from your network. Please wait ${w}, then try again.`,
        ipWait,
        'refusal.wait_network',
      );
    }
    if (!attempt.open) return;
    const linkWait = await this.consume('cardAttemptsPerLink', attempt.scope);
    if (linkWait !== undefined) {
      throw tooMany(
        'ER.03.25',
        'Too many card attempts',
        '(request)',
        (w) => `This payment page is receiving too many payment attempts right now. Please try again in ${w}.`,
        linkWait,
        'refusal.wait_page',
      );
    }
  }

  /** Codes missed per link and client network: the per-client card attempt limit's size, under keys of their own. */
  async beforeCodeTry(attempt: Pick<CardAttempt, 'clientIp' | 'scope'>): Promise<void> {
    const wait = await this.exhausted('cardAttemptsPerIp', `code:${attempt.scope}:${clientKey(attempt.clientIp)}`);
    if (wait !== undefined) {
      throw tooMany(
        'ER.06.04',
        'Too many promotion codes tried',
        'promo_code',
        (w) => `Too many promotion codes were tried from your network. Please wait ${w}, then try again.`,
        wait,
        'sale.code.wait',
      );
    }
  }

  async codeMissed(attempt: Pick<CardAttempt, 'clientIp' | 'scope'>): Promise<void> {
    await this.consume('cardAttemptsPerIp', `code:${attempt.scope}:${clientKey(attempt.clientIp)}`);
  }

  async afterDecline(attempt: CardAttempt): Promise<{ showReason: boolean }> {
    await this.consume('declinesPerCard', attempt.fingerprint);
    const byClient = await this.consume('declineReasons', `ip:${attempt.scope}:${clientKey(attempt.clientIp)}`);
    const byCard = await this.consume('declineReasons', `card:${attempt.fingerprint}`);
    return { showReason: byClient === undefined && byCard === undefined };
  }
}
