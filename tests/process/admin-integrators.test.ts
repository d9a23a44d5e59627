import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, integrators, operatorAudit } from '../../src/db/schema.ts';
import { findIntegratorByToken } from '../../src/domain/integrators/service.ts';
import { createTestApp, OTHER_TOKEN, provision, TEST_TOKEN, type TestApp } from '../support/app.ts';

/**
 * `npm run admin -- list-integrators | rotate-credentials | suspend | reactivate`, each as a child
 * process against a data directory (PGlite, the app closed first: the embedded database is one
 * process's) and, when DATABASE_URL is set, against PostgreSQL beside a running app, which sees the
 * change at once (NOTIFY). Text and --json; one-line errors and exit codes 2 (usage) and 3 (unknown id).
 */
// Each command is a process that opens the database (a few seconds on PGlite): a test runs several.
vi.setConfig({ testTimeout: 180_000 });

type Deployment = { env: Record<string, string>; t: TestApp; live: boolean; acmeId: string };

function admin(env: Record<string, string>, ...args: string[]) {
  const run = spawnSync('npm', ['run', '-s', 'admin', '--', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    encoding: 'utf8',
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, json: () => JSON.parse(run.stdout) };
}

async function deployment(db: 'pglite' | 'postgres'): Promise<Deployment> {
  const t = await createTestApp(db === 'pglite' ? { db, pgliteOnDisk: true } : { db });
  await provision(t);
  const acmeId = (await findIntegratorByToken(t.app.db, TEST_TOKEN))!.id;
  const env: Record<string, string> = { PAYLINK_DATA_DIR: t.dataDir, PAYLINK_MASTER_KEY: t.app.config.masterKey! };
  if (t.databaseUrl) env.DATABASE_URL = t.databaseUrl;
  // The embedded database is one process's at a time: the command runs once paylink stopped.
  if (db === 'pglite') await t.app.database.close();
  return { env, t, live: db === 'postgres', acmeId };
}

const databases = (['pglite', 'postgres'] as const).filter((db) => db === 'pglite' || process.env.DATABASE_URL);

describe.each(databases)('npm run admin on %s', (db) => {
  let d: Deployment;
  beforeAll(async () => {
    d = await deployment(db);
  });
  afterAll(async () => {
    if (d?.live) await d.t.close();
    else if (d) rmSync(d.t.dataDir, { recursive: true, force: true });
  });

  /** Reads the deployment's database: the live app's, or a fresh one on the closed data directory. */
  async function withDb<T>(read: (t: TestApp) => Promise<T>): Promise<T> {
    if (d.live) return read(d.t);
    const t = await createTestApp({ db: 'pglite', pgliteOnDisk: true, env: { PAYLINK_DATA_DIR: d.t.dataDir, PAYLINK_MASTER_KEY: d.env.PAYLINK_MASTER_KEY! } });
    try {
      return await read(t);
    } finally {
      await t.app.database.close();
    }
  }

  it('list-integrators prints one line per integrator, and JSON with --json', () => {
    const text = admin(d.env, 'list-integrators');
    expect(text.stderr).toBe('');
    expect(text.status).toBe(0);
    expect(text.stdout).toContain(`${d.acmeId}  Acme Books <billing@acme.example>  active`);
    expect(text.stdout.trim().split('\n')).toHaveLength(2);
    const json = admin(d.env, 'list-integrators', '--json');
    expect(json.status).toBe(0);
    expect(json.json()).toEqual({
      ok: true,
      integrators: expect.arrayContaining([
        {
          id: d.acmeId,
          name: 'Acme Books',
          email: 'billing@acme.example',
          status: 'active',
          suspended_at: null,
          suspended_reason: null,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      ]),
    });
  });

  it('suspend ID --reason and reactivate ID change it once, audited; again they say nothing changed', async () => {
    const suspended = admin(d.env, 'suspend', d.acmeId, '--reason', 'KYC documents expired', '--json');
    expect(suspended.stderr).toBe('');
    expect(suspended.status).toBe(0);
    expect(suspended.json()).toMatchObject({
      ok: true,
      changed: true,
      integrator: { id: d.acmeId, status: 'suspended', suspended_reason: 'KYC documents expired', suspended_at: expect.any(String) },
    });
    if (d.live) {
      // The running app serves it as suspended at once: its token cache was emptied by NOTIFY.
      await expect.poll(async () => (await d.t.app.tokenCache.find(TEST_TOKEN, new Date()))?.suspendedAt ?? null, { timeout: 3_000 }).not.toBeNull();
    }
    const again = admin(d.env, 'suspend', d.acmeId, '--reason', 'other');
    expect(again.status).toBe(0);
    expect(again.stdout).toBe(`${d.acmeId} (Acme Books) was already suspended; nothing changed\n`);
    expect(admin(d.env, 'list-integrators').stdout).toContain(`Acme Books <billing@acme.example>  suspended since `);

    const reactivated = admin(d.env, 'reactivate', d.acmeId);
    expect(reactivated.status).toBe(0);
    expect(reactivated.stdout).toBe(`${d.acmeId} (Acme Books) reactivated\n`);
    expect(admin(d.env, 'reactivate', d.acmeId, '--json').json()).toMatchObject({ ok: true, changed: false, integrator: { status: 'active' } });

    const audit = await withDb((t) =>
      t.app.db.select({ action: auditLog.action, by: auditLog.actorEmail }).from(auditLog).where(eq(auditLog.integratorId, d.acmeId)),
    );
    expect(audit.filter((a) => a.action.startsWith('integrator.'))).toEqual([
      { action: 'integrator.suspended', by: expect.stringMatching(/^admin command \(.+\)$/) },
      { action: 'integrator.reactivated', by: expect.stringMatching(/^admin command \(.+\)$/) },
    ]);
    // The operator log tells the same story, from the shell (no operator signed in), once per change.
    const operatorLog = await withDb((t) =>
      t.app.db
        .select({
          action: operatorAudit.action,
          operatorId: operatorAudit.operatorId,
          by: operatorAudit.operatorEmail,
          target: operatorAudit.target,
          via: operatorAudit.userAgent,
        })
        .from(operatorAudit)
        .where(eq(operatorAudit.integratorId, d.acmeId)),
    );
    expect(operatorLog).toEqual([
      {
        action: 'integrator.suspended',
        operatorId: null,
        by: expect.stringMatching(/^admin command \(.+\)$/),
        target: 'Acme Books: KYC documents expired',
        via: 'paylink shell',
      },
      {
        action: 'integrator.reactivated',
        operatorId: null,
        by: expect.stringMatching(/^admin command \(.+\)$/),
        target: 'Acme Books: suspended for: KYC documents expired',
        via: 'paylink shell',
      },
    ]);
  });

  it('rotate-credentials ID prints a new token and secret once; the old token stops, the new one opens the integrator', async () => {
    const text = admin(d.env, 'rotate-credentials', d.acmeId);
    expect(text.status).toBe(0);
    const token = /API token: {2}(\S+)/.exec(text.stdout)?.[1];
    expect(token).toMatch(/^pl_/);
    expect(text.stdout).toMatch(/JWT secret: \S{43}/);
    expect(text.stdout).toContain('the old ones stopped working now');
    const json = admin(d.env, 'rotate-credentials', d.acmeId, '--overlap', '1h', '--json').json();
    expect(json).toMatchObject({ ok: true, integrator_id: d.acmeId, api_token: expect.stringMatching(/^pl_/), previous_valid_until: expect.any(String) });
    expect(json.jwt_secret).toMatch(/^\S{43}$/);
    await withDb(async (t) => {
      expect(await findIntegratorByToken(t.app.db, TEST_TOKEN)).toBeUndefined();
      expect((await findIntegratorByToken(t.app.db, token!))?.id).toBe(d.acmeId); // replaced, but inside the 1 h overlap
      expect((await findIntegratorByToken(t.app.db, json.api_token))?.id).toBe(d.acmeId);
      expect((await findIntegratorByToken(t.app.db, OTHER_TOKEN))?.id).not.toBe(d.acmeId);
    });
  });

  it('refuses unknown ids, missing and unknown arguments with one line and its exit code, changing nothing', async () => {
    const unknown = admin(d.env, 'suspend', 'int_nobody', '--reason', 'x');
    expect(unknown.status).toBe(3);
    expect(unknown.stderr).toBe('admin: no integrator with id "int_nobody"; npm run admin -- list-integrators lists them\n');
    expect(unknown.stdout).toBe('');
    expect(admin(d.env, 'reactivate', 'int_nobody', '--json').json()).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'no integrator with id "int_nobody"; npm run admin -- list-integrators lists them' },
    });
    expect(admin(d.env, 'rotate-credentials', 'int_nobody').status).toBe(3);
    const cases: [string[], RegExp][] = [
      [['suspend', d.acmeId], /^admin: suspend needs --reason TEXT/],
      [['suspend', d.acmeId, '--reason', '   '], /^admin: reason is required: say why the integrator is suspended\n$/],
      [['suspend', '--reason', 'x'], /^admin: suspend needs the integrator's id/],
      [['reactivate', d.acmeId, 'extra'], /^admin: unexpected argument "extra"/],
      [['reactivate', d.acmeId, '--reason', 'x'], /^admin: reactivate takes no --reason/],
      [['rotate-credentials', d.acmeId, '--overlap', '2y'], /^admin: --overlap must be one of none, 1h, 24h, 7d/],
      [['list-integrators', '--bogus'], /^admin: Unknown option '--bogus'/],
      [['frobnicate'], /^admin: unknown command "frobnicate"/],
      [[], /^admin: no command given/],
    ];
    for (const [args, message] of cases) {
      const run = admin(d.env, ...args);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(message);
      expect(run.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
    const json = admin(d.env, 'suspend', d.acmeId, '--json');
    expect(json.status).toBe(2);
    expect(json.json()).toMatchObject({ ok: false, error: { code: 'usage' } });
    const row = await withDb(async (t) => (await t.app.db.select().from(integrators).where(eq(integrators.id, d.acmeId)))[0]!);
    expect(row.suspendedAt).toBeNull();
  });
});

describe('npm run admin without a database', () => {
  it('says there is none rather than making one in a mistyped data directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paylink-admin-empty-'));
    try {
      const run = admin({ PAYLINK_DATA_DIR: dir }, 'list-integrators');
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(`admin: no paylink database in ${dir}: set PAYLINK_DATA_DIR (or DATABASE_URL) as for npm start\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
