// `npm run admin -- rotate-master-key` / `create-operator EMAIL`: operator commands run against the configured database
// (the same environment as `npm start`: PAYLINK_DATA_DIR, DATABASE_URL, PAYLINK_MASTER_KEY,
// PAYLINK_SEED). Every paylink process must be stopped first (docs/deploy.md, "Master key rotation").
import { readFileSync, renameSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createApp } from '../src/app.ts';
import { loadConfigOrFail } from '../src/config.ts';
import { loadMasterKey, masterKeyFile, newMasterKey, writeMasterKeyFile } from '../src/crypto.ts';
import { type Database, openDatabase } from '../src/db/client.ts';
import { DataDirLockedError } from '../src/db/lock.ts';
import { MasterKeyError, rotateMasterKey } from '../src/db/master-key.ts';
import { DomainError } from '../src/domain/errors.ts';
import { issueSetupLink } from '../src/domain/operators/accounts.ts';
import { seedSchema } from '../src/schemas/provisioning.ts';

const usage = [
  'usage: npm run admin -- rotate-master-key        (new key: PAYLINK_NEW_MASTER_KEY, or generated into the key file)',
  '       npm run admin -- create-operator EMAIL    (prints a one-time link that makes an operator account for EMAIL)',
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

/** A one-time setup link for an operator account (docs/operator.md): the shell's way when nobody can sign in to /operator. */
async function createOperator(email: string | undefined) {
  if (!email) fail(`create-operator needs the operator's e-mail address\n${usage}`);
  const config = loadConfigOrFail(fail);
  let app: Awaited<ReturnType<typeof createApp>>;
  try {
    app = await createApp({ config, database: { migrationsFolder: fileURLToPath(new URL('../drizzle/', import.meta.url)) } });
  } catch (error) {
    if (error instanceof DataDirLockedError) fail(`${error.message} With the embedded database, stop paylink first (or run paylink on PostgreSQL).`);
    if (error instanceof MasterKeyError) fail(error.message);
    throw error;
  }
  try {
    const link = await issueSetupLink(app, { email });
    if (!link) fail('no link was issued');
    process.stdout.write(
      [
        `operator setup link for ${email.trim().toLowerCase()} (works once, until ${link.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC):`,
        `  ${link.url}`,
        '  open it to choose the password; the link is kept only hashed, so it cannot be shown again.',
        '',
      ].join('\n'),
    );
  } catch (error) {
    if (error instanceof DomainError && typeof error.messages === 'object')
      fail(
        `create-operator: ${Object.entries(error.messages)
          .map(([f, m]) => `${f} ${m.join('; ')}`)
          .join('; ')}`,
      );
    throw error;
  } finally {
    await app.database.close();
  }
}

const [command, ...rest] = process.argv.slice(2);
if (command === 'rotate-master-key') await rotate();
else if (command === 'create-operator') await createOperator(rest[0]);
else fail(usage);
