import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
import { createPglite, pgliteDataDirIsNew, unpackPgliteTemplate } from './pglite.ts';
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
}

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
  if (options.inMemory || options.pgliteLoadDataDir) {
    client = await createPglite({ loadDataDir: options.pgliteLoadDataDir }, settings);
  } else {
    lock = acquireDataDirLock(options.dataDir);
    try {
      const dir = join(options.dataDir, 'pglite');
      if (options.pgliteTemplate && existsSync(options.pgliteTemplate) && pgliteDataDirIsNew(dir)) unpackPgliteTemplate(options.pgliteTemplate, dir);
      else mkdirSync(dir, { recursive: true, mode: 0o700 });
      pgliteDir = dir;
      client = await createPglite({ dataDir: dir }, settings);
      makeTreePrivate(dir);
    } catch (error) {
      lock.release();
      throw error;
    }
  }
  const db = drizzlePglite({ client, schema }) as unknown as Db;
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
    async close() {
      if (closed) return;
      closed = true;
      try {
        await client.close();
        if (pgliteDir) makeTreePrivate(pgliteDir);
      } finally {
        lock?.release();
      }
    },
  };
}
