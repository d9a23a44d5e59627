import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startPaylink } from '../support/process.ts';

const databaseUrl = process.env.DATABASE_URL;
const migrationFiles = readdirSync('drizzle').filter((f) => f.endsWith('.sql')).length;

/**
 * Several processes started together on one empty PostgreSQL database (a rolling deploy, a
 * container scaled to N at once): the migrations run exactly once, and every process comes up.
 */
describe.runIf(databaseUrl)('concurrent starts on PostgreSQL', () => {
  const name = `paylink_concurrent_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  afterAll(async () => {
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => {});
    await admin.end();
  });

  it('four processes on an empty database: each migration applied once, all four ready', async () => {
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(databaseUrl!);
    url.pathname = `/${name}`;
    const masterKey = randomBytes(32).toString('base64');
    const processes = Array.from({ length: 4 }, () =>
      startPaylink({
        DATABASE_URL: url.toString(),
        PAYLINK_MASTER_KEY: masterKey,
        PAYLINK_DATA_DIR: mkdtempSync(join(tmpdir(), 'paylink-concurrent-')),
        DATABASE_POOL_SIZE: '3',
      }),
    );
    try {
      const urls = await Promise.all(processes.map((p) => p.ready));
      for (const base of urls) expect((await fetch(`${base}/readyz`)).status).toBe(200);
      const db = new pg.Client({ connectionString: url.toString() });
      await db.connect();
      try {
        const { rows } = await db.query('select hash, count(*)::int as n from drizzle.__drizzle_migrations group by hash');
        expect(rows).toHaveLength(migrationFiles);
        expect(rows.every((r: { n: number }) => r.n === 1)).toBe(true);
      } finally {
        await db.end();
      }
      for (const p of processes) expect(p.output()).not.toMatch(/error|already exists/i);
    } finally {
      for (const p of processes) p.child.kill('SIGTERM');
      await Promise.all(processes.map((p) => p.exited));
    }
  });
});
