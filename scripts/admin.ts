// `npm run admin -- COMMAND [--json]`: operator commands run against the configured database
// (the same environment as `npm start`: PAYLINK_DATA_DIR, DATABASE_URL, PAYLINK_MASTER_KEY,
// PAYLINK_SEED). rotate-master-key needs every paylink process stopped (docs/deploy.md, "Master
// key rotation"); backup takes the embedded database from the running paylink or with it stopped,
// restore needs a PAYLINK_DATA_DIR with no database (--force moves one aside); the integrator
// commands run beside a live paylink on PostgreSQL, and need it stopped on the embedded database,
// which one process holds at a time (docs/deploy.md, "Admin commands").
import { existsSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createApp, type PaylinkApp } from '../src/app.ts';
import { loadConfigOrFail } from '../src/config.ts';
import { loadMasterKey, masterKeyFile, newMasterKey, writeMasterKeyFile } from '../src/crypto.ts';
import { makeDataDirPrivate } from '../src/data-dir.ts';
import { BackupError, checkBackupTarget, pgliteDirOf, restoreBackup, writeBackupFile } from '../src/db/backup.ts';
import { type Database, openDatabase } from '../src/db/client.ts';
import { DataDirLockedError } from '../src/db/lock.ts';
import { MasterKeyError, rotateMasterKey } from '../src/db/master-key.ts';
import { pgliteDataDirIsNew } from '../src/db/pglite.ts';
import type { Actor } from '../src/domain/accounts/audit.ts';
import { resetSecondFactorByOperator } from '../src/domain/accounts/second-factor.ts';
import { DomainError } from '../src/domain/errors.ts';
import { parseOverlap, type RotationOverlap, rotateApiToken, rotateJwtSecret } from '../src/domain/integrators/credentials.ts';
import { findIntegratorById } from '../src/domain/integrators/service.ts';
import { listIntegrators, reactivateIntegrator, type SuspensionActor, type SuspensionState, suspendIntegrator } from '../src/domain/integrators/suspension.ts';
import { issueSetupLink } from '../src/domain/operators/accounts.ts';
import { backupSocketPath, requestBackup } from '../src/http/backup-socket.ts';
import { createLogger } from '../src/log.ts';
import { seedSchema } from '../src/schemas/provisioning.ts';

const usage = [
  'usage: npm run admin -- COMMAND [--json]',
  '  list-integrators                         every integrator, its id and whether it is suspended',
  '  rotate-credentials ID [--overlap none|1h|24h|7d]   a new API token and JWT secret, printed once (old ones stop at once by default)',
  '  suspend ID --reason TEXT                 its API, link keys, pages and schedules stop taking new money',
  '  reactivate ID                            undoes suspend',
  '  reset-second-factor EMAIL               removes a console user’s TOTP and recovery codes (a sole owner who lost both), ends their sessions, e-mails them',
  '  create-operator EMAIL                    a one-time link that makes an operator account for EMAIL (docs/operator.md)',
  '  rotate-master-key                        reseals every secret (new key: PAYLINK_NEW_MASTER_KEY, or generated into the key file)',
  '  backup FILE [--force]                    a consistent copy of the embedded database (paylink may be running)',
  '  restore FILE [--force]                   into a PAYLINK_DATA_DIR with no database (--force moves one aside)',
].join('\n');

/** Exit codes scripts can tell apart (docs/deploy.md, "Admin commands"). */
const EXIT = { failed: 1, usage: 2, notFound: 3 } as const;

let json = false;

function fail(message: string, exitCode: number = EXIT.failed, code = 'failed'): never {
  if (json) process.stdout.write(`${JSON.stringify({ ok: false, error: { code, message } })}\n`);
  else process.stderr.write(`admin: ${message}\n`);
  process.exit(exitCode);
}

const usageError = (message: string): never => fail(`${message} (npm run admin -- help lists the commands)`, EXIT.usage, 'usage');

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
  if (json) {
    print({ ok: true, rotated: counts, key_file: nextPath ? masterKeyFile(config.dataDir) : null });
    return;
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
  if (!file) return usageError('usage: npm run admin -- backup FILE [--force]');
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
  if (json) {
    print({ ok: true, file: path, bytes: bytes.length, from, master_key: config.masterKey ? 'PAYLINK_MASTER_KEY' : masterKeyFile(config.dataDir) });
    return;
  }
  const lines = [
    `backup written: ${path} (${bytes.length} bytes, mode 0${(statSync(path).mode & 0o777).toString(8)}) from ${from}`,
    keyNote(config.masterKey, config.dataDir),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function restore(file: string | undefined, replace: boolean) {
  if (!file) return usageError('usage: npm run admin -- restore FILE [--force]');
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
  if (json) {
    print({
      ok: true,
      file: resolve(file),
      payments: result.payments,
      integrators: result.integrators,
      moved_aside: result.movedAside ?? null,
      master_key: result.masterKey,
    });
    if (result.masterKey === 'missing' || result.masterKey === 'differs') process.exit(2);
    return;
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

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

/** Who acted, for the integrator's activity log: the command and the shell user who ran it. */
const adminActor = (): Actor => ({
  integratorId: null,
  userId: null,
  email: `admin command (${userInfo().username})`,
  ip: null,
  userAgent: 'npm run admin',
});

/** Suspend and reactivate are in the operator audit log too, from `shell` (no operator signed in). */
const adminSuspensionActor = (): SuspensionActor => {
  const activity = adminActor();
  return { activity, operator: { id: null, email: activity.email, ip: null, userAgent: 'paylink shell' } };
};

/** The app the integrator commands run their domain services with; refuses clearly when the embedded database is in use. */
async function openApp(): Promise<PaylinkApp> {
  const config = loadConfigOrFail(fail);
  // A command never makes a deployment where there is none (a mistyped PAYLINK_DATA_DIR).
  if (!config.databaseUrl && !existsSync(join(config.dataDir, 'pglite'))) {
    fail(`no paylink database in ${config.dataDir}: set PAYLINK_DATA_DIR (or DATABASE_URL) as for npm start`);
  }
  try {
    return await createApp({ config: { ...config, databasePoolSize: 2 }, log: createLogger('error', (line) => process.stderr.write(`${line}\n`)) });
  } catch (error) {
    if (error instanceof DataDirLockedError)
      fail(`${error.message} Stop paylink first, or use the operator console (the embedded database is one process's at a time).`);
    if (error instanceof MasterKeyError) fail(error.message);
    throw error;
  }
}

/** Runs `work` with the app, closing it after; a refusal of the domain becomes one line and its exit code. */
async function withApp(work: (app: PaylinkApp) => Promise<void>): Promise<void> {
  const app = await openApp();
  try {
    await work(app);
  } catch (error) {
    if (error instanceof DomainError) {
      const messages =
        typeof error.messages === 'string' ? [error.messages] : Object.entries(error.messages ?? {}).map(([field, m]) => `${field} ${m.join('; ')}`);
      await app.database.close();
      if (error.httpStatus === 404 && command === 'reset-second-factor')
        fail(`no console user with the e-mail ${JSON.stringify(args.positionals[1])}`, EXIT.notFound, 'not_found');
      if (error.httpStatus === 404)
        fail(`no integrator with id ${JSON.stringify(args.positionals[1])}; npm run admin -- list-integrators lists them`, EXIT.notFound, 'not_found');
      fail(messages.join('; ') || error.message, EXIT.usage, 'invalid');
    }
    throw error;
  }
  await app.database.close();
}

const isoOrNull = (d: Date | null) => d?.toISOString() ?? null;

/** A one-time setup link for an operator account (docs/operator.md): the shell's way when nobody can sign in to /operator. */
async function createOperatorCommand(email: string) {
  await withApp(async (app) => {
    const link = await issueSetupLink(app, { email });
    if (!link) fail('no link was issued');
    if (json) {
      print({ ok: true, email: email.trim().toLowerCase(), setup_url: link.url, expires_at: link.expiresAt.toISOString() });
      return;
    }
    process.stdout.write(
      `${[
        `operator setup link for ${email.trim().toLowerCase()} (works once, until ${link.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC):`,
        `  ${link.url}`,
        '  open it to choose the password; the link is kept only hashed, so it cannot be shown again.',
      ].join('\n')}\n`,
    );
  });
}

async function listCommand() {
  await withApp(async (app) => {
    const list = await listIntegrators(app);
    if (json) {
      print({
        ok: true,
        integrators: list.map((i) => ({
          id: i.id,
          name: i.name,
          email: i.email,
          status: i.suspended ? 'suspended' : 'active',
          suspended_at: isoOrNull(i.suspendedAt),
          suspended_reason: i.reason,
          created_at: i.createdAt.toISOString(),
        })),
      });
      return;
    }
    if (list.length === 0) {
      process.stdout.write('no integrators yet\n');
      return;
    }
    for (const i of list) {
      const status = i.suspended ? `suspended since ${isoOrNull(i.suspendedAt)}: ${i.reason}` : 'active';
      process.stdout.write(`${i.id}  ${i.name} <${i.email}>  ${status}\n`);
    }
  });
}

function stateOut(state: SuspensionState, verb: 'suspended' | 'reactivated') {
  if (json) {
    print({
      ok: true,
      integrator: {
        id: state.integratorId,
        name: state.name,
        status: state.suspended ? 'suspended' : 'active',
        suspended_at: isoOrNull(state.suspendedAt),
        suspended_reason: state.reason,
      },
      changed: state.changed,
    });
    return;
  }
  process.stdout.write(
    state.changed
      ? `${state.integratorId} (${state.name}) ${verb}${state.reason ? `: ${state.reason}` : ''}\n`
      : `${state.integratorId} (${state.name}) was already ${verb === 'suspended' ? 'suspended' : 'active'}; nothing changed\n`,
  );
}

async function rotateCredentialsCommand(id: string, overlap: RotationOverlap) {
  await withApp(async (app) => {
    // Known first: a rotation of an unknown id would fail inside its transaction as an invariant.
    if (!(await findIntegratorById(app.db, id))) throw new DomainError('ER.02.30', 'The integrator does not exist', { httpStatus: 404 });
    const actor = adminActor();
    const token = await rotateApiToken(app, id, overlap, { ...actor, integratorId: id });
    const secret = await rotateJwtSecret(app, id, overlap, { ...actor, integratorId: id });
    if (json) {
      print({
        ok: true,
        integrator_id: id,
        api_token: token.value,
        jwt_secret: secret.value,
        previous_valid_until: isoOrNull(token.previousValidUntil),
      });
      return;
    }
    process.stdout.write(
      `${[
        `credentials of ${id} rotated; shown this once, store them now:`,
        `  API token:  ${token.value}`,
        `  JWT secret: ${secret.value}`,
        token.previousValidUntil ? `  the old ones work until ${token.previousValidUntil.toISOString()}` : '  the old ones stopped working now',
      ].join('\n')}\n`,
    );
  });
}

const options = {
  json: { type: 'boolean' },
  force: { type: 'boolean' },
  reason: { type: 'string' },
  overlap: { type: 'string' },
} as const;
function parseCommandLine() {
  try {
    return parseArgs({ args: process.argv.slice(2), options, allowPositionals: true, strict: true });
  } catch (error) {
    json = process.argv.includes('--json');
    return usageError((error as Error).message);
  }
}
const args = parseCommandLine();
json = args.values.json === true;
const [command, id, ...extra] = args.positionals;
const needsId = (name: string): string => {
  if (id === undefined || id.trim() === '') return usageError(`${name} needs the integrator's id (npm run admin -- list-integrators)`);
  if (extra.length > 0) return usageError(`unexpected argument ${JSON.stringify(extra[0])}`);
  return id;
};
const noOptionsBut = (allowed: string[]) => {
  for (const name of ['reason', 'overlap', 'force'] as const) {
    if (args.values[name] !== undefined && !allowed.includes(name)) usageError(`${command} takes no --${name}`);
  }
};

switch (command) {
  case 'help':
    process.stdout.write(`${usage}\n`);
    break;
  case 'rotate-master-key':
    if (id !== undefined) usageError(`unexpected argument ${JSON.stringify(id)}`);
    noOptionsBut([]);
    await rotate();
    break;
  case 'backup':
  case 'restore':
    noOptionsBut(['force']);
    if (extra.length > 0) usageError(`unexpected argument ${JSON.stringify(extra[0])}`);
    await (command === 'backup' ? backup : restore)(id, args.values.force === true);
    break;
  case 'create-operator':
    noOptionsBut([]);
    if (id === undefined || id.trim() === '') usageError("create-operator needs the operator's e-mail address");
    if (extra.length > 0) usageError(`unexpected argument ${JSON.stringify(extra[0])}`);
    await createOperatorCommand(id!);
    break;
  case 'reset-second-factor': {
    noOptionsBut([]);
    if (id === undefined || id.trim() === '') usageError("reset-second-factor needs the console user's e-mail address");
    if (extra.length > 0) usageError(`unexpected argument ${JSON.stringify(extra[0])}`);
    await withApp(async (app) => {
      const reset = await resetSecondFactorByOperator(app, id!, adminActor());
      if (json) print({ ok: true, email: reset.email, integrator_id: reset.integratorId });
      else
        process.stdout.write(
          `two-step sign-in of ${reset.email} (integrator ${reset.integratorId}) reset: TOTP and recovery codes removed, sessions ended, e-mail queued\n`,
        );
    });
    break;
  }
  case 'list-integrators':
    if (id !== undefined) usageError(`unexpected argument ${JSON.stringify(id)}`);
    noOptionsBut([]);
    await listCommand();
    break;
  case 'rotate-credentials': {
    const target = needsId('rotate-credentials');
    noOptionsBut(['overlap']);
    let overlap: RotationOverlap = 'none';
    try {
      if (args.values.overlap !== undefined) overlap = parseOverlap(args.values.overlap);
    } catch {
      usageError('--overlap must be one of none, 1h, 24h, 7d');
    }
    await rotateCredentialsCommand(target, overlap);
    break;
  }
  case 'suspend': {
    const target = needsId('suspend');
    noOptionsBut(['reason']);
    if (args.values.reason === undefined) usageError('suspend needs --reason TEXT (recorded in the activity and operator logs)');
    await withApp(async (app) => stateOut(await suspendIntegrator(app, target, args.values.reason, adminSuspensionActor()), 'suspended'));
    break;
  }
  case 'reactivate': {
    const target = needsId('reactivate');
    noOptionsBut([]);
    await withApp(async (app) => stateOut(await reactivateIntegrator(app, target, adminSuspensionActor()), 'reactivated'));
    break;
  }
  default:
    usageError(command === undefined ? 'no command given' : `unknown command ${JSON.stringify(command)}`);
}
