import { describe, expect, it } from 'vitest';
import { callbackUrlProblem } from '../../../src/domain/notifications/callback-url.ts';

describe('callback URL at input', () => {
  const never = [
    'http://127.0.0.1/h',
    'http://127.1/h',
    'http://0x7f000001/h',
    'http://[::1]/h',
    'http://[::ffff:10.0.0.1]/h',
    'http://10.0.0.1/h',
    'http://172.16.5.4/h',
    'http://192.168.1.1/h',
    'http://100.64.0.1/h',
    'http://169.254.10.10/h',
    'http://0.0.0.0/h',
    'http://[fe80::1]/h',
    'http://[fc00::1]/h',
    'http://localhost:3000/h',
    'http://LOCALHOST./h',
    'http://shop.localhost/h',
    'http://nas.local/h',
    'http://db.internal/h',
  ];

  it('refuses a host that can only be this machine, a private network or link-local', () => {
    for (const url of never) expect(callbackUrlProblem(url, false), url).toMatch(/must be a public address/);
  });

  it('refuses cloud metadata endpoints even when private callbacks are allowed', () => {
    for (const url of ['http://169.254.169.254/latest/', 'http://[fd00:ec2::254]/', 'http://metadata.google.internal/x', 'http://[::ffff:169.254.169.254]/'])
      expect(callbackUrlProblem(url, true), url).toMatch(/metadata/);
  });

  it('accepts public addresses and names, and private ones when PAYLINK_ALLOW_PRIVATE_CALLBACKS=1', () => {
    for (const url of ['https://hooks.acme.example/p', 'http://8.8.8.8/h', 'http://[2001:4860::8888]/h', 'https://local.example.com/h'])
      expect(callbackUrlProblem(url, false), url).toBeUndefined();
    for (const url of never) expect(callbackUrlProblem(url, true), url).toBeUndefined();
  });
});
