import { isIP } from 'node:net';
import { forbiddenReason, isMetadataAddress } from '../../outbound/ssrf.ts';

/**
 * A callback URL that can never be delivered is refused when it is given (422 naming the field),
 * not discovered at the first delivery: a host written as a private, loopback, link-local or
 * otherwise non-public IP address, a cloud metadata address, or a name that only ever means this
 * machine or its local network (`localhost`, `*.localhost`, `*.local`, `*.internal`). Names are
 * not resolved here (DNS answers change); the guard in ssrf.ts checks every resolved address
 * again at delivery. PAYLINK_ALLOW_PRIVATE_CALLBACKS=1 lifts everything but metadata addresses.
 */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|home\.arpa)$/i;
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata', 'instance-data']);

export function callbackUrlProblem(value: string, allowPrivate: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an http:// or https:// URL';
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname.replace(/\.$/, '');
  if (isIP(host)) {
    if (isMetadataAddress(host)) return `must not point at ${host}, a cloud metadata address`;
    const reason = allowPrivate ? undefined : forbiddenReason(host);
    return reason && `must be a public address: ${host} ${reason}, which paylink never calls`;
  }
  if (METADATA_NAMES.has(host.toLowerCase())) return `must not point at ${host}, a cloud metadata host`;
  if (!allowPrivate && LOCAL_NAME.test(host)) return `must be a public address: ${host} names this machine or a local network, which paylink never calls`;
  return undefined;
}
