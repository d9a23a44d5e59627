import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import type { SandboxConnector } from '../../src/acquirer/sandbox-connector.ts';
import { createApp, type PaylinkApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { applyProvisioning } from '../../src/domain/integrators/provisioning.ts';
import { type AstroHandler, closeServer, createHttpServer, listen } from '../../src/http/server.ts';
import { createLogger } from '../../src/log.ts';
import type { Seed } from '../../src/schemas/provisioning.ts';
import { CARD_EXPIRY } from './cards.ts';
import { adminUrl } from './paths.ts';
import { recordStatusCodesOf } from './status-codes-seen.ts';

export const testDb = (process.env.PAYLINK_TEST_DB ?? 'pglite') as 'pglite' | 'postgres';

export interface TestApp {
  app: PaylinkApp;
  /** Every log line the app wrote (JSON strings). */
  logs: string[];
  dataDir: string;
  databaseUrl?: string;
  close(): Promise<void>;
}

/** A fresh database for one test file (PostgreSQL: a new database copied from the template). */
export async function createTestDatabaseUrl(): Promise<string> {
  const name = `paylink_t_${inject('paylinkRunId')}_${randomBytes(4).toString('hex')}`;
  const template = inject('paylinkPgTemplate');
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`create database ${name} template ${template}`);
        break;
      } catch (error) {
        // Two files copying the template at once: "source database is being accessed by other users".
        if (attempt > 50 || !/being accessed by other users/.test((error as Error).message)) throw error;
        await new Promise((r) => setTimeout(r, 50 + Math.random() * 150));
      }
    }
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/** Many tests pay, decline and authenticate far more often than a customer would. */
const VELOCITY_LIMITS_OFF = {
  PAYLINK_LIMIT_CARD_ATTEMPTS_PER_IP: 'off',
  PAYLINK_LIMIT_CARD_ATTEMPTS_PER_LINK: 'off',
  PAYLINK_LIMIT_DECLINES_PER_CARD: 'off',
  PAYLINK_LIMIT_DECLINE_REASONS: 'off',
  PAYLINK_LIMIT_API_REQUESTS: 'off',
  PAYLINK_LIMIT_AUTH_FAILURES: 'off',
  PAYLINK_LIMIT_SIGN_IN_FAILURES: 'off',
};

/**
 * A PaylinkApp on a fresh database: PGlite in memory from the migrated template, or a new
 * PostgreSQL database (PAYLINK_TEST_DB=postgres, or `db: 'postgres'`). Logs are captured.
 * `pgliteOnDisk`: PGlite in the data directory instead, unpacked from the build's template and
 * migrated, as `npm start` opens it (benchmarks; needs `npm run build`).
 */
export async function createTestApp(
  opts: { env?: Record<string, string>; now?: () => Date; databaseUrl?: string; db?: 'pglite' | 'postgres'; pgliteOnDisk?: boolean } = {},
): Promise<TestApp> {
  const kind = opts.db ?? testDb;
  const dataDir = mkdtempSync(join(tmpdir(), 'paylink-test-'));
  const logs: string[] = [];
  const databaseUrl = kind === 'postgres' ? (opts.databaseUrl ?? (await createTestDatabaseUrl())) : undefined;
  const config = loadConfig({
    PAYLINK_DATA_DIR: dataDir,
    PAYLINK_MASTER_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'debug',
    PAYLINK_ALLOW_PRIVATE_CALLBACKS: '1',
    // Many tests pay, decline and authenticate far more often than a customer would: the
    // velocity limits are off unless a test sets them (tests/integration/rate-limits.test.ts).
    ...VELOCITY_LIMITS_OFF,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...opts.env,
  });
  const app = await createApp({
    config,
    now: opts.now,
    log: createLogger('debug', (line) => logs.push(line)),
    database:
      kind !== 'pglite'
        ? {}
        : opts.pgliteOnDisk
          ? { pgliteTemplate: join(process.cwd(), 'dist', 'paylink', 'pglite-template.tar.gz'), migrationsFolder: join(process.cwd(), 'drizzle') }
          : { pgliteLoadDataDir: new Blob([readFileSync(inject('paylinkPgliteTemplate'))]) },
  });
  return {
    app,
    logs,
    dataDir,
    databaseUrl,
    async close() {
      await app.database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const TEST_TOKEN = 'test_token_acme_0123456789abcdefghijklmnop';
export const TEST_SECRET = 'test_secret_acme_0123456789abcdefghijklmnop';
export const OTHER_TOKEN = 'test_token_other_0123456789abcdefghijklmnop';
export const OTHER_SECRET = 'test_secret_other_0123456789abcdefghijklmno';

/**
 * Console users of the default seed. Their Argon2id hashes are seeded (password_hash) so that
 * provisioning a test app does not spend three Argon2 hashes per file.
 */
export const CONSOLE_USERS = {
  acmeOwner: { email: 'owner@acme.example', password: 'acme owner passphrase 1' },
  acmeStaff: { email: 'staff@acme.example', password: 'acme staff passphrase 2' },
  otherOwner: { email: 'owner@other.example', password: 'other owner passphrase 3' },
} as const;

/** The seed most tests start from: two integrators, a fixed-amount link and a sandbox card each. */
export function defaultSeed(): Seed {
  return {
    integrators: [
      {
        name: 'Acme Books',
        email: 'billing@acme.example',
        token: TEST_TOKEN,
        secret: TEST_SECRET,
        refund_capabilities: {},
        links: [
          { slug: 'acme-books', title: 'Acme Books', currency: 'PHP', amount: '250.00', labels: {}, fields: {}, active: true },
          { slug: 'acme-open', title: 'Acme donation', currency: 'PHP', labels: {}, fields: {}, active: true },
        ],
        cards: [{ reference: '6f1c1b0e-8a53-4d0e-9d0e-2f5b2a1c9e11', number: '4242424242424242', expiry: CARD_EXPIRY, holder: 'Juan Dela Cruz' }],
        users: [
          {
            email: CONSOLE_USERS.acmeOwner.email,
            password_hash: '$argon2id$v=19$m=19456,t=2,p=1$8OdGoAtz6CZPznFw1Z8mPQ$v6dd537KJWnp39SKPNxTSkKRUwAuryWZLQlbIIYDcOk',
            role: 'owner',
          },
          {
            email: CONSOLE_USERS.acmeStaff.email,
            password_hash: '$argon2id$v=19$m=19456,t=2,p=1$ZpR3CY2cuuJVBdo5iqIuXg$F3VBnPx42beB7Tz5pf/+FEdkz+sLv/MSdPBieZnzf/M',
            role: 'staff',
          },
        ],
      },
      {
        name: 'Other Shop',
        email: 'ops@other.example',
        token: OTHER_TOKEN,
        secret: OTHER_SECRET,
        refund_capabilities: {},
        links: [{ slug: 'other-shop', title: 'Other Shop', currency: 'USD', amount: '10.00', labels: {}, fields: {}, active: true }],
        cards: [{ reference: '0b7e2f4a-1c3d-4e5f-8a9b-0c1d2e3f4a5b', number: '5555555555554444', expiry: CARD_EXPIRY }],
        users: [
          {
            email: CONSOLE_USERS.otherOwner.email,
            password_hash: '$argon2id$v=19$m=19456,t=2,p=1$47OH9FWwpadY6hfQ81eSkw$tLbcekAu4nfCfyVkET6z3XdU8V/isJca9WdhFcycLO0',
            role: 'owner',
          },
        ],
      },
    ],
  };
}

export async function provision(t: TestApp, seed: Seed = defaultSeed()) {
  const path = join(t.dataDir, `seed-${randomBytes(4).toString('hex')}.json`);
  writeFileSync(path, JSON.stringify(seed));
  return applyProvisioning(t.app, path);
}

/** Serves the built Astro app (dist/) with this app on a free port. */
export async function startTestServer(app: PaylinkApp): Promise<{ url: string; close(): Promise<void> }> {
  // The real path pins this server to the build it started with, even if dist is switched meanwhile.
  const build = realpathSync(join(process.cwd(), 'dist'));
  const { handler } = (await import(join(build, 'server/entry.mjs'))) as { handler: AstroHandler };
  const server = createHttpServer(app, { astroHandler: handler, clientDir: join(build, 'client') });
  recordStatusCodesOf(server);
  app.boundPort = await listen(server, '127.0.0.1', 0);
  return { url: `http://127.0.0.1:${app.boundPort}`, close: () => closeServer(server, 1000) };
}

/** JSON call helper: returns status, headers and parsed body. */
export async function call(
  base: string,
  method: string,
  path: string,
  opts: { body?: unknown; raw?: string; headers?: Record<string, string>; token?: string | null } = {},
) {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token !== null) headers.authorization ??= opts.token ?? TEST_TOKEN;
  if (opts.body !== undefined || opts.raw !== undefined) headers['content-type'] ??= 'application/json';
  const res = await fetch(base + path, { method, headers, body: opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)) });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

/**
 * For a test file: a fresh app, provisioned with `seed` and served over HTTP before its tests,
 * closed after them. Read `served.t` and `served.server` inside tests and hooks.
 */
export function useServedApp(opts: Parameters<typeof createTestApp>[0] = {}, seed: Seed = defaultSeed()) {
  const served = {} as { t: TestApp; server: { url: string; close(): Promise<void> } };
  beforeAll(async () => {
    served.t = await createTestApp(opts);
    await provision(served.t, seed);
    served.server = await startTestServer(served.t.app);
  });
  afterAll(async () => {
    await served.server?.close();
    await served.t?.close();
  });
  return served;
}

/** The sandbox connector: tests charge its acquirer directly, or stand in for it (`sandboxOf(app).acquirer = …`). */
export const sandboxOf = (app: PaylinkApp) => app.connectors.sandbox as SandboxConnector;
