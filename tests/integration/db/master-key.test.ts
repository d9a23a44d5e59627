import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp, type PaylinkApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { createFingerprinter, keyPurposes } from '../../../src/crypto.ts';
import { keyCheckOf, rotateMasterKey } from '../../../src/db/master-key.ts';
import * as schema from '../../../src/db/schema.ts';
import { spendRecoveryCode, storeNewRecoveryCodes } from '../../../src/domain/accounts/recovery-code-store.ts';
import { readAcquirerSettings } from '../../../src/domain/integrators/acquirer.ts';
import { applyProvisioning } from '../../../src/domain/integrators/provisioning.ts';
import { createLogger } from '../../../src/log.ts';
import { createTestDatabaseUrl, defaultSeed, sandboxOf, TEST_SECRET, testDb } from '../../support/app.ts';

/**
 * One deployment's database opened by process after process, each with the key it is given
 * (PGlite: on disk in the data directory, as `npm start` opens it; PostgreSQL: one database).
 */
let dataDir: string;
let databaseUrl: string | undefined;
const opened: PaylinkApp[] = [];
/** PGlite: the run's migrated template, unpacked into each new data directory as the build's would be (no initdb per start). */
let pgliteTemplate: string;
beforeAll(() => {
  pgliteTemplate = join(mkdtempSync(join(tmpdir(), 'paylink-key-template-')), 'template.tar.gz');
  writeFileSync(pgliteTemplate, gzipSync(readFileSync(inject('paylinkPgliteTemplate'))));
});
afterEach(async () => {
  for (const app of opened.splice(0)) await app.database.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function newDeployment() {
  dataDir = mkdtempSync(join(tmpdir(), 'paylink-key-'));
  databaseUrl = testDb === 'postgres' ? await createTestDatabaseUrl() : undefined;
}

/** A process start: createApp with this key (or none), closed again unless `keep`. */
async function start(masterKey?: Buffer, opts: { keep?: boolean; dataDir?: string } = {}): Promise<PaylinkApp> {
  const config = loadConfig({
    PAYLINK_DATA_DIR: opts.dataDir ?? dataDir,
    LOG_LEVEL: 'silent',
    ...(masterKey ? { PAYLINK_MASTER_KEY: masterKey.toString('base64') } : {}),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const app = await createApp({ config, log: createLogger('silent'), database: databaseUrl ? {} : { pgliteTemplate } });
  if (opts.keep) opened.push(app);
  else await app.database.close();
  return app;
}

async function provisioned(key: Buffer): Promise<PaylinkApp> {
  const app = await start(key, { keep: true });
  const path = join(dataDir, 'seed.json');
  writeFileSync(path, JSON.stringify(defaultSeed()));
  await applyProvisioning(app, path);
  return app;
}

async function closeAll() {
  for (const app of opened.splice(0)) await app.database.close();
}

describe('master key › the database checks the key', () => {
  it('an empty database with no key gets a new key file and its check; the next start reads the file', async () => {
    await newDeployment();
    const first = await start(undefined, { keep: true });
    expect(first.masterKeyInfo.source).toBe('generated');
    const key = Buffer.from(readFileSync(join(dataDir, 'master.key'), 'utf8').trim(), 'base64');
    const [check] = await first.db.select().from(schema.masterKeyCheck);
    expect(check!.mac).toBe(keyCheckOf(key));
    expect(check!.mac).not.toContain(key.toString('base64'));
    await closeAll();
    expect((await start()).masterKeyInfo.source).toBe('file');
  });

  it('a process with another key refuses to start, naming PAYLINK_MASTER_KEY, and changes nothing', async () => {
    await newDeployment();
    const right = randomBytes(32);
    await provisioned(right);
    await closeAll();
    await expect(start(randomBytes(32))).rejects.toThrow(
      /^PAYLINK_MASTER_KEY is not the master key this database's secrets are sealed with\. Start with the key the other processes use/,
    );
    const again = await start(right, { keep: true });
    expect((await again.db.select().from(schema.masterKeyCheck))[0]!.mac).toBe(keyCheckOf(right));
  });

  it('a wrong key file is named in the refusal', async () => {
    await newDeployment();
    await provisioned(randomBytes(32));
    await closeAll();
    writeFileSync(join(dataDir, 'master.key'), `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    await expect(start()).rejects.toThrow(`the key file ${join(dataDir, 'master.key')} (PAYLINK_MASTER_KEY is not set) is not the master key`);
  });

  it('a database that holds secrets is refused when no key is given, and no key is made', async () => {
    await newDeployment();
    await provisioned(randomBytes(32));
    await closeAll();
    // PostgreSQL: a process with a data directory of its own (no key file) on the same database.
    const elsewhere = testDb === 'postgres' ? mkdtempSync(join(tmpdir(), 'paylink-key-')) : dataDir;
    try {
      await expect(start(undefined, { dataDir: elsewhere })).rejects.toThrow(
        /^PAYLINK_MASTER_KEY is not set and .*master\.key does not exist, but this database holds secrets/,
      );
      expect(existsSync(join(elsewhere, 'master.key'))).toBe(false);
    } finally {
      if (elsewhere !== dataDir) rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('a database from before the key check takes the key in use, once it opens the secrets; another key is refused', async () => {
    await newDeployment();
    const right = randomBytes(32);
    const app = await provisioned(right);
    await app.db.delete(schema.masterKeyCheck);
    await closeAll();
    await expect(start(randomBytes(32))).rejects.toThrow(/cannot open the secrets already sealed in this database/);
    const upgraded = await start(right, { keep: true });
    expect((await upgraded.db.select().from(schema.masterKeyCheck))[0]!.mac).toBe(keyCheckOf(right));
  });
});

describe('master key › rotation', () => {
  it('re-seals every secret under the new key in one go: every secret stays readable, the old key is refused', async () => {
    await newDeployment();
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const app = await provisioned(oldKey);
    const [acme] = await app.db.select().from(schema.integrators).where(eq(schema.integrators.email, 'billing@acme.example'));
    const webhookSecret = app.secrets.open(acme!.webhookSecretEnc);
    await app.db.insert(schema.integratorAcquirers).values({
      integratorId: acme!.id,
      provider: 'stripe',
      publicKey: 'pk_test_rotation',
      secretKeyEnc: app.secrets.seal('sk_test_rotation_secret'),
      webhookSecretEnc: app.secrets.seal('whsec_rotation_provider'),
      webhookId: 'wh_rotation',
    });
    const [owner] = await app.db.select().from(schema.consoleUsers).where(eq(schema.consoleUsers.email, 'owner@acme.example'));
    await app.db
      .update(schema.consoleUsers)
      .set({ totpSecretEnc: app.secrets.seal('JBSWY3DPEHPK3PXP') })
      .where(eq(schema.consoleUsers.id, owner!.id));
    // Recovery codes are keyed by the TOTP secret's clear text, so they outlive the key that seals it.
    const recoveryCodes = await storeNewRecoveryCodes(app.db, owner!, 'JBSWY3DPEHPK3PXP', new Date());
    await app.db.insert(schema.consoleMail).values({
      id: 'cml_rotation',
      integratorId: acme!.id,
      kind: 'invite',
      emailTo: 'new@acme.example',
      payloadEnc: app.secrets.seal('{"link":"https://pay.example/invite/abc"}'),
    });
    const cards = await app.db.select().from(schema.cardRegistrations);
    const numbers = new Map(cards.map((c) => [c.reference, c.fingerprint]));
    // The seed as the command reads it, less one user's password: that fingerprint cannot follow the key and is dropped.
    const seeded = defaultSeed()
      .integrators.flatMap((i) => i.users.map((u) => ({ email: u.email, value: u.password ?? u.password_hash! })))
      .filter((u) => u.email !== 'owner@other.example')
      .map((u) => u.value);
    const fingerprintsBefore = await app.db.select({ email: schema.consoleUsers.email, f: schema.consoleUsers.passwordSeedSha256 }).from(schema.consoleUsers);

    const counts = await rotateMasterKey(app.db, oldKey, newKey, { seededPasswords: seeded });
    expect(counts).toMatchObject({ integratorSecrets: 2, acquirerSecrets: 1, totpSecrets: 1, consoleMail: 1, vaultCards: 2, seededPasswords: 2 });
    expect(counts.fingerprints).toBeGreaterThanOrEqual(2);
    await closeAll();

    await expect(start(oldKey)).rejects.toThrow(/is not the master key/);
    const rotated = await start(newKey, { keep: true });
    const [after] = await rotated.db.select().from(schema.integrators).where(eq(schema.integrators.id, acme!.id));
    expect(rotated.secrets.open(after!.secretEnc)).toBe(TEST_SECRET);
    expect(rotated.secrets.open(after!.webhookSecretEnc)).toBe(webhookSecret);
    expect(await readAcquirerSettings(rotated.db, rotated.secrets, acme!.id)).toMatchObject({
      secretKey: 'sk_test_rotation_secret',
      webhookSecret: 'whsec_rotation_provider',
    });
    const [ownerAfter] = await rotated.db.select().from(schema.consoleUsers).where(eq(schema.consoleUsers.id, owner!.id));
    expect(rotated.secrets.open(ownerAfter!.totpSecretEnc!)).toBe('JBSWY3DPEHPK3PXP');
    expect(await spendRecoveryCode(rotated.db, owner!, rotated.secrets.open(ownerAfter!.totpSecretEnc!), recoveryCodes[0]!, new Date())).toBe(true);
    const [mail] = await rotated.db.select().from(schema.consoleMail);
    expect(rotated.secrets.open(mail!.payloadEnc)).toContain('invite/abc');
    // The vault's cards open under the new key, and their fingerprints follow it everywhere.
    const fingerprint = createFingerprinter(newKey, keyPurposes.cardFingerprint);
    const seededNumbers = new Map(defaultSeed().integrators.flatMap((i) => i.cards.map((c) => [c.reference, c.number])));
    for (const card of await rotated.db.select().from(schema.cardRegistrations)) {
      const number = seededNumbers.get(card.reference)!;
      const vaulted = await sandboxOf(rotated).acquirer.verifyCard(
        { number, expMonth: card.expMonth!, expYear: card.expYear! },
        { idempotencyKey: `after-rotation:${card.reference}` },
      );
      expect(card.fingerprint).toBe(fingerprint(number));
      expect(card.fingerprint).not.toBe(numbers.get(card.reference));
      expect(vaulted).toMatchObject({ status: 'verified', fingerprint: card.fingerprint });
    }
    const dropped = await rotated.db.select().from(schema.consoleUsers).where(eq(schema.consoleUsers.email, 'owner@other.example'));
    expect(dropped[0]!.passwordSeedSha256).toBeNull();
    // The seed's passwords (those it gave the command) are not set again by a restart with the same seed.
    const path = join(dataDir, 'seed.json');
    await applyProvisioning(rotated, path);
    const fingerprintsAfter = await rotated.db.select({ email: schema.consoleUsers.email, hash: schema.consoleUsers.passwordHash }).from(schema.consoleUsers);
    expect(fingerprintsAfter).toHaveLength(fingerprintsBefore.length);
    expect((await rotated.db.select().from(schema.consoleUsers).where(eq(schema.consoleUsers.id, owner!.id)))[0]!.passwordChangedAt).toEqual(
      owner!.passwordChangedAt,
    );
  });

  it('refuses to rotate from a key that is not the database’s, and changes nothing', async () => {
    await newDeployment();
    const right = randomBytes(32);
    const app = await provisioned(right);
    const before = await app.db.select().from(schema.integrators);
    await expect(rotateMasterKey(app.db, randomBytes(32), randomBytes(32))).rejects.toThrow(/nothing was changed/);
    expect(await app.db.select().from(schema.integrators)).toEqual(before);
  });
});
