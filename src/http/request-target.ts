import { STATUS_CODES } from 'node:http';
import { buildEnvelope, type Envelope, toJson } from '../api/envelope.ts';

/**
 * Methods handed to the routes, which answer those they do not take with 405 and their own
 * `Allow`. Anything else (TRACE, TRACK, CONNECT, WebDAV's PROPFIND, …) is refused before any
 * route with the 405 envelope: no route takes it, and the web Request Astro builds throws on
 * TRACE (a 500 with a stack trace on stderr).
 */
export const ROUTED_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The methods some route of paylink takes: the `Allow` of a method refused before routing. */
export const ALLOWED_METHODS = 'GET, HEAD, POST, PATCH, DELETE';

/** The 405 envelope for a method refused before routing. */
export const methodRefusal = (method: string, path: string, allowed = ALLOWED_METHODS) =>
  buildEnvelope({
    code: 'ER.02.35',
    path,
    messages: { method: [`${method || 'this method'} is not allowed here; use ${allowed.split(', ').join(' or ')}`] },
  });

const MAX_DECODE_ROUNDS = 10;

/**
 * Whether Astro can decode this path. It decodes a path again and again until it stops changing
 * (at most ten times), and logs at error level (an unauthenticated line on stderr for anyone's
 * typo) when `decodeURI` refuses it (a `%` without two hex digits, bytes that are not UTF-8) or
 * the rounds run out. The same rules, checked first, so such a path is a 404 and nothing more.
 */
export function hasValidPathEncoding(path: string): boolean {
  let current = path;
  for (let round = 0; ; round++) {
    let decoded: string;
    try {
      decoded = decodeURI(current);
    } catch {
      // Astro refuses only a path it cannot decode at all; a later round that fails ends its loop.
      return round > 0;
    }
    if (decoded === current) return true;
    if (round >= MAX_DECODE_ROUNDS) return false;
    current = decoded;
  }
}

/**
 * A whole HTTP/1.1 response carrying an envelope, for a socket that never became a request
 * (CONNECT, a method Node's parser refuses). The connection is closed after it.
 */
export function rawEnvelopeResponse(status: number, envelope: Envelope, headers: Record<string, string> = {}): string {
  const body = toJson(envelope);
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Unknown'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
  ];
  return `${head.join('\r\n')}\r\n\r\n${body}`;
}
