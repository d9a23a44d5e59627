import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../../src/db/unavailable.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
/** Drizzle's wrapper around a driver error. */
const wrapped = (cause: Error) => new Error('Failed query: select 1\nparams: ', { cause });

describe('database unavailable', () => {
  it('recognises a refused, reset or timed-out connection, also wrapped by Drizzle', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH'])
      expect(isDatabaseUnavailable(wrapped(withCode(`connect ${code} 127.0.0.1:5432`, code))), code).toBe(true);
  });

  it('recognises PostgreSQL shutting down, starting up, out of connections or a connection exception', () => {
    for (const code of ['57P01', '57P02', '57P03', '53300', '08006', '08001']) expect(isDatabaseUnavailable(withCode('terminating', code)), code).toBe(true);
  });

  it('recognises a closed pool or embedded database', () => {
    for (const message of ['PGlite is closed', 'Cannot use a pool after calling end on the pool', 'Connection terminated unexpectedly'])
      expect(isDatabaseUnavailable(wrapped(new Error(message))), message).toBe(true);
  });

  it('does not take a bug or bad data for an outage', () => {
    expect(isDatabaseUnavailable(withCode('duplicate key value violates unique constraint', '23505'))).toBe(false);
    expect(isDatabaseUnavailable(withCode('deadlock detected', '40P01'))).toBe(false);
    expect(isDatabaseUnavailable(wrapped(withCode('syntax error', '42601')))).toBe(false);
    expect(isDatabaseUnavailable(new Error('secret database password leaked in message'))).toBe(false);
    expect(isDatabaseUnavailable(new Error('Connection terminated, said the user'))).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
