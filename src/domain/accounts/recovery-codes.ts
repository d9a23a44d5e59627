import { createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * TOTP recovery codes: ten single-use codes, each accepted once at sign-in's second step instead
 * of a code from the authenticator app (a lost phone). A code is 10 characters of Crockford's
 * base32 (50 random bits), shown as `xxxxx-xxxxx`; typing is forgiving (any case, spaces or
 * dashes, `o` for zero, `i`/`l` for one).
 *
 * Stored only as HMAC-SHA256 under a key derived (HKDF) from the user's own TOTP secret, which is
 * sealed at rest under the master key. Why not Argon2 as passwords: a code is random, not chosen,
 * so a slow hash adds nothing a secret key does not, while a stored hash that is a deterministic
 * function of the code lets one conditional UPDATE find and spend it (atomic, one statement)
 * instead of ten Argon2 checks per attempt. Why the TOTP secret and not a master-key-derived key:
 * the TOTP secret's plaintext survives a master-key rotation (it is re-sealed), so the codes do
 * too; and whoever can open the TOTP secret holds the second factor already, so the codes are
 * never weaker than what they stand in for. A database copy without the master key reveals
 * neither. New secret (TOTP turned off and on, or reset), new codes.
 */
export const RECOVERY_CODE_COUNT = 10;
export const RECOVERY_CODE_LENGTH = 10;
/** Crockford's base32, lower-case: no i, l, o or u to misread. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const HALF = RECOVERY_CODE_LENGTH / 2;

/** New codes as shown to the user (`xxxxx-xxxxx`). 256 is a multiple of 32, so `byte & 31` is uniform. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  const codes = new Set<string>();
  while (codes.size < count) {
    const chars = [...randomBytes(RECOVERY_CODE_LENGTH)].map((b) => ALPHABET[b & 31]).join('');
    codes.add(`${chars.slice(0, HALF)}-${chars.slice(HALF)}`);
  }
  return [...codes];
}

/** The code as typed, in its canonical form, or undefined when it cannot be a recovery code. */
export function normaliseRecoveryCode(typed: string): string | undefined {
  if (typed.length > 40) return undefined;
  const canonical = typed
    .toLowerCase()
    .replace(/[\s-]+/g, '')
    .replace(/o/g, '0')
    .replace(/[il]/g, '1');
  return canonical.length === RECOVERY_CODE_LENGTH && [...canonical].every((c) => ALPHABET.includes(c)) ? canonical : undefined;
}

/** Whether what was typed at the second step is meant as a recovery code (anything but digits alone is). */
export const looksLikeRecoveryCode = (typed: string) => !/^[\d\s]*$/.test(typed);

/** The stored form of a code: HMAC-SHA256 (base64url) under a key derived from the user's TOTP secret and id. */
export function recoveryCodeHasher(totpSecret: string, userId: string): (code: string) => string | undefined {
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(totpSecret, 'utf8'), Buffer.from(userId, 'utf8'), 'paylink/recovery-codes', 32));
  return (code) => {
    const canonical = normaliseRecoveryCode(code);
    return canonical === undefined ? undefined : createHmac('sha256', key).update(canonical).digest('base64url');
  };
}

/** The .txt the user downloads: the codes, one a line, with what they are for. */
export function recoveryCodesText(codes: string[], account: string, issuedAt: Date): string {
  return [
    `paylink console recovery codes for ${account}`,
    `Made ${issuedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC. Each code works once, instead of a code from your authenticator app.`,
    'Keep them somewhere safe, apart from your password.',
    '',
    ...codes,
    '',
  ].join('\n');
}
