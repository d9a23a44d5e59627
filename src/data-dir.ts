import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Everything under PAYLINK_DATA_DIR is private to the user paylink runs as: the embedded
 * database (its WAL holds customer e-mail addresses), the master key, demo credentials, generated
 * webhook secrets and `.eml` mail. Called once at start, before the database opens:
 *   - the process umask becomes 077, so every file and directory created from then on (by
 *     paylink or by PGlite) is 0600 / 0700;
 *   - a directory left by an earlier version or another umask is brought into line (makeTreePrivate).
 */
export function makeDataDirPrivate(dataDir: string): void {
  process.umask(0o077);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  makeTreePrivate(dataDir);
}

/**
 * Files 0600 and directories 0700 under `root` (symbolic links are left alone, not followed).
 * PGlite sets some modes itself (the files its initdb lays down are 0666 whatever the umask), so
 * the embedded database runs this over its directory again once it has opened and migrated.
 */
export function makeTreePrivate(root: string): void {
  const pending = [root];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    chmodSync(dir, 0o700);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else if (entry.isFile() && (lstatSync(path).mode & 0o777) !== 0o600) chmodSync(path, 0o600);
    }
  }
}
