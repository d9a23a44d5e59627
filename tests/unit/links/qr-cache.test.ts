import { describe, expect, it } from 'vitest';
import { QrCache } from '../../../src/domain/links/qr.ts';

const image = (bytes: number) => ({ body: new Uint8Array(bytes), etag: `"${bytes}"` });

describe('QrCache', () => {
  it('keeps drawings up to its byte limit, dropping the least recently used first', () => {
    const cache = new QrCache(100);
    cache.keep('a', image(40));
    cache.keep('b', image(40));
    expect(cache.find('a')).toBeDefined(); // a is now the most recently used
    cache.keep('c', image(40));
    expect(cache.find('b')).toBeUndefined();
    expect(cache.find('a')).toBeDefined();
    expect(cache.find('c')).toBeDefined();
    expect(cache.bytes).toBe(80);
  });

  it('counts a replaced drawing once, and never keeps one larger than the whole cache', () => {
    const cache = new QrCache(100);
    cache.keep('a', image(30));
    cache.keep('a', image(50));
    expect(cache.bytes).toBe(50);
    expect(cache.size).toBe(1);
    cache.keep('huge', image(101));
    expect(cache.find('huge')).toBeUndefined();
    expect(cache.bytes).toBe(50);
  });
});
