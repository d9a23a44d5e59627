import { randomBytes } from 'node:crypto';

/**
 * Console passwords (PCI DSS 4.0 8.3.6; NIST SP 800-63B 5.1.1.2): long rather than "complex",
 * checked against a list of passwords known from breaches, hashed with Argon2id.
 */
export const PASSWORD_MIN_LENGTH = 12;
/** Argon2 takes any length; the cap only keeps one request from hashing megabytes. */
export const PASSWORD_MAX_LENGTH = 256;
/** A password made of fewer different characters than this is a pattern, not a secret. */
export const PASSWORD_MIN_DISTINCT_CHARACTERS = 5;
/** A common password this long or longer is refused also with digits or symbols around it. */
const PADDED_COMMON_MIN_LENGTH = 6;

/**
 * The 49,000 most common passwords from breach corpora, as the maintained zxcvbn-ts project
 * ships them (@zxcvbn-ts/language-common), lower-cased. Loaded the first time a password is
 * checked: the dictionaries take memory that most processes never need (docs/deploy.md).
 */
let commonPasswords: Promise<Set<string>> | undefined;
const loadCommonPasswords = () =>
  (commonPasswords ??= import('@zxcvbn-ts/language-common').then(({ dictionary }) => new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()))));

/** Why `password` cannot be used (empty: it can). `email` is the account's address. */
export async function passwordProblems(password: string, email?: string): Promise<string[]> {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return [`must be at least ${PASSWORD_MIN_LENGTH} characters long`];
  if (length > PASSWORD_MAX_LENGTH) return [`must be at most ${PASSWORD_MAX_LENGTH} characters long`];
  const common = await loadCommonPasswords();
  const lower = password.toLowerCase();
  if (common.has(lower)) return ['is one of the most common passwords and would be guessed first; choose another'];
  const core = lower.replace(/^[\d\W_]+|[\d\W_]+$/g, '');
  if (core.length >= PADDED_COMMON_MIN_LENGTH && common.has(core)) {
    return ['is a common password with digits or symbols added, which attackers try early; choose another'];
  }
  if (new Set(password).size < PASSWORD_MIN_DISTINCT_CHARACTERS) return [`must use at least ${PASSWORD_MIN_DISTINCT_CHARACTERS} different characters`];
  const local = email?.split('@')[0]?.toLowerCase();
  if (local && local.length >= 4 && lower.includes(local)) return ['must not contain your e-mail address'];
  return [];
}

/**
 * Argon2id with OWASP's first recommended configuration (Password Storage Cheat Sheet): 19 MiB
 * of memory, 2 iterations, 1 lane; a 16-byte random salt; stored as a PHC string
 * (`$argon2id$v=19$m=19456,t=2,p=1$…`), so stronger parameters later still verify old hashes.
 */
export const ARGON2_PARAMETERS = { memorySize: 19_456, iterations: 2, parallelism: 1, hashLength: 32 } as const;

/** Argon2 (WebAssembly) is loaded on the first sign-in or password change, not at start. */
const argon2 = () => import('hash-wasm');

export async function hashPassword(password: string): Promise<string> {
  const { argon2id } = await argon2();
  return argon2id({ password, salt: randomBytes(16), ...ARGON2_PARAMETERS, outputType: 'encoded' });
}

/** True when `password` matches the PHC string `hash`; false for a malformed hash. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const { argon2Verify } = await argon2();
  try {
    return await argon2Verify({ password, hash });
  } catch {
    return false;
  }
}

/** A PHC Argon2id string, as a seed's `password_hash` must be. */
export const isArgon2idHash = (value: string) => /^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/.test(value);

/** Verifying against this costs as much as a real check, so an unknown e-mail takes as long as a wrong password. */
let dummyHash: Promise<string> | undefined;
export const timingDummyHash = () => (dummyHash ??= hashPassword(randomBytes(18).toString('base64')));

/** A strong generated password (the demo owner's): 24 characters from 144 random bits. */
export const generatePassword = () => randomBytes(18).toString('base64url');
