import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.ts';
import { newApiToken, newJwtSecret, parseOverlap, ROTATION_OVERLAPS } from '../../../src/domain/integrators/credentials.ts';

describe('credentials › rotation overlap', () => {
  it('offers none, 1 hour, 24 hours and 7 days, in seconds', () => {
    expect(Object.fromEntries(Object.entries(ROTATION_OVERLAPS).map(([k, v]) => [k, v.seconds]))).toEqual({
      none: 0,
      '1h': 3600,
      '24h': 86_400,
      '7d': 604_800,
    });
  });

  it('reads an offered overlap and refuses anything else with the list of choices', () => {
    expect(parseOverlap('7d')).toBe('7d');
    for (const bad of ['', '30d', 'toString', '__proto__', '1H']) {
      try {
        parseOverlap(bad);
        expect.unreachable(`${bad} was accepted`);
      } catch (error) {
        expect(error).toBeInstanceOf(DomainError);
        expect((error as DomainError).messages).toEqual({ overlap: ['must be one of none, 1h, 24h, 7d'] });
      }
    }
  });
});

describe('credentials › new values', () => {
  it('makes 256-bit tokens and secrets, different every time', () => {
    const tokens = new Set(Array.from({ length: 50 }, newApiToken));
    expect(tokens.size).toBe(50);
    for (const t of tokens) expect(t).toMatch(/^pl_[A-Za-z0-9_-]{43}$/);
    expect(newJwtSecret()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.byteLength(newJwtSecret())).toBeGreaterThanOrEqual(32); // the seed's minimum for `secret`
  });
});
