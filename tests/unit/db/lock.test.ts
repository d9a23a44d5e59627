import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError } from '../../../src/db/lock.ts';

describe('data-dir lock', () => {
  it('refuses a second holder while the first lives, and frees on release', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paylink-lock-'));
    const lock = acquireDataDirLock(dir);
    // Same process: a second acquire must refuse (it is what a second paylink process would see).
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    expect(() => acquireDataDirLock(dir)).toThrow(/in use by another paylink process \(pid \d+\)/);
    lock.release();
    acquireDataDirLock(dir).release();
  });

  it('takes over a lock left by a process that no longer exists (kill -9)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paylink-lock-'));
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    writeFileSync(join(dir, 'paylink.lock'), `${dead}\n${hostname()}\n`);
    const lock = acquireDataDirLock(dir);
    lock.release();
  });
});
