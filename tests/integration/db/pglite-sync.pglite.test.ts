import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommitFlush, createPglite, forDrizzle } from '../../../src/db/pglite.ts';
import { PgliteDiskSync } from '../../../src/db/pglite-sync.ts';

/**
 * The embedded database flushes its write-ahead log before a commit returns (src/db/pglite-sync.ts,
 * PAYLINK_PGLITE_SYNC=commit). That the flush of the log file comes after its last write and before
 * the HTTP answer is shown on the built server with strace (tests/process/pglite-sync.test.ts); here,
 * where the flush is waited for and how often it happens.
 */

/** A log flush that is held until the test lets it go. */
function heldFlush() {
  let calls = 0;
  let release: () => void = () => {};
  const flush: CommitFlush = {
    afterCommit: () => {
      calls++;
      return new Promise<void>((resolve) => {
        release = resolve;
      });
    },
  };
  return { flush, calls: () => calls, release: () => release() };
}

const settled = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('pglite sync › where a commit waits', () => {
  let client: PGlite;
  const held = heldFlush();
  let db: ReturnType<typeof drizzle>;
  beforeAll(async () => {
    client = await createPglite({});
    await client.exec('create table notes (id serial primary key, body text)');
    db = drizzle({ client: forDrizzle(client, held.flush) });
  });
  afterAll(() => client.close());

  it('a transaction returns to its caller only after the log flush, and its statements do not wait for one each', async () => {
    const calls = held.calls();
    const committed = db.transaction(async (tx) => {
      await tx.execute(sql`insert into notes (body) values (${'a'})`);
      await tx.execute(sql`insert into notes (body) values ('b')`);
      return 'done';
    });
    expect(await settled(committed)).toBe(false);
    expect(held.calls()).toBe(calls + 1);
    held.release();
    expect(await committed).toBe('done');
  });

  it('a statement outside a transaction returns only after the log flush, with or without parameters', async () => {
    for (const statement of [sql`insert into notes (body) values (${'c'})`, sql`insert into notes (body) values ('d')`]) {
      const calls = held.calls();
      // Drizzle runs a query each time it is awaited: once here.
      const inserted = Promise.resolve(db.execute(statement));
      expect(await settled(inserted)).toBe(false);
      expect(held.calls()).toBe(calls + 1);
      held.release();
      await inserted;
    }
  });
});

describe('pglite sync › on a data directory', () => {
  let dir: string;
  let client: PGlite;
  let sync: PgliteDiskSync;
  let db: ReturnType<typeof drizzle>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'paylink-sync-'));
    const durable = PgliteDiskSync.fileSystem(dir);
    sync = durable.sync;
    // 1 MB of shared_buffers (128 pages): a large transaction pushes dirty pages out to the files.
    client = await createPglite({ dataDir: dir, fs: durable.fs }, { sharedBuffersMb: 1 });
    await client.exec('create table notes (id serial primary key, body text)');
    db = drizzle({ client: forDrizzle(client, sync) });
  });
  afterAll(async () => {
    await client.close();
    await sync.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('flushes the log once for each commit that wrote, and not for a read', async () => {
    const before = sync.counts.commitFlushes;
    for (let i = 0; i < 5; i++) await db.transaction((tx) => tx.execute(sql`insert into notes (body) values (${`n${i}`})`));
    expect(sync.counts.commitFlushes - before).toBe(5);
    await db.execute(sql`select count(*) from notes where body = ${'n1'}`);
    expect(sync.counts.commitFlushes - before).toBe(5);
  });

  it('concurrent commits share flushes (a group commit), and each is on the disk when it returns', async () => {
    const before = sync.counts.commitFlushes;
    await Promise.all(Array.from({ length: 50 }, (_, i) => db.transaction((tx) => tx.execute(sql`insert into notes (body) values (${`g${i}`})`))));
    const flushes = sync.counts.commitFlushes - before;
    expect(flushes).toBeGreaterThan(0);
    expect(flushes).toBeLessThan(50);
  });

  it('flushes the log before a data page leaves shared_buffers, but not for the empty pages that extend a table', async () => {
    const before = sync.counts.walFlushesBeforeData;
    // ~200 rows a page: these commits extend the table and its index by a few empty pages.
    for (let i = 0; i < 600; i++) await db.execute(sql`insert into notes (body) values (${`e${i}`})`);
    expect(sync.counts.walFlushesBeforeData).toBe(before);
    // 8 MB in one transaction through 1 MB of buffers: pages written out while its log is not flushed.
    await db.transaction((tx) => tx.execute(sql`insert into notes (body) select repeat('x', 1000) from generate_series(1, 8000)`));
    expect(sync.counts.walFlushesBeforeData).toBeGreaterThan(before);
  });

  it('starts a new log segment without flushing every file, and with the segment and pg_wal flushed', async () => {
    const segments = () => readdirSync(join(dir, 'pg_wal')).filter((name) => /^[0-9A-F]{24}$/.test(name)).length;
    const before = { ...sync.counts, segments: segments() };
    // ~20 MB of log in commits of ~1 MB: at least one 16 MB segment switch.
    for (let i = 0; i < 20; i++) await db.execute(sql`insert into notes (body) select repeat(${'s'}, 1000) from generate_series(1, 1000)`);
    expect(segments()).toBeGreaterThan(before.segments);
    expect(sync.counts.fullFlushes).toBe(before.fullFlushes);
    expect(sync.counts.walFilesFlushedAtClose).toBeGreaterThan(before.walFilesFlushedAtClose);
    expect(sync.counts.walDirectoryFlushes).toBeGreaterThan(before.walDirectoryFlushes);
  });

  it('flushes nothing for a sort spilled to a temporary file, even with the log unflushed', async () => {
    // No dirty page left in the small buffer pool to be pushed out meanwhile (that would flush, rightly).
    await db.execute(sql`checkpoint`);
    const before = { ...sync.counts };
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`insert into notes (body) values (${'while sorting'})`);
      await tx.execute(sql`set local work_mem = '64kB'`);
      return tx.execute(sql`explain (analyze, costs off) select g from generate_series(1, 200000) g order by g desc`);
    });
    expect(JSON.stringify(plan.rows)).toMatch(/external (merge|sort)/i);
    expect(sync.counts.walFlushesBeforeData).toBe(before.walFlushesBeforeData);
    expect(sync.counts.fullFlushes).toBe(before.fullFlushes);
  });

  it('flushes every written file before a checkpoint moves the redo point (pg_control)', async () => {
    await db.execute(sql`insert into notes (body) values (${'before the checkpoint'})`);
    const before = sync.counts.fullFlushes;
    await db.execute(sql`checkpoint`);
    expect(sync.counts.fullFlushes).toBeGreaterThan(before);
  });
});
