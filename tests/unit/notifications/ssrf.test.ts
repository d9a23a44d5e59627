import { describe, expect, it } from 'vitest';
import { CallbackAddressRefused, forbiddenReason, resolveCallbackTarget } from '../../../src/outbound/ssrf.ts';

const refusedUrls = [
  'http://127.0.0.1/hook',
  'http://127.8.9.10:8080/hook',
  'http://[::1]/hook',
  'http://10.1.2.3/hook',
  'http://172.16.0.1/hook',
  'http://172.31.255.254/hook',
  'http://192.168.1.1/hook',
  'http://169.254.169.254/latest/meta-data',
  'http://169.254.1.1/hook',
  'http://100.64.0.1/hook',
  'http://[::ffff:127.0.0.1]/hook',
  'http://[::ffff:a9fe:a9fe]/hook',
  'http://[::ffff:10.0.0.1]/hook',
  'http://[64:ff9b::7f00:1]/hook',
  'http://[64:ff9b:1::1]/hook',
  'http://[::127.0.0.1]/hook',
  'http://0.0.0.0/hook',
  'http://[::]/hook',
  'http://255.255.255.255/hook',
  'http://224.0.0.1/hook',
  'http://[ff02::1]/hook',
  'http://[fe80::1]/hook',
  'http://[fc00::1]/hook',
  'http://[fd00:ec2::254]/hook',
  'http://192.0.2.10/hook',
  'http://198.18.0.1/hook',
  'http://240.0.0.1/hook',
  'http://[2001:db8::1]/hook',
  'http://[2002:7f00:1::]/hook',
];

describe('callbacks › SSRF guard', () => {
  for (const url of refusedUrls) {
    it(`refuses ${url}`, async () => {
      await expect(resolveCallbackTarget(new URL(url), { allowPrivate: false })).rejects.toBeInstanceOf(CallbackAddressRefused);
    });
  }

  it('refuses a hostname that resolves to loopback (localhost), without telling the address', async () => {
    const refused = await resolveCallbackTarget(new URL('http://localhost:9/hook'), { allowPrivate: false }).catch((e) => e);
    expect(refused).toBeInstanceOf(CallbackAddressRefused);
    expect(refused.message).toMatch(/^localhost: address not allowed; /);
    expect(refused.message).not.toMatch(/127\.0\.0\.1|::1|loopback/);
  });

  it('refuses a hostname when any of its addresses is private, even if another is public', async () => {
    const lookup = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ];
    const refused = await resolveCallbackTarget(new URL('https://mixed.example/hook'), { allowPrivate: false, lookup }).catch((e) => e);
    expect(refused.message).toMatch(/^mixed\.example: address not allowed; /);
    expect(refused.message).not.toMatch(/10\.0\.0\.5|93\.184|private/);
  });

  it('pins the connection to the address it checked', async () => {
    const lookup = async () => [{ address: '93.184.216.34', family: 4 }];
    await expect(resolveCallbackTarget(new URL('https://shop.example/hook'), { allowPrivate: false, lookup })).resolves.toEqual({
      hostname: 'shop.example',
      address: '93.184.216.34',
      family: 4,
      addresses: [{ address: '93.184.216.34', family: 4 }],
    });
  });

  it('allows public IPv4, IPv6 and NAT64 of a public IPv4 address', () => {
    expect(forbiddenReason('93.184.216.34')).toBeUndefined();
    expect(forbiddenReason('2606:2800:220:1:248:1893:25c8:1946')).toBeUndefined();
    expect(forbiddenReason('64:ff9b::5db8:d822')).toBeUndefined();
    expect(forbiddenReason('8.8.8.8')).toBeUndefined();
  });

  it('lets PAYLINK_ALLOW_PRIVATE_CALLBACKS reach loopback and private addresses', async () => {
    await expect(resolveCallbackTarget(new URL('http://127.0.0.1:8080/hook'), { allowPrivate: true })).resolves.toMatchObject({ address: '127.0.0.1' });
    await expect(resolveCallbackTarget(new URL('http://[::1]:8080/hook'), { allowPrivate: true })).resolves.toMatchObject({ address: '::1', family: 6 });
    await expect(resolveCallbackTarget(new URL('http://10.0.0.1/hook'), { allowPrivate: true })).resolves.toMatchObject({ address: '10.0.0.1' });
  });

  it('never lets a callback reach a cloud metadata endpoint, even with the allow flag', async () => {
    for (const url of ['http://169.254.169.254/', 'http://[fd00:ec2::254]/', 'http://[::ffff:169.254.169.254]/']) {
      await expect(resolveCallbackTarget(new URL(url), { allowPrivate: true })).rejects.toThrow(/metadata/);
    }
  });

  it('refuses a host that does not resolve', async () => {
    const lookup = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    await expect(resolveCallbackTarget(new URL('https://nowhere.invalid/'), { allowPrivate: false, lookup })).rejects.toThrow(
      /cannot resolve nowhere.invalid: ENOTFOUND/,
    );
  });
});

describe('callbacks › SSRF guard › the reason it gives', () => {
  it.each([
    ['not-an-ip', 'is not an IP address'],
    ['0.0.0.0', 'is an unspecified address'],
    ['255.255.255.255', 'is a broadcast address'],
    ['224.0.0.1', 'is a multicast address'],
    ['169.254.1.1', 'is a link-local address'],
    ['127.0.0.1', 'is a loopback address'],
    ['100.64.0.1', 'is a carrier-grade NAT address (100.64.0.0/10)'],
    ['10.1.2.3', 'is a private address'],
    ['240.0.0.1', 'is a reserved address'],
    ['fc00::1', 'is a unique-local (private) IPv6 address'],
    ['2002:c000:204::1', 'is a 6to4 address'],
    ['2001::1', 'is a Teredo address'],
    ['64:ff9b:1::1', 'is a local-use NAT64 address'],
    ['::2', 'is an IPv4-compatible or reserved IPv6 address (::/96)'],
    ['::ffff:10.0.0.1', 'is an IPv4-mapped IPv6 address that is a private address'],
    ['64:ff9b::a00:1', 'is a NAT64 address of 10.0.0.1, which is a private address'],
    ['4000::1', 'is outside IPv6 global unicast (2000::/3)'],
  ])('%s %s', (address, reason) => {
    expect(forbiddenReason(address)).toBe(reason);
  });

  it('lets a public address through, also IPv4-mapped', () => {
    expect(forbiddenReason('8.8.8.8')).toBeUndefined();
    expect(forbiddenReason('::ffff:8.8.8.8')).toBeUndefined();
    expect(forbiddenReason('2606:4700::1111')).toBeUndefined();
  });

  it('a host name is refused by saying only that its address is not allowed; an IP literal is told why', async () => {
    const lookup = async () => [{ address: '10.0.0.7', family: 4 }];
    const named = await resolveCallbackTarget(new URL('http://shop.example/hook'), { allowPrivate: false, lookup }).catch((e) => e);
    expect(named).toBeInstanceOf(CallbackAddressRefused);
    expect(named.name).toBe('CallbackAddressRefused');
    expect(named.message).toBe(
      'shop.example: address not allowed; callbacks go to public addresses only (PAYLINK_ALLOW_PRIVATE_CALLBACKS=1 lifts this for local development)',
    );
    // A name that resolves to a metadata endpoint says no more, even with the allow flag.
    const metadata = async () => [{ address: '169.254.169.254', family: 4 }];
    const meta = await resolveCallbackTarget(new URL('http://meta.example/'), { allowPrivate: true, lookup: metadata }).catch((e) => e);
    expect(meta.message).toMatch(/^meta\.example: address not allowed; /);
    expect(meta.message).not.toMatch(/169\.254|metadata/);
    const bare = await resolveCallbackTarget(new URL('http://10.0.0.7/hook'), { allowPrivate: false, lookup }).catch((e) => e);
    expect(bare.message).toMatch(/^10\.0\.0\.7 is a private address; /);
    const none = await resolveCallbackTarget(new URL('http://shop.example/hook'), { allowPrivate: false, lookup: async () => [] }).catch((e) => e);
    expect(none.message).toBe('cannot resolve shop.example: no addresses');
  });
});
