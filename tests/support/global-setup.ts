import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { buildAll, isStale } from '../../scripts/build.mjs';
import { tmpDir } from './paths.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of the dumped, migrated PGlite data dir every test app starts from. */
    paylinkPgliteTemplate: string;
    /** The migrated PostgreSQL template database (when DATABASE_URL is set). */
    paylinkPgTemplate: string;
    paylinkRunId: string;
  }
}

const migrationsFolder = join(process.cwd(), 'drizzle');

/**
 * Once per run: build dist/ if stale (HTTP tests serve the real Astro build), and prepare
 * migrated database templates so no test file pays for initdb or migrations. Names are unique
 * to the run, so concurrent runs on one machine never share a template.
 */
export default async function setup(project: TestProject) {
  mkdirSync(tmpDir, { recursive: true });
  if (isStale()) await buildAll({ quiet: true, ifStale: true });
  const runId = `${process.pid}_${Date.now().toString(36)}`;
  project.provide('paylinkRunId', runId);

  const templateDumpPath = join(tmpDir, `pglite-template-${runId}.tar`);
  const db = await PGlite.create();
  await migrate(drizzle({ client: db }), { migrationsFolder });
  const dump = await db.dumpDataDir('none');
  writeFileSync(templateDumpPath, Buffer.from(await dump.arrayBuffer()));
  await db.close();
  project.provide('paylinkPgliteTemplate', templateDumpPath);

  let admin: pg.Client | undefined;
  const templateDb = `paylink_tpl_${runId}`;
  project.provide('paylinkPgTemplate', templateDb);
  if (process.env.DATABASE_URL) {
    admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${templateDb}`);
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${templateDb}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    await client.query('set client_min_messages = warning');
    await migratePg(drizzlePg({ client }), { migrationsFolder });
    await client.end();
  }

  return async () => {
    rmSync(templateDumpPath, { force: true });
    if (admin) {
      const { rows } = await admin.query(`select datname from pg_database where datname like $1 or datname = $2`, [`paylink_t_${runId}_%`, templateDb]);
      for (const { datname } of rows) await admin.query(`drop database if exists "${datname}" with (force)`).catch(() => {});
      await admin.end();
    }
  };
}
