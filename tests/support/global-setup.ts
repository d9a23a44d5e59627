import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { buildAll, isStale } from '../../scripts/build.mjs';
import { adminUrl, tmpDir } from './paths.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite: path of the dumped template data dir. PostgreSQL: the template database. */
    paylinkTemplate: string;
    paylinkRunId: string;
  }
}

/**
 * Once per run: build dist/ if stale (HTTP tests serve the real Astro build), and prepare a
 * migrated database template so no test file pays for initdb or migrations.
 */
export default async function setup(project: TestProject) {
  mkdirSync(tmpDir, { recursive: true });
  if (isStale()) await buildAll({ quiet: true, ifStale: true });
  const kind = project.config.env.PAYLINK_TEST_DB;
  // Names unique to this run, so concurrent runs on one machine never share a template.
  const runId = `${process.pid}_${Date.now().toString(36)}`;
  const TEMPLATE_DB = `paylink_tpl_${runId}`;
  const templateDumpPath = join(tmpDir, `pglite-template-${runId}.tar`);
  project.provide('paylinkTemplate', kind === 'postgres' ? TEMPLATE_DB : templateDumpPath);
  project.provide('paylinkRunId', runId);
  if (kind === 'postgres') {
    const admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`, [TEMPLATE_DB]);
    await admin.query(`drop database if exists ${TEMPLATE_DB}`);
    await admin.query(`create database ${TEMPLATE_DB}`);
    const url = new URL(adminUrl());
    url.pathname = `/${TEMPLATE_DB}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    await client.query('set client_min_messages = warning');
    const { migrate: migratePg } = await import('drizzle-orm/node-postgres/migrator');
    const { drizzle: drizzlePg } = await import('drizzle-orm/node-postgres');
    await migratePg(drizzlePg({ client }), { migrationsFolder: join(process.cwd(), 'drizzle') });
    await client.end();
    return async () => {
      const { rows } = await admin.query(`select datname from pg_database where datname like $1 or datname = $2`, [`paylink_t_${runId}_%`, TEMPLATE_DB]);
      for (const { datname } of rows) await admin.query(`drop database if exists "${datname}" with (force)`).catch(() => {});
      await admin.end();
    };
  }
  const db = await PGlite.create();
  await migrate(drizzle({ client: db }), { migrationsFolder: join(process.cwd(), 'drizzle') });
  const dump = await db.dumpDataDir('none');
  writeFileSync(templateDumpPath, Buffer.from(await dump.arrayBuffer()));
  await db.close();
  return () => rmSync(templateDumpPath, { force: true });
}
