import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { type Database, openDatabase } from '../../../src/db/client.ts';
import { unpackPgliteTemplate } from '../../../src/db/pglite.ts';
import { createTestApp } from '../../support/app.ts';

/**
 * The embedded database's memory settings (src/db/pglite.ts, docs/deploy.md): a first start
 * unpacks the build's template instead of running initdb, and shared_buffers follows its setting.
 */
const template = join(process.cwd(), 'dist', 'paylink', 'pglite-template.tar.gz');
const dirs: string[] = [];
const open: Database[] = [];
afterAll(async () => {
  for (const database of open) await database.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const newDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'paylink-pglite-'));
  dirs.push(dir);
  return dir;
};

async function firstStart(dataDir: string): Promise<Database> {
  const database = await openDatabase({ dataDir, pgliteTemplate: template });
  open.push(database);
  await database.migrate();
  return database;
}

const systemIdentifier = async (database: Database) =>
  String(
    ((await database.db.execute(sql`select system_identifier::text as id from pg_control_system()`)) as unknown as { rows: { id: string }[] }).rows[0]!.id,
  );

describe('embedded database memory settings', () => {
  it('the build ships the template a first start unpacks', () => {
    expect(existsSync(template)).toBe(true);
  });

  it('a first start unpacks the template (no initdb): two new data directories share its system identifier, and both migrate and serve', async () => {
    const a = await firstStart(newDir());
    const b = await firstStart(newDir());
    expect(await systemIdentifier(a)).toBe(await systemIdentifier(b));
    for (const database of [a, b]) {
      const { rows } = (await database.db.execute(sql`select count(*)::int as n from integrators`)) as unknown as { rows: { n: number }[] };
      expect(rows[0]!.n).toBe(0);
    }
  });

  it('without a template a first start still works (initdb): its system identifier is its own', async () => {
    const withTemplate = await firstStart(newDir());
    const dataDir = newDir();
    const database = await openDatabase({ dataDir });
    open.push(database);
    await database.migrate();
    expect(await systemIdentifier(database)).not.toBe(await systemIdentifier(withTemplate));
  });

  it('leaves no half database behind the unpacking, and never unpacks over a directory that has anything in it', () => {
    const root = newDir();
    const dir = join(root, 'pglite');
    unpackPgliteTemplate(template, dir);
    expect(existsSync(join(dir, 'PG_VERSION'))).toBe(true);
    expect(readdirSync(root)).toEqual(['pglite']);

    const occupied = join(root, 'occupied');
    mkdirSync(occupied);
    writeFileSync(join(occupied, 'keep.txt'), 'mine');
    expect(() => unpackPgliteTemplate(template, occupied)).toThrow(/not empty/);
    expect(readdirSync(occupied)).toEqual(['keep.txt']);
  });

  it('runs PostgreSQL with 32 MB of shared_buffers, or what PAYLINK_PGLITE_SHARED_BUFFERS_MB says', async () => {
    const show = async (env: Record<string, string>) => {
      const t = await createTestApp({ env });
      try {
        const { rows } = (await t.app.db.execute(sql`show shared_buffers`)) as unknown as { rows: { shared_buffers: string }[] };
        return rows[0]!.shared_buffers;
      } finally {
        await t.close();
      }
    };
    expect(await show({})).toBe('32MB');
    expect(await show({ PAYLINK_PGLITE_SHARED_BUFFERS_MB: '16' })).toBe('16MB');
  });

  it('refuses a shared_buffers setting that is not a whole number of MB from 1 to 16384', () => {
    for (const value of ['0', '-4', '1.5', 'lots', '16385']) {
      expect(() => loadConfig({ PAYLINK_PGLITE_SHARED_BUFFERS_MB: value }), value).toThrow(ConfigError);
      expect(() => loadConfig({ PAYLINK_PGLITE_SHARED_BUFFERS_MB: value }), value).toThrow(/PAYLINK_PGLITE_SHARED_BUFFERS_MB/);
    }
  });
});
