import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPglite, forDrizzle } from '../../../src/db/pglite.ts';
import { PgliteDiskSync } from '../../../src/db/pglite-sync.ts';

/** The disk refusing a flush of the log (EIO), as src/db/pglite-sync.ts sees it from node:fs. */
const disk = vi.hoisted(() => ({ failing: false }));
vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>();
  const fdatasync = (fd: number, done: (error: NodeJS.ErrnoException | null) => void) =>
    disk.failing ? done(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' })) : fs.fdatasync(fd, done);
  return { ...fs, default: { ...fs, fdatasync }, fdatasync };
});

describe('pglite sync › a flush the disk refuses', () => {
  let dir: string;
  let client: PGlite;
  let sync: PgliteDiskSync;
  let db: ReturnType<typeof drizzle>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'paylink-sync-eio-'));
    const durable = PgliteDiskSync.fileSystem(dir);
    sync = durable.sync;
    client = await createPglite({ dataDir: dir, fs: durable.fs });
    await client.exec('create table notes (id serial primary key, body text)');
    db = drizzle({ client: forDrizzle(client, sync) });
  });
  afterAll(async () => {
    disk.failing = false;
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails the commit that waited for it, and every later one until a restart, saying so', async () => {
    await db.execute(sql`insert into notes (body) values (${'before'})`);
    disk.failing = true;
    await expect(db.transaction((tx) => tx.execute(sql`insert into notes (body) values (${'refused'})`))).rejects.toThrow(
      /the disk refused to flush the embedded database's write-ahead log; restart paylink \(EIO/,
    );
    // The disk answers again, but what it dropped is not known to be there: still refused.
    disk.failing = false;
    for (const statement of [sql`insert into notes (body) values (${'after'})`, sql`select count(*) from notes`]) {
      // Drizzle wraps what a statement throws ("Failed query: …"), the reason as its cause.
      const error = await Promise.resolve(db.execute(statement)).then(
        () => undefined,
        (e: Error) => e,
      );
      expect((error?.cause as Error | undefined)?.message).toMatch(/restart paylink/);
    }
  });
});
