/**
 * Whether a failure means the database cannot be reached right now (rather than a bug or bad
 * data): the connection was refused, reset or timed out, PostgreSQL is shutting down, starting
 * up or out of connections (SQLSTATE class 08, 57P01–57P03, 53300), or the pool or embedded
 * database was already closed (a process shutting down). Drizzle wraps driver errors: the
 * causes are followed. Such a request gets 503 ER.99.01 with Retry-After, not 500 ER.99.00.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
const CLOSED =
  /^(PGlite is closed|Cannot use a pool after calling end on the pool|Connection terminated( unexpectedly)?|Client was closed and is not queryable)$/;

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    if (CLOSED.test(e.message)) return true;
  }
  return false;
}
