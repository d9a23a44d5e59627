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
  const header = req.headers['x-forwarded-for'];
  const entries = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',');
  const last = entries[entries.length - 1]?.trim() ?? '';
  return normalise(last) ?? socket;
}
