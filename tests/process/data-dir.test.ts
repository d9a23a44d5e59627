import { randomBytes } from 'node:crypto';
import { chmodSync, lstatSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startPaylink } from '../support/process.ts';

/**
 * Everything paylink (and the embedded database) writes under PAYLINK_DATA_DIR is private:
 * files 0600, directories 0700, on a fresh directory and on one left with looser modes.
 */
function modes(dir: string): { path: string; mode: string; kind: 'file' | 'dir' }[] {
  const out: { path: string; mode: string; kind: 'file' | 'dir' }[] = [];
  const walk = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    out.push({ path: path.slice(dir.length) || '/', mode: (stat.mode & 0o777).toString(8), kind: stat.isDirectory() ? 'dir' : 'file' });
    if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
  return out;
}
const loose = (dir: string) => modes(dir).filter((e) => e.mode !== (e.kind === 'dir' ? '700' : '600'));

/** One deployment's key: a data directory started again keeps the key its secrets are sealed with. */
const masterKey = randomBytes(32).toString('base64');

async function runOnce(dataDir: string, during?: (url: string) => Promise<void>) {
  const p = startPaylink({ PAYLINK_DATA_DIR: dataDir, PAYLINK_MASTER_KEY: masterKey });
  const url = await p.ready;
  try {
    // Some work, so the database writes its log and data files.
    for (let i = 0; i < 5; i++) await fetch(`${url}/pay/demo`);
    await during?.(url);
  } finally {
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  }
}

describe('data directory', () => {
  it('is private from a fresh start: every file 0600 and every directory 0700, the database’s too', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'paylink-perm-')), 'data');
    await runOnce(dataDir, async () => {
      expect(loose(dataDir)).toEqual([]);
    });
    const entries = modes(dataDir);
    expect(entries.filter((e) => e.path.startsWith('/pglite/')).length).toBeGreaterThan(100);
    expect(entries.map((e) => e.path)).toEqual(expect.arrayContaining(['/demo-credentials.json', '/pglite']));
    expect(loose(dataDir)).toEqual([]);
  });

  it('makes an existing directory with readable files private at start, and keeps new files private', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'paylink-perm-'));
    await runOnce(dataDir);
    // As an earlier version (or a umask of 000) left it.
    for (const entry of modes(dataDir)) chmodSync(join(dataDir, entry.path), entry.kind === 'dir' ? 0o777 : 0o666);
    writeFileSync(join(dataDir, 'notes.txt'), 'left here by hand\n', { mode: 0o644 });
    chmodSync(join(dataDir, 'notes.txt'), 0o644);
    expect(loose(dataDir).length).toBeGreaterThan(100);
    await runOnce(dataDir, async () => {
      expect(loose(dataDir)).toEqual([]);
    });
    expect(loose(dataDir)).toEqual([]);
  });
});
