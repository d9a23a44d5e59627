import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSeed, TEST_TOKEN } from '../support/app.ts';
import { payOverHttp, transactionOverHttp } from '../support/http-payment.ts';
import { startPaylink } from '../support/process.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'paylink-backup-'));
  dirs.push(dir);
  return dir;
};

/** `npm run admin -- …` as its script line runs it (without npm), in the given environment. */
function admin(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--experimental-transform-types', '--disable-warning=ExperimentalWarning', 'scripts/admin.ts', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

async function stop(p: ReturnType<typeof startPaylink>) {
  p.child.kill('SIGTERM');
  expect(await p.exited).toBe(0);
}

describe('backup and restore of the embedded database', () => {
  it('backs up while paylink serves, restores into a fresh data directory, and the restored paylink finds every payment', { timeout: 300_000 }, async () => {
    const dir = tempDir();
    const seed = join(dir, 'seed.json');
    writeFileSync(seed, JSON.stringify(defaultSeed()));
    const env = { PAYLINK_MASTER_KEY: randomBytes(32).toString('base64'), PAYLINK_SEED: seed };
    const live = { ...env, PAYLINK_DATA_DIR: join(dir, 'live') };
    const file = join(dir, 'paylink.backup');

    const running = startPaylink(live);
    const base = await running.ready;
    const before: string[] = [];
    let during: string[] = [];
    let after: string;
    let backup: Awaited<ReturnType<typeof admin>>;
    try {
      for (let i = 0; i < 3; i++) before.push(await payOverHttp(base, { token: TEST_TOKEN, slug: 'acme-books', reference: `before-${i}` }));
      // Customers keep paying while the backup is taken: the server answers them and the backup.
      [backup, during] = await Promise.all([
        admin(['backup', file], live),
        Promise.all([0, 1].map((i) => payOverHttp(base, { token: TEST_TOKEN, slug: 'acme-books', reference: `during-${i}` }))),
      ]);
      after = await payOverHttp(base, { token: TEST_TOKEN, slug: 'acme-books', reference: 'after' });

      expect(backup.code, backup.out).toBe(0);
      expect(backup.out).toMatch(/backup written: .*paylink\.backup .*mode 0600\) from the running paylink \(pid \d+\), while it kept serving/);
      expect(backup.out).toMatch(/keep PAYLINK_MASTER_KEY with it/);
      expect(statSync(file).mode & 0o777).toBe(0o600);

      // The server holds the data directory: a restore into it is refused, and so is overwriting the file.
      const restoreRunning = await admin(['restore', file, '--force'], live);
      expect(restoreRunning.code).toBe(1);
      expect(restoreRunning.out).toMatch(/in use by another paylink process .* Stop paylink before restoring/);
      const again = await admin(['backup', file], live);
      expect(again.code).toBe(1);
      expect(again.out).toMatch(/already exists; give another file name, or --force/);
    } finally {
      await stop(running);
    }

    // A fresh data directory, as on a new machine: only the master key comes along.
    const fresh = { ...env, PAYLINK_DATA_DIR: join(dir, 'fresh') };
    const restored = await admin(['restore', file], fresh);
    expect(restored.code, restored.out).toBe(0);
    expect(restored.out).toMatch(/restored .* into .*fresh\/pglite: (\d+) payments, 2 integrators/);
    expect(restored.out).toMatch(/master key: the one configured here opens it/);
    expect(statSync(join(dir, 'fresh')).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'fresh', 'pglite', 'PG_VERSION')).mode & 0o777).toBe(0o600);
    const count = Number(/: (\d+) payments/.exec(restored.out)![1]);
    expect(count).toBeGreaterThanOrEqual(3);
    expect(count).toBeLessThanOrEqual(5);

    const back = startPaylink(fresh);
    const restoredBase = await back.ready;
    try {
      for (const id of before) {
        const found = await transactionOverHttp(restoredBase, TEST_TOKEN, id);
        expect(found.status, id).toBe(200);
        expect(found.transaction).toMatchObject({ transaction_id: id, status: 'succeeded', merchant_reference_id: expect.stringMatching(/^before-/) });
      }
      // A payment made while the backup ran is in it or not (whichever side of the copy it fell), never half.
      const inBackup = [];
      for (const id of during) {
        const found = await transactionOverHttp(restoredBase, TEST_TOKEN, id);
        expect([200, 404]).toContain(found.status);
        if (found.status === 200) inBackup.push(id);
      }
      expect(before.length + inBackup.length).toBe(count);
      // One made after the backup is not in it.
      expect((await transactionOverHttp(restoredBase, TEST_TOKEN, after)).status).toBe(404);
      // The restored paylink takes payments again.
      await payOverHttp(restoredBase, { token: TEST_TOKEN, slug: 'acme-books', reference: 'restored' });
    } finally {
      await stop(back);
    }

    // A data directory that holds a database is not overwritten unless told; told, the old one is kept aside.
    const refused = await admin(['restore', file], fresh);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/already holds a database; restore into an empty PAYLINK_DATA_DIR, or add --force/);
    const forced = await admin(['restore', file, '--force'], fresh);
    expect(forced.code, forced.out).toBe(0);
    expect(forced.out).toMatch(/the database that was there is kept in .*pglite\.before-restore-/);

    // Stopped, the command takes the backup itself.
    const offline = await admin(['backup', join(dir, 'offline.backup')], fresh);
    expect(offline.code, offline.out).toBe(0);
    expect(offline.out).toMatch(/from the data directory \(no paylink was running\)/);
  });

  it("says what is wrong: no file, not a backup, nothing to back up, a master key that is missing or not the backup's", { timeout: 240_000 }, async () => {
    const dir = tempDir();
    const dataDir = join(dir, 'data');
    const key = randomBytes(32).toString('base64');
    expect((await admin(['backup'], { PAYLINK_DATA_DIR: dataDir })).out).toMatch(/usage: npm run admin -- backup FILE/);
    expect((await admin(['restore', join(dir, 'missing')], { PAYLINK_DATA_DIR: dataDir })).out).toMatch(/missing does not exist/);
    const junk = join(dir, 'junk');
    writeFileSync(junk, 'not a backup');
    const notBackup = await admin(['restore', junk], { PAYLINK_DATA_DIR: dataDir });
    expect(notBackup.code).toBe(1);
    expect(notBackup.out).toMatch(/junk is not a paylink backup/);
    const nothing = await admin(['backup', join(dir, 'b')], { PAYLINK_DATA_DIR: dataDir });
    expect(nothing.code).toBe(1);
    expect(nothing.out).toMatch(/there is no database in .*data\/pglite to back up/);

    // A database with sealed secrets (the seed's integrators), backed up, then restored without its key and with another.
    const seed = join(dir, 'seed.json');
    writeFileSync(seed, JSON.stringify(defaultSeed()));
    const p = startPaylink({ PAYLINK_DATA_DIR: dataDir, PAYLINK_MASTER_KEY: key, PAYLINK_SEED: seed });
    await p.ready;
    await stop(p);
    const file = join(dir, 'sealed.backup');
    expect((await admin(['backup', file], { PAYLINK_DATA_DIR: dataDir, PAYLINK_MASTER_KEY: key })).code).toBe(0);
    const noKey = await admin(['restore', file], { PAYLINK_DATA_DIR: join(dir, 'no-key') });
    expect(noKey.code).toBe(2);
    expect(noKey.out).toMatch(/master key: NOT FOUND/);
    const otherKey = await admin(['restore', file], { PAYLINK_DATA_DIR: join(dir, 'other-key'), PAYLINK_MASTER_KEY: randomBytes(32).toString('base64') });
    expect(otherKey.code).toBe(2);
    expect(otherKey.out).toMatch(/master key: the one configured here is NOT the backup's/);

    const onPostgres = await admin(['backup', join(dir, 'pg')], { PAYLINK_DATA_DIR: dataDir, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(onPostgres.code).toBe(1);
    expect(onPostgres.out).toMatch(/with PostgreSQL \(DATABASE_URL\), back up with pg_dump and restore with pg_restore/);
  });
});

const databaseUrl = process.env.DATABASE_URL;
const hasPgTools = spawnSync('pg_dump', ['--version']).status === 0 && spawnSync('pg_restore', ['--version']).status === 0;

/** The commands docs/deploy.md gives for PostgreSQL, run as written there. */
describe.runIf(databaseUrl && hasPgTools)('backup and restore on PostgreSQL (pg_dump, pg_restore)', () => {
  const suffix = randomBytes(4).toString('hex');
  const names = [`paylink_backup_${suffix}`, `paylink_restored_${suffix}`];
  const adminDb = new pg.Client({ connectionString: databaseUrl });
  afterAll(async () => {
    for (const name of names) await adminDb.query(`drop database if exists ${name} with (force)`).catch(() => {});
    await adminDb.end();
  });
  const urlOf = (name: string) => {
    const url = new URL(databaseUrl!);
    url.pathname = `/${name}`;
    return url.toString();
  };

  it('a pg_dump taken while paylink runs, restored with pg_restore into a new database, has every payment', { timeout: 180_000 }, async () => {
    await adminDb.connect();
    for (const name of names) await adminDb.query(`create database ${name}`);
    const dir = tempDir();
    const seed = join(dir, 'seed.json');
    writeFileSync(seed, JSON.stringify(defaultSeed()));
    mkdirSync(join(dir, 'data'));
    const env = { PAYLINK_MASTER_KEY: randomBytes(32).toString('base64'), PAYLINK_SEED: seed, PAYLINK_DATA_DIR: join(dir, 'data') };
    const file = join(dir, 'paylink.dump');
    const running = startPaylink({ ...env, DATABASE_URL: urlOf(names[0]!) });
    const ids: string[] = [];
    try {
      const base = await running.ready;
      for (let i = 0; i < 3; i++) ids.push(await payOverHttp(base, { token: TEST_TOKEN, slug: 'acme-books', reference: `pg-${i}` }));
      const dumped = spawnSync('pg_dump', ['--format=custom', '--no-owner', `--file=${file}`, urlOf(names[0]!)], { encoding: 'utf8' });
      expect(dumped.status, dumped.stderr).toBe(0);
    } finally {
      await stop(running);
    }
    const restoredDb = spawnSync('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${urlOf(names[1]!)}`, file], { encoding: 'utf8' });
    expect(restoredDb.status, restoredDb.stderr).toBe(0);
    const back = startPaylink({ ...env, DATABASE_URL: urlOf(names[1]!) });
    try {
      const base = await back.ready;
      for (const id of ids) expect((await transactionOverHttp(base, TEST_TOKEN, id)).transaction?.status, id).toBe('succeeded');
    } finally {
      await stop(back);
    }
  });
});
