import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';
import pLimit, { type LimitFunction } from 'p-limit';
import { DomainError } from '../errors.ts';
import { argon2Threads } from './argon2-threads.ts';

/**
 * Console passwords (PCI DSS 4.0 8.3.6; NIST SP 800-63B 5.1.1.2): long rather than "complex",
 * checked against a list of passwords known from breaches, hashed with Argon2id off the event loop.
 */
export const PASSWORD_MIN_LENGTH = 12;
/** Argon2 takes any length; the cap only keeps one request from hashing megabytes. */
export const PASSWORD_MAX_LENGTH = 256;
/** A password made of fewer different characters than this is a pattern, not a secret. */
export const PASSWORD_MIN_DISTINCT_CHARACTERS = 5;
/** A common password this long or longer is refused also with digits or symbols around it. */
const PADDED_COMMON_MIN_LENGTH = 6;

/**
 * The 49,000 most common passwords from breach corpora, as the maintained zxcvbn-ts project
 * ships them (@zxcvbn-ts/language-common), lower-cased. Loaded the first time a password is
 * checked: the dictionaries take memory that most processes never need (docs/deploy.md).
 */
let commonPasswords: Promise<Set<string>> | undefined;
const loadCommonPasswords = () =>
  (commonPasswords ??= import('@zxcvbn-ts/language-common').then(({ dictionary }) => new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()))));

/** Why `password` cannot be used (empty: it can). `email` is the account's address. */
export async function passwordProblems(password: string, email?: string): Promise<string[]> {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return [`must be at least ${PASSWORD_MIN_LENGTH} characters long`];
  if (length > PASSWORD_MAX_LENGTH) return [`must be at most ${PASSWORD_MAX_LENGTH} characters long`];
  const common = await loadCommonPasswords();
  const lower = password.toLowerCase();
  if (common.has(lower)) return ['is one of the most common passwords and would be guessed first; choose another'];
  const core = lower.replace(/^[\d\W_]+|[\d\W_]+$/g, '');
  if (core.length >= PADDED_COMMON_MIN_LENGTH && common.has(core)) {
    return ['is a common password with digits or symbols added, which attackers try early; choose another'];
  }
  if (new Set(password).size < PASSWORD_MIN_DISTINCT_CHARACTERS) return [`must use at least ${PASSWORD_MIN_DISTINCT_CHARACTERS} different characters`];
  const local = email?.split('@')[0]?.toLowerCase();
  if (local && local.length >= 4 && lower.includes(local)) return ['must not contain your e-mail address'];
  return [];
}

/**
 * Argon2id with OWASP's first recommended configuration (Password Storage Cheat Sheet): 19 MiB
 * of memory, 2 iterations, 1 lane; a 16-byte random salt; stored as a PHC string
 * (`$argon2id$v=19$m=19456,t=2,p=1$…`), so stronger parameters later still verify old hashes.
 */
export const ARGON2_PARAMETERS = { memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32 } as const;
/** `Algorithm.Argon2id` of @node-rs/argon2 (a `const enum` there, which isolated modules cannot read). */
const ARGON2ID = 2;

/**
 * Hashes run at once: each holds one thread of libuv's pool (the native Argon2 runs there, never
 * on the event loop) and one core. One core is left to the event loop, and at least half of the
 * pool stays free: response compression (zlib), file reads and DNS look-ups run there too, and
 * every request would wait behind a pool full of hashes.
 */
const LIBUV_POOL_SIZE = Number(process.env.UV_THREADPOOL_SIZE) || 4;
export const PASSWORD_HASHES_AT_ONCE = Math.max(1, Math.min(availableParallelism() - 1, Math.floor(LIBUV_POOL_SIZE / 2)));
/** Retry-After (seconds) when the queue of hashes is full: about what the queue takes to drain. */
export const PASSWORD_BUSY_RETRY_SECONDS = 2;
/**
 * How long a sign-in that finds the queue full is held, waiting for room, before it is refused.
 * A refusal answered at once is sent again at once by a flood that ignores Retry-After: 200 such
 * clients made 5,000 refusals a second, and those, not the checks, took the event loop from every
 * other request. Held, each costs a timer, and a client in that loop sends at most one a second.
 */
export const PASSWORD_BUSY_HOLD_MS = 1_000;
/** Sign-ins held at once, per place in the queue; past that a refusal is answered at once. */
const HELD_PER_QUEUE_PLACE = 4;

/** Too many passwords are waiting to be checked: the request is refused at once (ER.01.04, 503). */
export const passwordCheckBusy = () =>
  new DomainError('ER.01.04', 'Too many sign-ins are being checked', {
    messages: { '(request)': ['Too many sign-ins are being checked right now. Wait a few seconds and try again.'] },
    retryAfterSeconds: PASSWORD_BUSY_RETRY_SECONDS,
  });

export interface Argon2 {
  hash: typeof argon2Hash;
  verify: typeof argon2Verify;
}

/**
 * Argon2id off the event loop, with a bounded queue: at most `atOnce` hashes run, at most
 * `waiting` wait their turn, and past that `hash` and `verify` refuse at once (ER.01.04) rather
 * than let unauthenticated sign-ins pile up seconds of work. One per process (`app.passwords`).
 */
export class PasswordHasher {
  private readonly limit: LimitFunction;
  private dummyHash: Promise<string> | undefined;
  /** Verifications run (dummy ones included): the timing rule's tests count them. */
  verifications = 0;
  /** Sign-ins held until the queue has room (`waitForRoom`), first come first woken. */
  private readonly held: Array<(room: boolean) => void> = [];

  constructor(
    private readonly waiting: number,
    atOnce = PASSWORD_HASHES_AT_ONCE,
    /** The Argon2 implementation (tests hold it to fill the queue): threads of lowered priority by default. */
    private readonly argon2: Argon2 = argon2Threads(atOnce),
  ) {
    this.limit = pLimit(atOnce);
  }

  /** True while the queue is full: a check asked for now would be refused (ER.01.04). */
  get full(): boolean {
    return this.limit.pendingCount >= this.waiting;
  }

  private run<T>(work: () => Promise<T>): Promise<T> {
    if (this.full) return Promise.reject(passwordCheckBusy());
    return this.limit(async () => {
      // The job leaves the queue as it starts: one place is free for the first sign-in held.
      queueMicrotask(() => this.wakeHeld());
      return work();
    });
  }

  /** One place came free: the longest-held sign-in takes it (one per place, or all would wake for it). */
  private wakeHeld(): void {
    if (!this.full) this.held.shift()?.(true);
  }

  /**
   * For a sign-in that found the queue full: true once there is room (then it goes on as any
   * sign-in does), false after `ms` or when too many are held already (then it is refused,
   * ER.01.04). `cancelled` ends the wait early (the client went away) with false.
   */
  waitForRoom(ms = PASSWORD_BUSY_HOLD_MS, cancelled?: AbortSignal): Promise<boolean> {
    if (!this.full) return Promise.resolve(true);
    if (this.held.length >= this.waiting * HELD_PER_QUEUE_PLACE || cancelled?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const settle = (room: boolean) => {
        clearTimeout(timer);
        cancelled?.removeEventListener('abort', abandon);
        const at = this.held.indexOf(settle);
        if (at >= 0) this.held.splice(at, 1);
        resolve(room);
      };
      const abandon = () => settle(false);
      const timer = setTimeout(abandon, ms);
      cancelled?.addEventListener('abort', abandon, { once: true });
      this.held.push(settle);
    });
  }

  /** Sign-ins held now by `waitForRoom`. */
  get heldCount(): number {
    return this.held.length;
  }

  /** Refuses (ER.01.04) now when a check would be refused: before any other work is spent on a request. */
  assertRoom(): void {
    if (this.full) throw passwordCheckBusy();
  }

  hash(password: string): Promise<string> {
    return this.run(() => this.argon2.hash(password, { ...ARGON2_PARAMETERS, algorithm: ARGON2ID, salt: randomBytes(16) }));
  }

  /** True when `password` matches the PHC string `hash`; false for a malformed hash. */
  verify(password: string, hash: string): Promise<boolean> {
    return this.run(async () => {
      this.verifications++;
      try {
        return await this.argon2.verify(hash, password);
      } catch {
        return false;
      }
    });
  }

  /**
   * Verifies against a hash of a random password with the same parameters: an unknown e-mail, an
   * account without a password yet or a locked one costs what a wrong password costs, so timing
   * tells nothing. Always false.
   */
  async verifyNothing(password: string): Promise<false> {
    this.dummyHash ??= this.argon2.hash(randomBytes(18).toString('base64'), { ...ARGON2_PARAMETERS, algorithm: ARGON2ID });
    await this.verify(password, await this.dummyHash);
    return false;
  }
}

/** A PHC Argon2id string, as a seed's `password_hash` must be. */
export const isArgon2idHash = (value: string) => /^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/.test(value);

/** A strong generated password (the demo owner's): 24 characters from 144 random bits. */
export const generatePassword = () => randomBytes(18).toString('base64url');
