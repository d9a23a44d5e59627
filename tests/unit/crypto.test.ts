import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFingerprinter, createSealer, loadMasterKey, newId } from '../../src/crypto.ts';

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

  it('generates the master key once into the data dir with mode 0600', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paylink-key-'));
    const first = loadMasterKey({ dataDir: dir });
    expect(first.source).toBe('generated');
    expect(statSync(join(dir, 'master.key')).mode & 0o777).toBe(0o600);
    const second = loadMasterKey({ dataDir: dir });
    expect(second.source).toBe('file');
    expect(second.key.equals(first.key)).toBe(true);
    expect(readFileSync(join(dir, 'master.key'), 'utf8').trim()).toBe(first.key.toString('base64'));
    const fromEnv = loadMasterKey({ dataDir: dir, masterKey: randomBytes(32).toString('base64') });
    expect(fromEnv.source).toBe('env');
  });

  it('makes prefixed ids with 128 random bits', () => {
    expect(newId('txn')).toMatch(/^txn_[0-9a-f]{32}$/);
    expect(newId('txn')).not.toBe(newId('txn'));
  });
});
