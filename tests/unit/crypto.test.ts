import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFingerprinter, createSealer, loadMasterKey, newId, newMasterKey, newUrlToken, writeMasterKeyFile } from '../../src/crypto.ts';

describe('crypto', () => {
  it('seals with AES-256-GCM so that the plaintext is not in the output and tampering is detected', () => {
    const sealer = createSealer(randomBytes(32), 'test');
    const sealed = sealer.seal('a JWT secret');
    expect(sealed).not.toContain('a JWT secret');
    expect(sealer.open(sealed)).toBe('a JWT secret');
    expect(sealer.seal('a JWT secret')).not.toBe(sealed);
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => sealer.open(parts.join('.'))).toThrow();
  });

  it('derives a separate key per purpose', () => {
    const master = randomBytes(32);
    const sealed = createSealer(master, 'one').seal('x');
    expect(() => createSealer(master, 'two').open(sealed)).toThrow();
    expect(createFingerprinter(master, 'fp')('4242')).toBe(createFingerprinter(master, 'fp')('4242'));
    expect(createFingerprinter(master, 'fp')('4242')).not.toBe(createFingerprinter(randomBytes(32), 'fp')('4242'));
  });

  it('reads the master key from the environment, else the key file, and never makes one itself', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paylink-key-'));
    expect(loadMasterKey({ dataDir: dir })).toBeUndefined();
    expect(existsSync(join(dir, 'master.key'))).toBe(false);
    const key = newMasterKey();
    writeMasterKeyFile(key, dir);
    expect(statSync(join(dir, 'master.key')).mode & 0o777).toBe(0o600);
    const fromFile = loadMasterKey({ dataDir: dir })!;
    expect(fromFile.source).toBe('file');
    expect(fromFile.key.equals(key)).toBe(true);
    expect(() => writeMasterKeyFile(newMasterKey(), dir)).toThrow();
    const fromEnv = loadMasterKey({ dataDir: dir, masterKey: randomBytes(32).toString('base64') })!;
    expect(fromEnv.source).toBe('env');
  });

  it('makes prefixed ids with 128 random bits', () => {
    expect(newId('txn')).toMatch(/^txn_[0-9a-f]{32}$/);
    expect(newId('txn')).not.toBe(newId('txn'));
  });

  it('hands out each random byte once, across many refills of its 4 KB pool', () => {
    // 1,000 tokens of 32 bytes and ids of 16 take the pool through about twelve refills.
    const tokens = Array.from({ length: 1_000 }, () => newUrlToken());
    const ids = Array.from({ length: 1_000 }, () => newId('x'));
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set(tokens).size).toBe(1_000);
    expect(new Set(ids).size).toBe(1_000);
    // No token shares a 16-byte half with an id or another token (a reused slice of the pool would).
    const halves = new Set<string>();
    for (const token of tokens) {
      const bytes = Buffer.from(token, 'base64url');
      halves.add(bytes.subarray(0, 16).toString('hex'));
      halves.add(bytes.subarray(16).toString('hex'));
    }
    for (const id of ids) halves.add(id.slice(2));
    expect(halves.size).toBe(3_000);
  });
});
