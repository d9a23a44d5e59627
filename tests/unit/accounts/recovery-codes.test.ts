import { describe, expect, it } from 'vitest';
import {
  looksLikeRecoveryCode,
  newRecoveryCodes,
  normaliseRecoveryCode,
  RECOVERY_CODE_COUNT,
  recoveryCodeHasher,
  recoveryCodesText,
} from '../../../src/domain/accounts/recovery-codes.ts';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

describe('accounts › recovery codes', () => {
  it(`makes ${RECOVERY_CODE_COUNT} different codes of two blocks of 5 Crockford base32 characters`, () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/);
  });

  it('draws every character of the alphabet, evenly enough (no character missing in 10,000 codes)', () => {
    const seen = new Map<string, number>();
    for (const code of newRecoveryCodes(10_000)) for (const c of code.replace('-', '')) seen.set(c, (seen.get(c) ?? 0) + 1);
    expect(seen.size).toBe(32);
    // 100,000 characters over 32: about 3,125 each; a bias (e.g. modulo of a non-multiple) would push some far off.
    for (const n of seen.values()) expect(n).toBeGreaterThan(2_700);
  });

  it('reads a code as typed: any case, spaces or dashes, o for zero and i or l for one', () => {
    expect(normaliseRecoveryCode('7K3QD-X9M2A')).toBe('7k3qdx9m2a');
    expect(normaliseRecoveryCode(' 7k3qd x9m2a ')).toBe('7k3qdx9m2a');
    expect(normaliseRecoveryCode('7k3qdx9m2a')).toBe('7k3qdx9m2a');
    expect(normaliseRecoveryCode('oOiIl-L0000')).toBe('0011110000');
  });

  it('refuses what cannot be a code: wrong length, a u, other symbols, very long input', () => {
    for (const typed of ['', '7k3qd-x9m2', '7k3qd-x9m2ab', '7k3qd-x9m2u', '7k3qd_x9m2a', '7k3qd-x9m2!', `${'a'.repeat(10)}${' '.repeat(40)}`]) {
      expect(normaliseRecoveryCode(typed), typed).toBeUndefined();
    }
  });

  it('takes anything but digits alone at the second step for a recovery code', () => {
    expect(looksLikeRecoveryCode('123456')).toBe(false);
    expect(looksLikeRecoveryCode('123 456')).toBe(false);
    expect(looksLikeRecoveryCode('7k3qd-x9m2a')).toBe(true);
    expect(looksLikeRecoveryCode('12345-67890')).toBe(true);
  });

  it('hashes a code the same however it is typed, and differently for another user or TOTP secret', () => {
    const hash = recoveryCodeHasher(SECRET, 'usr_a');
    const stored = hash('7k3qd-x9m2a')!;
    expect(stored).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hash('7K3QD X9M2A')).toBe(stored);
    expect(stored).not.toContain('7k3qd');
    expect(recoveryCodeHasher(SECRET, 'usr_b')('7k3qd-x9m2a')).not.toBe(stored);
    expect(recoveryCodeHasher('KRUGS4ZANFZSAYJAORSXG5BAKNSWG4TF', 'usr_a')('7k3qd-x9m2a')).not.toBe(stored);
    expect(hash('not a code')).toBeUndefined();
  });

  it('words the download: the account, when it was made, then the codes one a line', () => {
    const text = recoveryCodesText(['aaaaa-bbbbb', 'ccccc-ddddd'], 'owner@acme.example', new Date('2026-03-02T09:05:00Z'));
    expect(text.split('\n')).toEqual([
      'paylink console recovery codes for owner@acme.example',
      'Made 2026-03-02 09:05 UTC. Each code works once, instead of a code from your authenticator app.',
      'Keep them somewhere safe, apart from your password.',
      '',
      'aaaaa-bbbbb',
      'ccccc-ddddd',
      '',
    ]);
  });
});
