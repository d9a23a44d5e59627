import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { loadMasterKey } from '../crypto.ts';
import { openDatabase } from './client.ts';
import { acquireDataDirLock } from './lock.ts';
import { keyCheckOf } from './master-key.ts';
import { pgliteArchiveFiles, pgliteDataDirIsNew, unpackPgliteTemplateDurably } from './pglite.ts';
import { masterKeyCheck } from './schema.ts';

/**
 * Backups of the embedded database (`npm run admin -- backup FILE` / `restore FILE`). A backup is
 * the data directory as PGlite's dumpDataDir writes it (a gzipped tar), taken by the process that
 * holds the database (src/http/backup-socket.ts) or, when none runs, by the admin command itself.
 * It holds no master key: the sealed secrets in it need the key kept beside it (docs/deploy.md).
 */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

/** The embedded database's own directory inside PAYLINK_DATA_DIR. */
export const pgliteDirOf = (dataDir: string) => join(dataDir, 'pglite');

/** Refuses an existing file unless `replace`: a backup never overwrites another by accident. */
export function checkBackupTarget(path: string, replace: boolean): void {
  if (existsSync(path) && !replace) throw new BackupError(`${path} already exists; give another file name, or --force to replace it.`);
  if (!existsSync(dirname(path))) throw new BackupError(`the directory ${dirname(path)} does not exist.`);
}

/** Writes the backup 0600 beside its name, flushed, then renamed into place: never a half file under the name. */
export function writeBackupFile(path: string, bytes: Buffer): void {
  const partial = `${path}.partial-${process.pid}`;
  const fd = openSync(partial, 'w', 0o600);
  try {
    writeSync(fd, bytes);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(partial, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(partial, path);
  const dir = openSync(dirname(path), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

export interface RestoreResult {
  /** Where the database that was there went, when `replace` moved one aside. */
  movedAside?: string;
  payments: number;
  integrators: number;
  /** Whether the master key this process would start with opens the restored database's secrets. */
  masterKey: 'matches' | 'differs' | 'missing' | 'not_needed';
}

/**
 * Brings a backup back into PAYLINK_DATA_DIR: only into a data directory with no database, unless
 * `replace`, which moves the one there aside (never deletes it). The data directory's lock is held
 * throughout, so a running paylink is never restored under. The restored database is then opened
 * once (PostgreSQL's recovery runs) and counted, and the master key checked against it.
 */
export async function restoreBackup(file: string, dataDir: string, opts: { replace: boolean; masterKey?: string }): Promise<RestoreResult> {
  if (!existsSync(file)) throw new BackupError(`${file} does not exist.`);
  let files: string[];
  try {
    files = pgliteArchiveFiles(file);
  } catch (error) {
    throw new BackupError(`${file} is not a paylink backup (${(error as Error).message}).`);
  }
  if (!files.includes('PG_VERSION') || !files.includes(join('global', 'pg_control')))
    throw new BackupError(`${file} is not a paylink backup: it holds no PostgreSQL data directory.`);

  const dir = pgliteDirOf(dataDir);
  let movedAside: string | undefined;
  const lock = acquireDataDirLock(dataDir);
  try {
    if (!pgliteDataDirIsNew(dir)) {
      if (!opts.replace)
        throw new BackupError(`${dir} already holds a database; restore into an empty PAYLINK_DATA_DIR, or add --force to move that database aside first.`);
      movedAside = `${dir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      renameSync(dir, movedAside);
    }
    await unpackPgliteTemplateDurably(file, dir);
  } finally {
    lock.release();
  }

  const database = await openDatabase({ dataDir });
  try {
    const count = async (table: string) => {
      const rows = (await database.db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as { rows: Array<{ n: number }> };
      return rows.rows[0]?.n ?? 0;
    };
    const [payments, integrators] = [await count('payments'), await count('integrators')];
    const [stored] = await database.db.select({ mac: masterKeyCheck.mac }).from(masterKeyCheck).where(eq(masterKeyCheck.id, 1));
    const key = loadMasterKey({ masterKey: opts.masterKey, dataDir });
    const masterKey = !stored ? 'not_needed' : !key ? 'missing' : keyCheckOf(key.key) === stored.mac ? 'matches' : 'differs';
    return { movedAside, payments, integrators, masterKey };
  } finally {
    await database.close();
  }
}
