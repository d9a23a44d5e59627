import type { MessageKey } from '../i18n/en.ts';
import type { StatusCode } from '../status-codes.ts';

/** Per-field messages: dotted field path → what is wrong with it. */
export type Messages = Record<string, string[]>;

/**
 * A rule said no. Carries a catalogue code; the API layer turns it into the envelope.
 * `httpStatus` picks a status the catalogue allows for the code (e.g. 404 for ER.02.30 when a
 * referenced object does not exist); `data` adds fields to the envelope's data object.
 */
const DOMAIN_ERROR = Symbol.for('paylink.DomainError');

export class DomainError extends Error {
  /**
   * Recognised by a registered symbol, not by class identity: the process entry and the Astro
   * build each bundle their own copy of this module, and objects built at start (the rate
   * limits, `cardVelocity` on the context) throw errors the routes must still know as refusals, not crashes.
   */
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[DOMAIN_ERROR] === true;
  }
  readonly [DOMAIN_ERROR] = true;

  readonly code: StatusCode;
  readonly messages?: Messages | string;
  readonly httpStatus?: number;
  readonly data?: Record<string, unknown>;
  /** When a limit refused the request: how long to wait before trying again (`Retry-After`). */
  readonly retryAfterSeconds?: number;
  /**
   * A refusal a customer reads on a payment or card page: its words in the catalogue (src/i18n),
   * so the page's own endpoints say it in the customer's language (`{wait}`: retryAfterSeconds).
   */
  readonly say?: MessageKey;

  constructor(
    code: StatusCode,
    message: string,
    opts: { messages?: Messages | string; httpStatus?: number; data?: Record<string, unknown>; retryAfterSeconds?: number; say?: MessageKey } = {},
  ) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.messages = opts.messages;
    this.httpStatus = opts.httpStatus;
    this.data = opts.data;
    this.retryAfterSeconds = opts.retryAfterSeconds;
    this.say = opts.say;
  }
}

/** ER.02.30 for one or more bad fields (422). */
export const invalidFields = (messages: Messages) =>
  new DomainError('ER.02.30', 'Invalid client request due to invalid parameters', { messages, httpStatus: 422 });

/** ER.02.30 for a reference that does not exist for this integrator (404, as the spec's samples). */
export const notFound = (field: string, what: string, status = 404) =>
  new DomainError('ER.02.30', `${what} does not exist`, { messages: { [field]: [`${what} does not exist`] }, httpStatus: status });

/**
 * The same refusal with its fields named as a door names them (the API's wire names, a form's
 * inputs): each key of `messages`, and each `{field}` a message mentions. Anything else is
 * returned as it is.
 */
export function withFieldNames(error: unknown, name: (field: string) => string): unknown {
  if (!(error instanceof DomainError) || typeof error.messages !== 'object') return error;
  const say = (message: string) => message.replace(/\{([A-Za-z][\w.]*)\}/g, (_, field: string) => name(field));
  const messages = Object.fromEntries(Object.entries(error.messages).map(([field, list]) => [name(field), list.map(say)]));
  const { httpStatus, data, retryAfterSeconds, say: key } = error;
  return new DomainError(error.code, error.message, { messages, httpStatus, data, retryAfterSeconds, say: key });
}

/**
 * The one row a statement must return (a row this operation locked, inserted or just read):
 * an invariant, so a miss is a bug reported as such, never a business answer.
 */
export function theRow<T>(rows: T[], what: string): T {
  const row = rows[0];
  if (row === undefined) throw new Error(`invariant: ${what} was expected but not found`);
  return row;
}
