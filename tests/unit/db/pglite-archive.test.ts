import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { pgliteArchiveFiles } from '../../../src/db/pglite.ts';

/** One ustar entry as PGlite's dumpDataDir writes it: a 512-byte header, then the body padded to 512. */
function entry(name: string, body: string, type = '0'): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 100, 'utf8');
  header.write(`${Buffer.byteLength(body).toString(8).padStart(11, '0')}\0`, 124, 12, 'utf8');
  header.write(type, 156, 1, 'utf8');
  header.write('ustar', 257, 6, 'utf8');
  const data = Buffer.from(body);
  return Buffer.concat([header, data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
}

const dir = mkdtempSync(join(tmpdir(), 'paylink-archive-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const archive = (name: string, tar: Buffer, gzip = true) => {
  const path = join(dir, name);
  writeFileSync(path, gzip ? gzipSync(tar) : tar);
  return path;
};

describe('pglite archive (backups and the template)', () => {
  it('lists the files of a data directory archive', () => {
    const path = archive('ok', Buffer.concat([entry('/global', '', '5'), entry('/PG_VERSION', '17\n'), entry('/global/pg_control', 'x'), Buffer.alloc(1024)]));
    expect(pgliteArchiveFiles(path)).toEqual(['PG_VERSION', join('global', 'pg_control')]);
  });

  it('refuses an entry that would land outside the data directory', () => {
    expect(() => pgliteArchiveFiles(archive('escape', entry('base/../../../etc/cron.d/evil', 'x')))).toThrow('the archive has an entry outside its directory');
  });

  it('refuses links and other entry types, and an archive cut short', () => {
    expect(() => pgliteArchiveFiles(archive('link', entry('/pg_wal', '', '2')))).toThrow('an entry of an unexpected type (2)');
    const whole = entry('/PG_VERSION', 'x'.repeat(2000));
    expect(() => pgliteArchiveFiles(archive('short', whole.subarray(0, 1024)))).toThrow('the archive is cut short in /PG_VERSION');
  });

  it('refuses a file that is not gzip', () => {
    expect(() => pgliteArchiveFiles(archive('plain', entry('/PG_VERSION', '17\n'), false))).toThrow(/incorrect header check/);
  });
});
