import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { httpUrlSchema } from '../../../src/schemas/callback.ts';
import { issuesToMessages } from '../../../src/schemas/parse.ts';
import { findUnstorableText, isStorableText } from '../../../src/schemas/text.ts';

describe('messages', () => {
  it('reports an unknown key named like a built-in property as that key, without touching any prototype', () => {
    const body = JSON.parse('{"toString":1,"constructor":2,"__proto__":{"polluted":true},"hasOwnProperty":3}');
    const parsed = z.object({ a: z.string().optional() }).strict().safeParse(body);
    const messages = issuesToMessages(parsed.error!.issues);
    expect(Object.keys(messages).sort()).toEqual(['__proto__', 'constructor', 'hasOwnProperty', 'toString']);
    expect(Object.getOwnPropertyDescriptor(JSON.parse(JSON.stringify(messages)), '__proto__')?.value).toEqual(['is not a recognised field']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('storable text', () => {
  it('refuses NUL and unpaired surrogates, and accepts every well-formed string', () => {
    for (const bad of ['a\u0000b', '\ud800', 'x\udc00', '\udc00\ud800', 'ok \ud83d']) expect(isStorableText(bad), JSON.stringify(bad)).toBe(false);
    for (const good of ['', 'plain', 'emoji 😀 ok', 'Ñandú', '\u2028', '\uffff']) expect(isStorableText(good), good).toBe(true);
  });

  it('names the first field with bad text, in values, arrays and keys, however deep', () => {
    expect(findUnstorableText({ a: { b: ['ok', 'x\u0000'] } })).toBe('a.b.1');
    expect(findUnstorableText({ a: { 'bad\ud800': 1 } })).toBe('a');
    expect(findUnstorableText({ ok: 'fine', n: 1, t: true, z: null })).toBeUndefined();
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 50_000; i++) deep = [deep];
    expect(findUnstorableText({ deep })).toMatch(/^deep(\.0)+$/);
  });
});

describe('http URLs', () => {
  it('refuses what new URL() refuses instead of throwing later', () => {
    for (const bad of [
      'not a url',
      'http://a:99999/',
      'http://256.256.256.256/',
      'http://[fe80::1%25eth0]/',
      'ftp://x/',
      'http://u:p@x/',
      'javascript:alert(1)',
    ])
      expect(httpUrlSchema.safeParse(bad).success, bad).toBe(false);
    for (const good of ['https://hooks.example.com/paylink?x=1', 'http://[2001:db8::1]:8443/h', ' https://example.com '])
      expect(httpUrlSchema.safeParse(good).success, good).toBe(true);
  });
});
