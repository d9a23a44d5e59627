import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  createSecretKey,
  hkdfSync,
  randomBytes,
  randomFillSync,
  randomUUID,
  timingSafeEqual,
} from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where a master key came from: PAYLINK_MASTER_KEY, the key file, or made now for an empty database. */
export type MasterKeySource = 'env' | 'file' | 'generated';

export const masterKeyFile = (dataDir: string) => join(dataDir, 'master.key');

/**
 * The master key protects secrets at rest; each use derives its own key with HKDF. Read from
 * PAYLINK_MASTER_KEY, else the key file; undefined when there is neither (the caller decides
 * whether a new one may be made: src/db/master-key.ts, only for an empty database).
 */
export function loadMasterKey(opts: { masterKey?: string; dataDir: string }): { key: Buffer; source: 'env' | 'file'; path?: string } | undefined {
  if (opts.masterKey) return { key: Buffer.from(opts.masterKey, 'base64'), source: 'env' };
  const path = masterKeyFile(opts.dataDir);
  if (!existsSync(path)) return undefined;
  const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${path} does not hold a 32-byte base64 key; restore it or set PAYLINK_MASTER_KEY`);
  return { key, source: 'file', path };
}

/** Writes a key file (0600) that must not exist yet; `path` defaults to the data directory's master.key. */
export function writeMasterKeyFile(key: Buffer, dataDir: string, path = masterKeyFile(dataDir)): string {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(path, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(path, 0o600);
  return path;
}

export const newMasterKey = () => randomBytes(32);

/** What each key derived from the master key is for (HKDF info `paylink/<purpose>`). */
export const keyPurposes = {
  /** Sealed integrator secrets, acquirer keys, TOTP secrets, console mail. */
  integratorSecrets: 'integrator-secrets',
  sandboxVault: 'sandbox-vault',
  cardFingerprint: 'card-fingerprint',
  /** CSRF tokens and fingerprints of seeded passwords. */
  console: 'console',
  staticSessionTicket: 'static-session-ticket',
  /** The signed links to a customer's subscriptions page (src/domain/subscriptions/access.ts). */
  subscriberPage: 'subscriber-page',
  /** The key check stored in the database (src/db/master-key.ts). */
  keyCheck: 'master-key-check',
} as const;

export interface Sealer {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

/** AES-256-GCM with a key derived for one purpose; output is `v1.<iv>.<tag>.<ciphertext>` (base64url). */
export function createSealer(masterKey: Buffer, purpose: string): Sealer {
  // A KeyObject made once, as for createMac: raw key bytes would be imported again by every cipher,
  // and the sandbox seals and opens on every scheduled charge.
  const key = createSecretKey(Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), `paylink/${purpose}`, 32)));
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
    },
    open(sealed) {
      const [version, iv, tag, ct] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || ct === undefined) throw new Error('sealed value has an unknown format');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/** Keyed fingerprint: equal inputs match without the input being recoverable. */
export function createFingerprinter(masterKey: Buffer, purpose: string): (value: string) => string {
  const key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), `paylink/${purpose}`, 32));
  return (value) => createHash('sha256').update(key).update(value).digest('base64url').slice(0, 32);
}

export interface Mac {
  /** HMAC-SHA256 of `data`, base64url (43 characters). */
  sign(data: string): string;
  /** Constant-time comparison of `mac` with the MAC of `data`. */
  verify(data: string, mac: string): boolean;
}

/** A message authentication code under a key derived for one purpose. */
export function createMac(masterKey: Buffer, purpose: string): Mac {
  // A KeyObject made once: createHmac with raw key bytes imports them again on every call (~4× slower).
  const key = createSecretKey(Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), `paylink/${purpose}`, 32)));
  const sign = (data: string) => createHmac('sha256', key).update(data).digest();
  return {
    sign: (data) => sign(data).toString('base64url'),
    verify(data, mac) {
      const given = Buffer.from(mac, 'base64url');
      const expected = sign(data);
      // base64url decoding ignores unused trailing bits: compare the canonical spelling too.
      return given.length === expected.length && timingSafeEqual(given, expected) && given.toString('base64url') === mac;
    },
  };
}

export const sha256Hex = (value: string | Buffer) => createHash('sha256').update(value).digest('hex');

/**
 * Random bytes from the CSPRNG (OpenSSL's, as randomBytes), drawn 4 KB at a time as Node's own
 * randomUUID does: one call per 128 tokens instead of one per token, which showed in the profile of
 * a payment page (every view gets a fresh ticket). Each byte is handed out once; `size` divides 4096.
 */
const POOL_SIZE = 4096;
const pool = Buffer.alloc(POOL_SIZE);
let poolOffset = POOL_SIZE;
function random(size: 16 | 32): Buffer {
  if (poolOffset + size > POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = pool.subarray(poolOffset, poolOffset + size);
  poolOffset += size;
  return bytes;
}

/** Readable prefixed id (`txn_…`) with 128 bits of randomness. */
export const newId = (prefix: string) => `${prefix}_${random(16).toString('hex')}`;
/** An unguessable URL token (256 bits). */
export const newUrlToken = () => random(32).toString('base64url');
export const newUuid = () => randomUUID();
