import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientKey } from '../../../src/api/rate-limits.ts';
import { clientIpOf, forwardedProtoOf } from '../../../src/http/client-ip.ts';

const request = (remoteAddress: string, forwarded?: string) =>
  ({ socket: { remoteAddress }, headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded } }) as unknown as IncomingMessage;

describe('client address', () => {
  it('is the connection’s address, whatever X-Forwarded-For says, unless a proxy is trusted', () => {
    expect(clientIpOf(request('203.0.113.9', '198.51.100.1'), false)).toBe('203.0.113.9');
    expect(clientIpOf(request('::ffff:203.0.113.9'), false)).toBe('203.0.113.9');
  });

  it('behind a trusted proxy is the last X-Forwarded-For entry; a bad entry falls back to the connection', () => {
    expect(clientIpOf(request('10.0.0.2', '198.51.100.1'), true)).toBe('198.51.100.1');
    expect(clientIpOf(request('10.0.0.2', '6.6.6.6, 198.51.100.1'), true)).toBe('198.51.100.1');
    expect(clientIpOf(request('10.0.0.2', 'not-an-ip'), true)).toBe('10.0.0.2');
    expect(clientIpOf(request('10.0.0.2'), true)).toBe('10.0.0.2');
  });

  it('is counted by IPv4 address, or by IPv6 /64 prefix', () => {
    expect(clientKey('198.51.100.7')).toBe('198.51.100.7');
    expect(clientKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(clientKey('2001:db8:1:2::1')).toBe(clientKey('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expect(clientKey('2001:db8:1:2::1')).not.toBe(clientKey('2001:db8:1:3::1'));
  });
});

describe('forwarded scheme', () => {
  const proto = (value: string | string[] | undefined) =>
    ({ socket: {}, headers: value === undefined ? {} : { 'x-forwarded-proto': value } }) as unknown as IncomingMessage;

  it('behind a trusted proxy is the last X-Forwarded-Proto entry, the one the proxy appended, as for the address', () => {
    expect(forwardedProtoOf(proto('https, http'), true)).toBe('http');
    expect(forwardedProtoOf(proto('http,HTTPS'), true)).toBe('https');
    expect(forwardedProtoOf(proto(['https', 'http']), true)).toBe('http');
    expect(forwardedProtoOf(proto(''), true)).toBeUndefined();
    expect(forwardedProtoOf(proto(undefined), true)).toBeUndefined();
  });

  it('is never read without a trusted proxy', () => {
    expect(forwardedProtoOf(proto('https'), false)).toBeUndefined();
  });
});
