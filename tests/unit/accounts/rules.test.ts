import { describe, expect, it } from 'vitest';
import { PASSWORD_MIN_LENGTH, passwordProblems } from '../../../src/domain/accounts/passwords.ts';
import { afterFailedSignIn, isLocked, sessionState } from '../../../src/domain/accounts/rules.ts';
import { newTotpSecret, totpCode, verifyTotp } from '../../../src/domain/accounts/totp.ts';

const at = (iso: string) => new Date(iso);
const settings = { lockoutAttempts: 10, lockoutMinutes: 30, idleMinutes: 15 };

describe('accounts › passwords', () => {
  it(`refuses a password shorter than ${PASSWORD_MIN_LENGTH} characters (counted as characters, not bytes)`, async () => {
    expect(await passwordProblems('eleven char')).toEqual(['must be at least 12 characters long']);
    expect(await passwordProblems('ñandú ñandú ñ')).toEqual([]);
  });

  it('refuses the most common passwords, also with digits or symbols around them', async () => {
    for (const p of ['password1234', 'qwerty123456', '1q2w3e4r5t6y', 'QWERTY123456'])
      expect((await passwordProblems(p))[0], p).toMatch(/most common passwords/);
    expect((await passwordProblems('!!sunshine2024!!'))[0]).toMatch(/common password with digits or symbols added/);
  });

  it('refuses a pattern of few characters and a password containing the e-mail name', async () => {
    expect(await passwordProblems('abababababab')).toEqual(['must use at least 5 different characters']);
    expect(await passwordProblems('maria.santos rocks', 'maria.santos@example.com')).toEqual(['must not contain your e-mail address']);
  });

  it('accepts a long passphrase', async () => {
    expect(await passwordProblems('blue harbour lantern 7', 'ana@example.com')).toEqual([]);
  });
});

describe('accounts › lockout', () => {
  const now = at('2026-03-02T09:00:00Z');

  it('counts failures in a row and locks at the threshold for the lockout duration', () => {
    expect(afterFailedSignIn({ failedSignIns: 8, lockedUntil: null }, settings, now)).toEqual({ failedSignIns: 9, lockedUntil: null, lockedNow: false });
    const locked = afterFailedSignIn({ failedSignIns: 9, lockedUntil: null }, settings, now);
    expect(locked).toEqual({ failedSignIns: 10, lockedUntil: at('2026-03-02T09:30:00Z'), lockedNow: true });
    expect(isLocked(locked, at('2026-03-02T09:29:59Z'))).toBe(true);
    expect(isLocked(locked, at('2026-03-02T09:30:00Z'))).toBe(false);
  });

  it('starts counting again once a lock has run out (one more failure does not lock again at once)', () => {
    const after = afterFailedSignIn({ failedSignIns: 10, lockedUntil: at('2026-03-02T08:59:00Z') }, settings, now);
    expect(after).toEqual({ failedSignIns: 1, lockedUntil: null, lockedNow: false });
  });
});

describe('accounts › sessions', () => {
  const session = { lastSeenAt: at('2026-03-02T09:00:00Z'), expiresAt: at('2026-03-02T21:00:00Z') };

  it('is active until 15 idle minutes have passed, then idle', () => {
    expect(sessionState(session, settings, at('2026-03-02T09:14:59Z'))).toBe('active');
    expect(sessionState(session, settings, at('2026-03-02T09:15:00Z'))).toBe('idle');
  });

  it('is expired at its absolute end however recently it was used', () => {
    expect(sessionState({ ...session, lastSeenAt: at('2026-03-02T20:59:00Z') }, settings, at('2026-03-02T21:00:00Z'))).toBe('expired');
  });
});

describe('accounts › TOTP', () => {
  const secret = newTotpSecret();
  const now = at('2026-03-02T09:00:10Z');

  it('accepts the current code and one step either side, never a code from its step or earlier again', () => {
    const step = verifyTotp(secret, totpCode(secret, now), now, null)!;
    expect(step).toBe(Math.floor(now.getTime() / 30_000));
    expect(verifyTotp(secret, totpCode(secret, new Date(now.getTime() - 30_000)), now, null)).toBe(step - 1);
    expect(verifyTotp(secret, totpCode(secret, new Date(now.getTime() + 30_000)), now, null)).toBe(step + 1);
    expect(verifyTotp(secret, totpCode(secret, new Date(now.getTime() - 90_000)), now, null)).toBeUndefined();
    expect(verifyTotp(secret, totpCode(secret, now), now, step)).toBeUndefined();
    expect(verifyTotp(secret, totpCode(secret, new Date(now.getTime() - 30_000)), now, step)).toBeUndefined();
  });

  it('refuses anything but 6 digits', () => {
    expect(verifyTotp(secret, 'abcdef', now, null)).toBeUndefined();
    expect(verifyTotp(secret, '1234567', now, null)).toBeUndefined();
  });
});
