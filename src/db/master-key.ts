import { and, asc, eq, gt, isNotNull, notInArray, sql } from 'drizzle-orm';
import {
  createFingerprinter,
  createMac,
  createSealer,
  keyPurposes,
  loadMasterKey,
  type MasterKeySource,
  masterKeyFile,
  newMasterKey,
  type Sealer,
  writeMasterKeyFile,
} from '../crypto.ts';
import type { Db, DbOrTx, Tx } from './client.ts';
import { cardRegistrations, consoleMail, consoleUsers, integratorAcquirers, integrators, masterKeyCheck, operators, payments, sandboxVault } from './schema.ts';

/**
 * The master key and the database must belong together: secrets sealed under one key cannot be
 * opened with another, and a process with the wrong key would seal new secrets under it. The
 * database keeps a key check (an HMAC of a fixed label under a key derived from the master key,
 * never the key itself) in `master_key_check`; a process whose key gives another MAC refuses to
 * start. A new key is made only for a database that holds no sealed data yet.
 */
export class MasterKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MasterKeyError';
  }
}

/** Serialises key checks and rotations across processes (as the seed's and the migrations' locks). */
const KEY_LOCK_ID = 7_450_231_003;
const CHECK_LABEL = 'paylink master key check v1';

export const keyCheckOf = (key: Buffer) => createMac(key, keyPurposes.keyCheck).sign(CHECK_LABEL);

export interface SettledMasterKey {
  key: Buffer;
  source: MasterKeySource;
  path?: string;
}

const describeKey = (loaded: { source: 'env' | 'file'; path?: string }) =>
  loaded.source === 'env' ? 'PAYLINK_MASTER_KEY' : `the key file ${loaded.path} (PAYLINK_MASTER_KEY is not set)`;

/**
 * A sealed value already in the database, to tell whether a key opens it (a database from before
 * the key check), or undefined when the database holds none. Every sealed column belongs to an
 * integrator or the sandbox vault, so an empty `integrators` and `sandbox_vault` means no secrets.
 */
async function sealedSample(tx: DbOrTx): Promise<{ purpose: string; sealed: string } | undefined> {
  const [integrator] = await tx.select({ sealed: integrators.secretEnc }).from(integrators).limit(1);
  if (integrator) return { purpose: keyPurposes.integratorSecrets, sealed: integrator.sealed };
  const [card] = await tx.select({ sealed: sandboxVault.numberEnc }).from(sandboxVault).limit(1);
  if (card) return { purpose: keyPurposes.sandboxVault, sealed: card.sealed };
  return undefined;
}

const opens = (key: Buffer, sample: { purpose: string; sealed: string }) => {
  try {
    createSealer(key, sample.purpose).open(sample.sealed);
    return true;
  } catch {
    return false;
  }
};

/**
 * The key this process runs with, checked against the database (called by createApp after the
 * migrations). With a key: it must match the stored check; with no check stored yet (a new
 * database, or one from before the check) it must open the secrets already sealed, and its check
 * is written. With no key at all: a new one is made (the key file) only if the database is empty.
 */
export async function settleMasterKey(db: Db, opts: { masterKey?: string; dataDir: string }): Promise<SettledMasterKey> {
  const loaded = loadMasterKey(opts);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${KEY_LOCK_ID})`);
    const [stored] = await tx.select().from(masterKeyCheck).where(eq(masterKeyCheck.id, 1));
    if (!loaded) {
      if (stored || (await sealedSample(tx)))
        throw new MasterKeyError(
          `PAYLINK_MASTER_KEY is not set and ${masterKeyFile(opts.dataDir)} does not exist, but this database holds secrets sealed under a master key. ` +
            'Set PAYLINK_MASTER_KEY to that key, or restore the key file; paylink makes a new key only for an empty database.',
        );
      const key = newMasterKey();
      const path = writeMasterKeyFile(key, opts.dataDir);
      await tx.insert(masterKeyCheck).values({ id: 1, mac: keyCheckOf(key) });
      return { key, source: 'generated' as const, path };
    }
    const mac = keyCheckOf(loaded.key);
    if (stored) {
      if (stored.mac !== mac)
        throw new MasterKeyError(
          `${describeKey(loaded)} is not the master key this database's secrets are sealed with. ` +
            'Start with the key the other processes use (PAYLINK_MASTER_KEY, or PAYLINK_DATA_DIR/master.key); to change keys, see docs/deploy.md, "Master key rotation".',
        );
      return loaded;
    }
    // A database from before the key check: the key in use becomes the checked one, if it opens what is sealed.
    const sample = await sealedSample(tx);
    if (sample && !opens(loaded.key, sample))
      throw new MasterKeyError(
        `${describeKey(loaded)} cannot open the secrets already sealed in this database: it is not their master key. ` +
          'Start with the key they were sealed with (docs/deploy.md, "Master key").',
      );
    await tx.insert(masterKeyCheck).values({ id: 1, mac });
    return loaded;
  });
}

export interface RotationCounts {
  integratorSecrets: number;
  acquirerSecrets: number;
  totpSecrets: number;
  consoleMail: number;
  vaultCards: number;
  /** Card fingerprints of registrations and payments recomputed from the vault's numbers. */
  fingerprints: number;
  seededPasswords: number;
}

/** Opens each non-null value of `columns` with one sealer and seals it with the other, row by row. */
async function reseal<Row extends Record<string, string | null>>(
  rows: Row[],
  columns: Array<keyof Row>,
  from: Sealer,
  to: Sealer,
  write: (row: Row, values: Partial<Row>) => Promise<unknown>,
): Promise<number> {
  let n = 0;
  for (const row of rows) {
    const values: Partial<Row> = {};
    for (const column of columns) {
      const sealed = row[column];
      if (sealed !== null && sealed !== undefined) values[column] = to.seal(from.open(sealed)) as Row[keyof Row];
    }
    if (Object.keys(values).length === 0) continue;
    await write(row, values);
    n++;
  }
  return n;
}

/**
 * Re-seals every secret at rest under `newKey` in one transaction and stores the new key check.
 * `oldKey` must be the database's key. Keyed fingerprints follow: the sandbox vault's card
 * fingerprints (and the copies on card registrations and payments) are recomputed from the
 * card numbers; fingerprints of seeded passwords are recomputed for the values in
 * `seededPasswords` (the seed's `password`/`password_hash` values), the others dropped, so the
 * seed sets those passwords again at its next apply. Nothing else keyed is stored (CSRF tokens
 * and payment-page tickets are short-lived and are issued again).
 */
export async function rotateMasterKey(db: Db, oldKey: Buffer, newKey: Buffer, opts: { seededPasswords?: string[] } = {}): Promise<RotationCounts> {
  if (oldKey.equals(newKey)) throw new MasterKeyError('the new master key is the key in use');
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${KEY_LOCK_ID})`);
    const [stored] = await tx.select().from(masterKeyCheck).where(eq(masterKeyCheck.id, 1)).for('update');
    const sample = await sealedSample(tx);
    if (stored ? stored.mac !== keyCheckOf(oldKey) : sample && !opens(oldKey, sample))
      throw new MasterKeyError('the current master key (PAYLINK_MASTER_KEY or the key file) is not the key this database is sealed with; nothing was changed');
    const from = createSealer(oldKey, keyPurposes.integratorSecrets);
    const to = createSealer(newKey, keyPurposes.integratorSecrets);
    const counts: RotationCounts = {
      integratorSecrets: await reseal(
        await tx
          .select({
            id: integrators.id,
            secretEnc: integrators.secretEnc,
            previousSecretEnc: integrators.previousSecretEnc,
            webhookSecretEnc: integrators.webhookSecretEnc,
            previousWebhookSecretEnc: integrators.previousWebhookSecretEnc,
            linkKeyEnc: integrators.linkKeyEnc,
          })
          .from(integrators),
        ['secretEnc', 'previousSecretEnc', 'webhookSecretEnc', 'previousWebhookSecretEnc', 'linkKeyEnc'],
        from,
        to,
        (row, values) => tx.update(integrators).set(values).where(eq(integrators.id, row.id)),
      ),
      acquirerSecrets: await reseal(
        await tx
          .select({
            id: integratorAcquirers.integratorId,
            secretKeyEnc: integratorAcquirers.secretKeyEnc,
            webhookSecretEnc: integratorAcquirers.webhookSecretEnc,
          })
          .from(integratorAcquirers),
        ['secretKeyEnc', 'webhookSecretEnc'],
        from,
        to,
        (row, values) => tx.update(integratorAcquirers).set(values).where(eq(integratorAcquirers.integratorId, row.id)),
      ),
      totpSecrets:
        (await reseal(
          await tx.select({ id: consoleUsers.id, totpSecretEnc: consoleUsers.totpSecretEnc }).from(consoleUsers),
          ['totpSecretEnc'],
          from,
          to,
          (row, values) => tx.update(consoleUsers).set(values).where(eq(consoleUsers.id, row.id)),
        )) +
        // Operators' TOTP secrets are sealed the same way (src/domain/operators/accounts.ts).
        (await reseal(
          await tx.select({ id: operators.id, totpSecretEnc: operators.totpSecretEnc }).from(operators),
          ['totpSecretEnc'],
          from,
          to,
          (row, values) => tx.update(operators).set(values).where(eq(operators.id, row.id)),
        )),
      consoleMail: await reseal(
        await tx.select({ id: consoleMail.id, payloadEnc: consoleMail.payloadEnc }).from(consoleMail),
        ['payloadEnc'],
        from,
        to,
        (row, values) => tx.update(consoleMail).set(values).where(eq(consoleMail.id, row.id)),
      ),
      ...(await rotateVault(tx, oldKey, newKey)),
      seededPasswords: await rotateSeededPasswords(tx, oldKey, newKey, opts.seededPasswords ?? []),
    };
    const mac = keyCheckOf(newKey);
    await tx
      .insert(masterKeyCheck)
      .values({ id: 1, mac })
      .onConflictDoUpdate({ target: masterKeyCheck.id, set: { mac, createdAt: new Date() } });
    return counts;
  });
}

/** Rows per statement when re-sealing the vault (3 parameters each). */
const VAULT_PAGE = 1000;

/**
 * The vault's card numbers under the new vault key, and their fingerprints wherever they are kept.
 * Paged by token (memory stays flat for any vault), one UPDATE … FROM VALUES per page; the
 * fingerprints' old → new map goes to a temporary table, applied to card registrations and
 * payments with one joined UPDATE each (one scan of each table, not one per card).
 */
async function rotateVault(tx: Tx, oldKey: Buffer, newKey: Buffer): Promise<Pick<RotationCounts, 'vaultCards' | 'fingerprints'>> {
  const from = createSealer(oldKey, keyPurposes.sandboxVault);
  const to = createSealer(newKey, keyPurposes.sandboxVault);
  const fingerprint = createFingerprinter(newKey, keyPurposes.cardFingerprint);
  await tx.execute(sql`create temporary table key_rotation_fingerprints (old text not null, new text not null) on commit drop`);
  let vaultCards = 0;
  let after = '';
  for (;;) {
    const cards = await tx
      .select({ token: sandboxVault.token, numberEnc: sandboxVault.numberEnc, fingerprint: sandboxVault.fingerprint })
      .from(sandboxVault)
      .where(gt(sandboxVault.token, after))
      .orderBy(asc(sandboxVault.token))
      .limit(VAULT_PAGE);
    if (cards.length === 0) break;
    const next = cards.map((card) => {
      const number = from.open(card.numberEnc);
      return { token: card.token, numberEnc: to.seal(number), old: card.fingerprint, fingerprint: fingerprint(number) };
    });
    await tx.execute(sql`
      update ${sandboxVault} v set number_enc = m.number_enc, fingerprint = m.fingerprint
      from (values ${sql.join(
        next.map((c) => sql`(${c.token}::text, ${c.numberEnc}::text, ${c.fingerprint}::text)`),
        sql`, `,
      )}) as m (token, number_enc, fingerprint)
      where v.token = m.token`);
    await tx.execute(
      sql`insert into key_rotation_fingerprints (old, new) values ${sql.join(
        next.map((c) => sql`(${c.old}, ${c.fingerprint})`),
        sql`, `,
      )}`,
    );
    vaultCards += cards.length;
    after = cards.at(-1)!.token;
  }
  const renamed = (table: typeof cardRegistrations | typeof payments, column: string) =>
    tx.execute(sql`
      update ${table} t set ${sql.identifier(column)} = m.new
      from (select distinct old, new from key_rotation_fingerprints) m
      where t.${sql.identifier(column)} = m.old`);
  const counted = (result: unknown) =>
    Number((result as { rowCount?: number; affectedRows?: number }).rowCount ?? (result as { affectedRows?: number }).affectedRows ?? 0);
  const fingerprints = counted(await renamed(cardRegistrations, 'fingerprint')) + counted(await renamed(payments, 'card_fingerprint'));
  return { vaultCards, fingerprints };
}

/** Fingerprints of seeded passwords (console MAC) for the seed's values; others are dropped. */
async function rotateSeededPasswords(tx: Tx, oldKey: Buffer, newKey: Buffer, seeded: string[]): Promise<number> {
  const oldMac = createMac(oldKey, keyPurposes.console);
  const newMac = createMac(newKey, keyPurposes.console);
  let n = 0;
  for (const value of new Set(seeded)) {
    const rows = await tx
      .update(consoleUsers)
      .set({ passwordSeedSha256: newMac.sign(`password-seed:${value}`) })
      .where(eq(consoleUsers.passwordSeedSha256, oldMac.sign(`password-seed:${value}`)))
      .returning({ id: consoleUsers.id });
    n += rows.length;
  }
  // Left under the old key they could never match again; dropped, the seed sets those passwords at its next apply.
  const kept = [...new Set(seeded)].map((v) => newMac.sign(`password-seed:${v}`));
  await tx
    .update(consoleUsers)
    .set({ passwordSeedSha256: null })
    .where(
      kept.length === 0
        ? isNotNull(consoleUsers.passwordSeedSha256)
        : and(isNotNull(consoleUsers.passwordSeedSha256), notInArray(consoleUsers.passwordSeedSha256, kept)),
    );
  return n;
}
