import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The SSRF guard for callback URLs. A callback is POSTed to an address that was resolved and
 * checked here, and the connection goes to exactly that address (see webhook-client.ts), so a
 * DNS answer that changes between check and connect (rebinding) cannot redirect it.
 *
 * Only public unicast addresses are allowed: loopback, private (RFC 1918, fc00::/7), link-local,
 * CGNAT, multicast, unspecified, broadcast, reserved/documentation/benchmarking ranges and cloud
 * metadata endpoints are refused, and so are the same addresses dressed up as IPv6 (IPv4-mapped
 * ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::a.b.c.d, 6to4 and Teredo).
 * `allowPrivate` (PAYLINK_ALLOW_PRIVATE_CALLBACKS=1) lifts the guard for local development,
 * except for cloud metadata endpoints, which are never a callback.
 */
export class CallbackAddressRefused extends Error {
  constructor(
    message: string,
    readonly address?: string,
  ) {
    super(message);
    this.name = 'CallbackAddressRefused';
  }
}

export interface ResolvedTarget {
  /** The host name as written in the URL (brackets removed), used for the Host header and TLS SNI. */
  hostname: string;
  /** The first checked address. */
  address: string;
  family: 4 | 6;
  /** Every address the host resolved to, all checked: the only ones a connection may go to. */
  addresses: Array<{ address: string; family: 4 | 6 }>;
}

/** Cloud metadata endpoints (AWS/GCP/Azure/OpenStack IPv4, AWS IPv6): refused even with allowPrivate. */
const METADATA = new Set(['169.254.169.254', 'fd00:ec2::254']);

/** Why an address may not be called, or undefined when it is a public unicast address. */
export function forbiddenReason(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'is not an IP address';
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) {
      const reason = forbiddenReason(v6.toIPv4Address().toString());
      return reason && `is an IPv4-mapped IPv6 address that ${reason}`;
    }
    const range = v6.range();
    const parts = v6.parts;
    if (range === 'rfc6052' && parts[2] === 0) {
      // NAT64 (64:ff9b::/96): the last 32 bits are the IPv4 destination.
      const v4 = `${parts[6]! >> 8}.${parts[6]! & 0xff}.${parts[7]! >> 8}.${parts[7]! & 0xff}`;
      const reason = forbiddenReason(v4);
      return reason && `is a NAT64 address of ${v4}, which ${reason}`;
    }
    if (parts.slice(0, 6).every((p) => p === 0)) return 'is an IPv4-compatible or reserved IPv6 address (::/96)';
    if (range !== 'unicast') return `is ${describeRange(range)}`;
    // Only global unicast (2000::/3) is routable on the Internet.
    if ((parts[0]! & 0xe000) !== 0x2000) return 'is outside IPv6 global unicast (2000::/3)';
    return undefined;
  }
  ip = ip as ipaddr.IPv4;
  const range = ip.range();
  if (range !== 'unicast') return `is ${describeRange(range)}`;
  return undefined;
}

function describeRange(range: string): string {
  const names: Record<string, string> = {
    unspecified: 'an unspecified address',
    broadcast: 'a broadcast address',
    multicast: 'a multicast address',
    linkLocal: 'a link-local address',
    loopback: 'a loopback address',
    carrierGradeNat: 'a carrier-grade NAT address (100.64.0.0/10)',
    private: 'a private address',
    uniqueLocal: 'a unique-local (private) IPv6 address',
    reserved: 'a reserved address',
    rfc6052: 'a local-use NAT64 address',
    '6to4': 'a 6to4 address',
    teredo: 'a Teredo address',
  };
  return names[range] ?? `in the special-purpose range "${range}"`;
}

export const isMetadataAddress = (address: string): boolean => {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address); // IPv4-mapped IPv6 becomes IPv4
  return METADATA.has(ip.toNormalizedString()) || METADATA.has(ip.toString());
};

const PUBLIC_ONLY = 'callbacks go to public addresses only (PAYLINK_ALLOW_PRIVATE_CALLBACKS=1 lifts this for local development)';

type Lookup = (hostname: string) => Promise<Array<{ address: string; family: number }>>;
const systemLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * Resolves the URL's host and checks every address it resolves to: if any is forbidden the
 * callback is refused (a host that answers with both a public and a private address is not
 * trusted). Returns the checked addresses, which the connection is then pinned to.
 */
export async function resolveCallbackTarget(url: URL, opts: { allowPrivate: boolean; lookup?: Lookup }): Promise<ResolvedTarget> {
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(hostname)) {
    addresses = [{ address: hostname, family: isIP(hostname) }];
  } else {
    try {
      addresses = await (opts.lookup ?? systemLookup)(hostname);
    } catch (error) {
      throw new CallbackAddressRefused(`cannot resolve ${hostname}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    if (addresses.length === 0) throw new CallbackAddressRefused(`cannot resolve ${hostname}: no addresses`);
  }
  const literal = isIP(hostname) !== 0;
  for (const { address } of addresses) {
    const metadata = isMetadataAddress(address);
    const reason = metadata ? 'is a cloud metadata endpoint' : opts.allowPrivate ? undefined : forbiddenReason(address);
    if (!reason) continue;
    // The merchant reads this in the delivery log: a host name's addresses are never told (which
    // internal address a name resolves to is the network's map), only that one is not allowed.
    if (!literal) throw new CallbackAddressRefused(`${hostname}: address not allowed; ${PUBLIC_ONLY}`, address);
    throw new CallbackAddressRefused(`${address} ${reason}; ${metadata ? 'never a callback' : PUBLIC_ONLY}`, address);
  }
  const checked = addresses.map(({ address, family }) => ({ address, family: family === 6 ? (6 as const) : (4 as const) }));
  return { hostname, address: checked[0]!.address, family: checked[0]!.family, addresses: checked };
}
