import { describe, expect, it } from 'vitest';
import { hasValidPathEncoding } from '../../../src/http/request-target.ts';

describe('request target › path encoding', () => {
  it('accepts what Astro can decode, escaped or not', () => {
    for (const path of ['/', '/pay/acme-books', '/pay/acme%2Dbooks', '/pay/%25ZZ', '/pay/%F0%9F%98%80', `/pay/%25${'25'.repeat(8)}41`])
      expect(hasValidPathEncoding(path), path).toBe(true);
  });

  it('refuses a "%" without two hex digits, bytes that are not UTF-8, and escapes nested more than ten deep', () => {
    for (const path of ['/%ZZ', '/pay/%', '/pay/%E0%A4%A', '/pay/%ED%A0%80', '/pay/%FF', `/pay/%25${'25'.repeat(9)}41`])
      expect(hasValidPathEncoding(path), path).toBe(false);
  });
});
