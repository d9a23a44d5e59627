import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';

const normalise = (address: string) => (ipaddr.isValid(address) ? ipaddr.process(address).toString() : undefined);

/**
 * The client's address, as the velocity limits count it. From the TCP connection, unless
 * PAYLINK_TRUST_PROXY=1 says one reverse proxy stands in front: then the last entry of
 * X-Forwarded-For, the one that proxy appended (entries before it are whatever the client sent
 * and are never believed). IPv4-mapped IPv6 addresses read as IPv4.
 */
export function clientIpOf(req: IncomingMessage, trustProxy: boolean): string {
  const socket = normalise(req.socket.remoteAddress ?? '') ?? 'unknown';
  if (!trustProxy) return socket;
  return normalise(lastForwardedEntry(req.headers['x-forwarded-for'])) ?? socket;
}

/**
 * The entry the trusted proxy appended to an `X-Forwarded-*` list: the last one (repeated
 * headers read as one list). Entries before it are whatever the client sent.
 */
export function lastForwardedEntry(header: string | string[] | null | undefined): string {
  const entries = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',');
  return entries[entries.length - 1]?.trim() ?? '';
}

/**
 * The scheme the client used, as the trusted proxy saw it (`https`, `http`), read like the
 * address: the last entry of X-Forwarded-Proto. Undefined without PAYLINK_TRUST_PROXY=1 or the header.
 */
export function forwardedProtoOf(req: IncomingMessage, trustProxy: boolean): string | undefined {
  if (!trustProxy) return undefined;
  return lastForwardedEntry(req.headers['x-forwarded-proto']).toLowerCase() || undefined;
}
