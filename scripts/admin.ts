// `npm run admin -- COMMAND`: operator commands run against the configured database (the same
// environment as `npm start`: PAYLINK_DATA_DIR, DATABASE_URL, PAYLINK_MASTER_KEY, PAYLINK_SEED).
//   rotate-master-key   every paylink process stopped first (docs/deploy.md, "Master key rotation")
//   backup FILE         the embedded database, from the running paylink or with it stopped
//   restore FILE        into a PAYLINK_DATA_DIR with no database (--force moves one aside)
import { readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfigOrFail } from '../src/config.ts';
import { loadMasterKey, masterKeyFile, newMasterKey, writeMasterKeyFile } from '../src/crypto.ts';
import { makeDataDirPrivate } from '../src/data-dir.ts';
import { BackupError, checkBackupTarget, pgliteDirOf, restoreBackup, writeBackupFile } from '../src/db/backup.ts';
import { type Database, openDatabase } from '../src/db/client.ts';
import { DataDirLockedError } from '../src/db/lock.ts';
import { MasterKeyError, rotateMasterKey } from '../src/db/master-key.ts';
import { pgliteDataDirIsNew } from '../src/db/pglite.ts';
import { backupSocketPath, requestBackup } from '../src/http/backup-socket.ts';
import { seedSchema } from '../src/schemas/provisioning.ts';

const usage = [
  'usage: npm run admin -- COMMAND',
  '  rotate-master-key       new key: PAYLINK_NEW_MASTER_KEY, or generated into the key file',
  '  backup FILE [--force]   a consistent copy of the embedded database (paylink may be running)',
  '  restore FILE [--force]  into a PAYLINK_DATA_DIR with no database (--force moves one aside)',
].join('\n');

function fail(message: string): never {
  process.stderr.write(`admin: ${message}\n`);
  process.exit(1);
}

/** The seed's console passwords, so their fingerprints follow the key (src/db/master-key.ts). */
function seededPasswords(seedPath: string | undefined): string[] {
  if (!seedPath) return [];
  const parsed = seedSchema.safeParse(JSON.parse(readFileSync(seedPath, 'utf8')));
  if (!parsed.success) fail(`PAYLINK_SEED ${seedPath} is invalid; fix it (npm start names the fields) before rotating`);
  return parsed.data.integrators.flatMap((i) => i.users.map((u) => u.password ?? u.password_hash ?? '')).filter(Boolean);
}

async function rotate() {
  const config = loadConfigOrFail(fail);
  const current = loadMasterKey({ masterKey: config.masterKey, dataDir: config.dataDir });
  if (!current) fail(`no master key: set PAYLINK_MASTER_KEY, or run where ${masterKeyFile(config.dataDir)} is`);
  const given = process.env.PAYLINK_NEW_MASTER_KEY;
  if (given !== undefined && Buffer.from(given, 'base64').length !== 32)
    fail('PAYLINK_NEW_MASTER_KEY must be 32 bytes, base64-encoded (openssl rand -base64 32)');
  if (given === undefined && current.source === 'env')
    fail('the key in use comes from PAYLINK_MASTER_KEY: give the new one in PAYLINK_NEW_MASTER_KEY (openssl rand -base64 32)');
  const newKey = given !== undefined ? Buffer.from(given, 'base64') : newMasterKey();
  const passwords = seededPasswords(config.seedPath);

  // The key file's successor is on disk before the database changes, so a failure between the two
  // never leaves a database sealed under a key that exists nowhere.
  const nextPath = current.source === 'file' ? `${masterKeyFile(config.dataDir)}.new` : undefined;
  if (nextPath) {
    rmSync(nextPath, { force: true });
    writeMasterKeyFile(newKey, config.dataDir, nextPath);
  }
  let database: Database;
  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  } catch (error) {
    if (nextPath) rmSync(nextPath, { force: true });
    if (error instanceof DataDirLockedError) fail(`${error.message} Stop paylink before rotating the master key.`);
    throw error;
  }
  let counts: Awaited<ReturnType<typeof rotateMasterKey>>;
  try {
    await database.migrate();
    counts = await rotateMasterKey(database.db, current.key, newKey, { seededPasswords: passwords });
  } catch (error) {
    if (nextPath) rmSync(nextPath, { force: true });
    if (error instanceof MasterKeyError) fail(error.message);
    throw error;
  } finally {
    await database.close();
  }
  if (nextPath) {
    const path = masterKeyFile(config.dataDir);
    renameSync(path, `${path}.previous`);
    renameSync(nextPath, path);
  }
  const lines = [
    'master key rotated: every sealed secret is now under the new key (one transaction).',
    `  integrators: ${counts.integratorSecrets}, acquirer settings: ${counts.acquirerSecrets}, TOTP secrets: ${counts.totpSecrets}, console mail: ${counts.consoleMail}`,
    `  sandbox vault cards: ${counts.vaultCards} (card fingerprints updated: ${counts.fingerprints}), seeded password fingerprints: ${counts.seededPasswords}`,
    nextPath
      ? `  the new key is in ${masterKeyFile(config.dataDir)}; the old one in ${masterKeyFile(config.dataDir)}.previous (delete it once backups no longer need it)`
      : '  set PAYLINK_MASTER_KEY to the value of PAYLINK_NEW_MASTER_KEY for every process before starting them',
    '  start paylink again: a process with the old key now refuses to start.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** What else a backup needs: the master key is never in it (docs/deploy.md, "Backups"). */
function keyNote(masterKey: string | undefined, dataDir: string): string {
  return masterKey
    ? '  keep PAYLINK_MASTER_KEY with it (in your secret store, not next to the backup): the sealed secrets in it (API and webhook secrets, TOTP, acquirer keys, vaulted cards) open only with that key, and paylink refuses to start on it without the key'
    : `  keep the master key ${masterKeyFile(dataDir)} with it (apart from the backup): the sealed secrets in it (API and webhook secrets, TOTP, acquirer keys, vaulted cards) open only with that key, and paylink refuses to start on it without the key`;
}

const postgresBackup =
  'with PostgreSQL (DATABASE_URL), back up with pg_dump and restore with pg_restore: docs/deploy.md, "Backups", gives the commands (keep PAYLINK_MASTER_KEY with them)';

async function backup(file: string | undefined, replace: boolean) {
  if (!file) fail('usage: npm run admin -- backup FILE [--force]');
  const config = loadConfigOrFail(fail);
  if (config.databaseUrl) fail(postgresBackup);
  const path = resolve(file);
  try {
    checkBackupTarget(path, replace);
  } catch (error) {
    if (error instanceof BackupError) fail(error.message);
    throw error;
  }
  let bytes: Buffer;
  let from: string;
  const answer = await requestBackup(config.dataDir);
  if (answer.kind === 'taken') {
    bytes = answer.bytes;
    from = `the running paylink (pid ${answer.pid}), while it kept serving`;
  } else if (answer.kind === 'refused') {
    fail(`the running paylink did not take the backup: ${answer.message}`);
  } else {
    if (pgliteDataDirIsNew(pgliteDirOf(config.dataDir)))
      fail(`there is no database in ${pgliteDirOf(config.dataDir)} to back up (PAYLINK_DATA_DIR=${config.dataDir}).`);
    let database: Database;
    try {
      database = await openDatabase({ dataDir: config.dataDir, pgliteSync: config.pgliteSync });
    } catch (error) {
      if (error instanceof DataDirLockedError)
        fail(
          `paylink (pid ${error.holderPid}) holds ${config.dataDir} but did not answer on ${backupSocketPath(config.dataDir)} ` +
            '(a paylink from before backups, one still starting, or a data directory path too long for a socket): try again once it is running, or stop it and run the backup again.',
        );
      throw error;
    }
    try {
      bytes = await database.backup!();
    } finally {
      await database.close();
    }
    from = 'the data directory (no paylink was running)';
  }
  writeBackupFile(path, bytes);
  const lines = [
    `backup written: ${path} (${bytes.length} bytes, mode 0${(statSync(path).mode & 0o777).toString(8)}) from ${from}`,
    keyNote(config.masterKey, config.dataDir),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function restore(file: string | undefined, replace: boolean) {
  if (!file) fail('usage: npm run admin -- restore FILE [--force]');
  const config = loadConfigOrFail(fail);
  if (config.databaseUrl) fail(postgresBackup);
  // As a start does: the data directory 0700, and every file the restore writes 0600.
  makeDataDirPrivate(config.dataDir);
  let result: Awaited<ReturnType<typeof restoreBackup>>;
  try {
    result = await restoreBackup(resolve(file), config.dataDir, { replace, masterKey: config.masterKey });
  } catch (error) {
    if (error instanceof BackupError) fail(error.message);
    if (error instanceof DataDirLockedError) fail(`${error.message} Stop paylink before restoring.`);
    throw error;
  }
  const key = {
    matches: '  master key: the one configured here opens it.',
    not_needed: '  master key: none needed yet (the backup holds no sealed secrets); paylink makes one at its first start.',
    missing: `  master key: NOT FOUND. Set PAYLINK_MASTER_KEY, or put the key file at ${masterKeyFile(config.dataDir)}, before starting paylink: it refuses to start on this database without it.`,
    differs: `  master key: the one configured here is NOT the backup's. Start with the key the backup was taken under (PAYLINK_MASTER_KEY or ${masterKeyFile(config.dataDir)}); paylink refuses to start otherwise.`,
  }[result.masterKey];
  const lines = [
    `restored ${resolve(file)} into ${pgliteDirOf(config.dataDir)}: ${result.payments} payments, ${result.integrators} integrators`,
    ...(result.movedAside ? [`  the database that was there is kept in ${result.movedAside} (delete it once you no longer need it)`] : []),
    key,
    '  start paylink on it: migrations of a newer version run at its first start.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (result.masterKey === 'missing' || result.masterKey === 'differs') process.exit(2);
}

const [command, ...rest] = process.argv.slice(2);
const force = rest.includes('--force');
const [file] = rest.filter((a) => a !== '--force');
if (command === 'rotate-master-key') await rotate();
else if (command === 'backup') await backup(file, force);
else if (command === 'restore') await restore(file, force);
else fail(usage);
