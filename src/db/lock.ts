import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * PGlite has no lock of its own: two processes on one data directory lose writes. The process
 * that opens the embedded database holds `paylink.lock` (created with O_EXCL, holding its pid).
 * A lock left by a process that no longer exists (kill -9) is taken over at once.
 */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
  ) {
    super(
      `The data directory ${dataDir} is in use by another paylink process (pid ${holderPid}). ` +
        'Stop that process first, or start this one with a different PAYLINK_DATA_DIR (or DATABASE_URL).',
    );
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  path: string;
  release(): void;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function acquireDataDirLock(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'paylink.lock');
  const me = `${process.pid}\n${hostname()}\n`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, me);
      closeSync(fd);
      let released = false;
      return {
        path,
        release() {
          if (released) return;
          released = true;
          try {
            if (readFileSync(path, 'utf8') === me) unlinkSync(path);
          } catch {
            /* already gone */
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let holder = NaN;
      let holderHost = '';
      try {
        [holder, holderHost] = ((lines) => [Number(lines[0]), lines[1] ?? ''] as const)(readFileSync(path, 'utf8').split('\n'));
      } catch {
        continue; // removed between our open and read: try again
      }
      const sameHost = holderHost === '' || holderHost === hostname();
      if (Number.isInteger(holder) && holder > 0 && (!sameHost || processIsAlive(holder))) {
        throw new DataDirLockedError(dataDir, holder);
      }
      try {
        unlinkSync(path); // stale: its process is gone
      } catch {
        /* someone else removed it first */
      }
    }
  }
  throw new DataDirLockedError(dataDir, NaN);
}
