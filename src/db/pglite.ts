import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { gunzipSync } from 'node:zlib';
import { type ParserOptions, PGlite, type PGliteInterface, type PGliteOptions, type QueryOptions, types } from '@electric-sql/pglite';

/**
 * How paylink runs the embedded database so that it fits a 512 MB machine (docs/deploy.md has the
 * measurements). Three things, each measured:
 *  - shared_buffers: PGlite keeps PostgreSQL's default of 128 MB, and all of it becomes resident
 *    in the WebAssembly heap at start. paylink asks for 32 MB (PAYLINK_PGLITE_SHARED_BUFFERS_MB);
 *    the data files are still cached by the operating system's page cache.
 *  - No optimising tier for PGlite's WebAssembly: V8 would, once queries run, recompile hot
 *    functions of postgres with TurboFan, and one of them (the SQL grammar's size) alone takes
 *    ~600 MB of compiler memory for half a second. Postgres runs on V8's baseline compiler
 *    (Liftoff) instead; the tier-up is switched off only while PGlite's module is compiled, so
 *    other WebAssembly (Argon2 in hash-wasm) still gets optimised; and its compiled code is kept
 *    through memory-reducing collections (recompiling it spiked the process by ~500 MB).
 *  - No initdb at first start: initdb runs a second PGlite with its own heap. The build prepares
 *    a template (the output of initdb, scripts/build.mjs) and a fresh data directory is unpacked
 *    from it.
 * None of this changes durability. PGlite writes every commit into the data directory's files (a
 * killed process loses nothing answered) but never fsyncs them (its postgres runs with -F and its
 * file layer has no flush): a power loss can lose the last commits. docs/deploy.md#durability.
 */
const DEFAULT_SHARED_BUFFERS_MB = 32;

export interface PgliteSettings {
  /** PostgreSQL shared_buffers, in MB. */
  sharedBuffersMb?: number;
}

function startParams(settings: PgliteSettings): string[] {
  return [...PGlite.defaultStartParams, '-c', `shared_buffers=${settings.sharedBuffersMb ?? DEFAULT_SHARED_BUFFERS_MB}MB`];
}

/** Opens PGlite with paylink's memory settings; `options` as PGlite.create takes them. */
export async function createPglite(options: PGliteOptions, settings: PgliteSettings = {}): Promise<PGlite> {
  // V8 reads these when a module is compiled: PGlite's module keeps them, later modules do not.
  setFlagsFromString('--no-wasm-dynamic-tiering');
  setFlagsFromString('--no-wasm-tier-up');
  // And for good: a memory-reducing collection (src/idle-memory.ts, or memory pressure) would
  // otherwise drop PGlite's compiled code, and compiling it again took the process ~500 MB higher.
  setFlagsFromString('--no-flush-liftoff-code');
  try {
    return await PGlite.create({ ...options, startParams: startParams(settings) });
  } finally {
    setFlagsFromString('--wasm-dynamic-tiering');
    setFlagsFromString('--wasm-tier-up');
  }
}

/**
 * The types Drizzle's PGlite driver wants as PostgreSQL's text (it parses them itself): timestamps,
 * dates, intervals, and arrays of numerics, timestamps, intervals and dates.
 */
const TEXT_TYPES = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182];
const asText = (value: string) => value;

/** Whether `parsers` are Drizzle's: exactly TEXT_TYPES, each giving back the text it is given. */
function isDrizzleTextParsers(parsers: ParserOptions): boolean {
  const keys = Object.keys(parsers);
  if (keys.length !== TEXT_TYPES.length) return false;
  for (const type of TEXT_TYPES) if (parsers[type]?.('1') !== '1') return false;
  return true;
}

/**
 * The PGlite client as Drizzle should see it. Drizzle's driver passes its parsers (TEXT_TYPES as
 * text) with every query, and PGlite then copies its whole parser table (a parser per type and per
 * array type: hundreds) to merge them in, on every query: 92 -> 211 µs for `select 1, now()`,
 * measured, and the largest single cost (7 %) in a profile of refunds on PGlite. The same parsers are
 * set once on the instance instead, and a query that carries exactly those has them taken off on
 * the way in; the rows come out the same. Any other options pass through untouched, so a Drizzle
 * that changed its parsers would be slower, not wrong. Transactions get the same treatment.
 */
export function forDrizzle(client: PGlite): PGlite {
  for (const type of TEXT_TYPES) client.parsers[type] = asText;
  return lean(client);
}

function lean<T extends Pick<PGliteInterface, 'query'> & Partial<Pick<PGliteInterface, 'transaction'>>>(target: T): T {
  const query = (text: string, params?: unknown[], options?: QueryOptions) => {
    if (options?.parsers && isDrizzleTextParsers(options.parsers)) {
      const { parsers: _, ...rest } = options;
      return target.query(text, params, rest);
    }
    return target.query(text, params, options);
  };
  const transaction = target.transaction ? (fn: (tx: never) => Promise<unknown>) => target.transaction!((tx) => fn(lean(tx) as never)) : undefined;
  return new Proxy(target, {
    get(object, property) {
      if (property === 'query') return query;
      if (property === 'transaction' && transaction) return transaction;
      const value = Reflect.get(object, property, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}

/**
 * Writes the template: a gzipped tar of the data directory initdb produces (no paylink tables;
 * migrations run on top as on any start). Called by the build, so it matches the installed PGlite.
 */
export async function writePgliteTemplate(path: string): Promise<void> {
  const pg = await createPglite({});
  try {
    const dump = await pg.dumpDataDir('gzip');
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await pg.close();
  }
}

/** A data directory that has nothing in it yet (missing or empty): a first start. */
export const pgliteDataDirIsNew = (dir: string) => !existsSync(dir) || readdirSync(dir).length === 0;

/**
 * Unpacks the template into `dir`, which must be new (pgliteDataDirIsNew). It is written next to
 * `dir` and renamed into place, so a start interrupted half-way leaves no half database behind.
 */
export function unpackPgliteTemplate(templatePath: string, dir: string): void {
  if (!pgliteDataDirIsNew(dir)) throw new Error(`${dir} is not empty; the PGlite template is only unpacked into a new data directory`);
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true, mode: 0o700 });
  extractTar(gunzipSync(readFileSync(templatePath)), partial);
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
}

/** The subset of ustar PGlite's dumpDataDir writes: regular files and directories. */
function extractTar(tar: Buffer, root: string): void {
  const text = (start: number, length: number) => {
    const raw = tar.subarray(start, start + length);
    const end = raw.indexOf(0);
    return raw.subarray(0, end === -1 ? length : end).toString('utf8');
  };
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const name = text(offset, 100);
    if (name === '') break;
    const prefix = text(offset + 345, 155);
    const size = Number.parseInt(text(offset + 124, 12).trim() || '0', 8);
    const type = text(offset + 156, 1) || '0';
    const relative = normalize(`${prefix ? `${prefix}/` : ''}${name}`).replace(/^[/\\]+/, '');
    if (relative.split(sep).includes('..')) throw new Error(`the PGlite template has an entry outside its directory: ${name}`);
    const target = join(root, relative);
    const body = offset + 512;
    if (type === '5') mkdirSync(target, { recursive: true, mode: 0o700 });
    else if (type === '0') {
      mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
      writeFileSync(target, tar.subarray(body, body + size), { mode: 0o600 });
    } else throw new Error(`the PGlite template has an entry of an unexpected type (${type}): ${name}`);
    offset = body + Math.ceil(size / 512) * 512;
  }
}
