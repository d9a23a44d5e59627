import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { makeTreePrivate } from '../data-dir.ts';
import { acquireDataDirLock, type DataDirLock } from './lock.ts';
import { createPglite, forDrizzle, pgliteDataDirIsNew, unpackPgliteTemplate, unpackPgliteTemplateDurably } from './pglite.ts';
import { PgliteDiskSync, type PgliteSync } from './pglite-sync.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
// biome-ignore lint/suspicious/noExplicitAny: drizzle types a transaction's relations config this way
export type Tx = PgTransaction<PgQueryResultHKT, Schema, any>;
/** Either the database or an open transaction: services accept both. */
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Applies the committed SQL migrations (serialised across processes on PostgreSQL). */
  migrate(): Promise<void>;
  ping(): Promise<void>;
  /** PostgreSQL: the connection pool's connections and the queries waiting for one (metrics). */
  poolStats?(): { total: number; idle: number; waiting: number };
  /**
   * Calls `onNotify` with its payload for each NOTIFY on `channel` (after the notifying transaction
   * commits), from any process on PostgreSQL. On PostgreSQL it holds one connection of its own,
   * reconnecting after a loss (and calling `onNotify` then without a payload: any notification may
   * have been missed meanwhile).
   * Resolves to a function that stops listening.
   */
  listen(channel: string, onNotify: (payload?: string) => void): Promise<() => Promise<void>>;
  /**
   * PGlite on disk: a consistent copy of the data directory (a gzipped tar, as PGlite's
   * dumpDataDir writes it), taken while the database stays open (src/db/backup.ts).
   */
  backup?(): Promise<Buffer>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
  /** Start PGlite from a dumped data directory (tests), in memory. */
  pgliteLoadDataDir?: Blob;
  /** Keep PGlite in memory (tests, benchmarks). */
  inMemory?: boolean;
  migrationsFolder?: string;
  /** PGlite's shared_buffers in MB (src/db/pglite.ts). */
  pgliteSharedBuffersMb?: number;
  /** The prepared data directory a fresh PGlite data directory is unpacked from (the build's). */
  pgliteTemplate?: string;
  /** Whether an on-disk PGlite flushes its log before a commit returns (src/db/pglite-sync.ts); default `commit`. */
  pgliteSync?: PgliteSync;
}

const gzipAsync = promisify(gzip);

export const defaultMigrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

// Postgres returns int8 as string; drizzle's bigint mode converts it. Keep timestamptz as Date.
const MIGRATION_LOCK_ID = 7_450_231_001;

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const migrationsFolder = options.migrationsFolder ?? defaultMigrationsFolder;
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    pool.on('error', () => {
      /* idle client errors surface on the next query */
    });
    const db = drizzlePg({ client: pool, schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      async migrate() {
        const client = await pool.connect();
        try {
          await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
          await client.query('set client_min_messages = warning');
          try {
            await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
          } finally {
            await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
          }
        } finally {
          client.release();
        }
      },
      async ping() {
        await db.execute(sql`select 1`);
      },
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      listen: (channel, onNotify) => listenPg(options.databaseUrl as string, channel, onNotify),
      async close() {
        await pool.end();
      },
    };
  }

  const settings = { sharedBuffersMb: options.pgliteSharedBuffersMb };
  let lock: DataDirLock | undefined;
  let client: PGlite;
  /** On disk (not in memory): kept private, see src/data-dir.ts. */
  let pgliteDir: string | undefined;
  let diskSync: PgliteDiskSync | undefined;
  if (options.inMemory || options.pgliteLoadDataDir) {
    client = await createPglite({ loadDataDir: options.pgliteLoadDataDir }, settings);
  } else {
    lock = acquireDataDirLock(options.dataDir);
    try {
      const dir = join(options.dataDir, 'pglite');
      const durable = (options.pgliteSync ?? 'commit') === 'commit';
      if (options.pgliteTemplate && existsSync(options.pgliteTemplate) && pgliteDataDirIsNew(dir)) {
        if (durable) await unpackPgliteTemplateDurably(options.pgliteTemplate, dir);
        else unpackPgliteTemplate(options.pgliteTemplate, dir);
      } else mkdirSync(dir, { recursive: true, mode: 0o700 });
      pgliteDir = dir;
      if (durable) {
        const wrapped = PgliteDiskSync.fileSystem(dir);
        diskSync = wrapped.sync;
        client = await createPglite({ dataDir: dir, fs: wrapped.fs }, settings);
      } else client = await createPglite({ dataDir: dir }, settings);
      makeTreePrivate(dir);
    } catch (error) {
      lock.release();
      throw error;
    }
  }
  const db = drizzlePglite({ client: forDrizzle(client, diskSync), schema }) as unknown as Db;
  let closed = false;
  return {
    db,
    kind: 'pglite',
    async migrate() {
      await migratePglite(db as never, { migrationsFolder });
      if (pgliteDir) makeTreePrivate(pgliteDir);
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    ...(pgliteDir && {
      async backup() {
        // A checkpoint first, so the copy's data files hold every commit and a restore replays
        // little log. PGlite copies the files under its query lock, in one synchronous walk: no
        // statement writes meanwhile, and a transaction still open in the copy is rolled back by
        // the recovery a restored start runs (as after a crash).
        // Compressed after the lock is let go: gzip is most of the time a copy takes.
        await client.exec('CHECKPOINT');
        const dump = await client.dumpDataDir('none');
        return gzipAsync(Buffer.from(await dump.arrayBuffer()));
      },
    }),
    async listen(channel, onNotify) {
      const unlisten = await client.listen(channel, (payload) => onNotify(payload));
      return async () => {
        if (!closed) await unlisten();
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await client.close();
        // The shutdown checkpoint's pg_control, and anything else still only in the page cache.
        await diskSync?.close();
        if (pgliteDir) makeTreePrivate(pgliteDir);
      } finally {
        lock?.release();
      }
    },
  };
}

const LISTEN_RETRY_MAX_MS = 30_000;

/** LISTEN on a connection outside the pool (a pooled one would be handed to queries). */
async function listenPg(connectionString: string, channel: string, onNotify: (payload?: string) => void): Promise<() => Promise<void>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString });
    c.on('notification', (n) => {
      if (n.channel === channel) onNotify(n.payload ?? '');
    });
    c.on('error', () => reconnect(c));
    c.on('end', () => reconnect(c));
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
    } catch (error) {
      await c.end().catch(() => {});
      throw error;
    }
    if (stopped) {
      await c.end().catch(() => {});
      return;
    }
    client = c;
    failures = 0;
  };
  const reconnect = (lost: pg.Client) => {
    if (stopped || client !== lost) return;
    client = undefined;
    lost.end().catch(() => {});
    const attempt = () => {
      retry = undefined;
      if (stopped) return;
      connect().then(
        () => onNotify(),
        () => {
          failures++;
          retry = setTimeout(attempt, Math.min(250 * 2 ** failures, LISTEN_RETRY_MAX_MS));
          retry.unref();
        },
      );
    };
    attempt();
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const c = client;
    client = undefined;
    await c?.end().catch(() => {});
  };
}
