import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { gunzipSync } from 'node:zlib';
import {
  type ParserOptions,
  PGlite,
  type PGliteInterface,
  type PGliteOptions,
  parse,
  protocol,
  type QueryOptions,
  type Results,
  type Transaction,
  types,
} from '@electric-sql/pglite';

/**
 * How paylink runs the embedded database so that it fits a 512 MB machine (docs/deploy.md has the
 * measurements). Three things, each measured:
 *  - shared_buffers: PGlite keeps PostgreSQL's default of 128 MB, and all of it becomes resident
 *    in the WebAssembly heap at start. paylink asks for 32 MB (PAYLINK_PGLITE_SHARED_BUFFERS_MB);
 *    the data files are still cached by the operating system's page cache.
 *  - No optimising tier for PGlite's WebAssembly: V8 would, once queries run, recompile hot
 *    functions of postgres with TurboFan, and one of them (the SQL grammar's size) alone takes
 *    hundreds of MB of compiler memory. Postgres runs on V8's baseline compiler
 *    (Liftoff) instead; the tier-up is switched off only while PGlite's module is compiled, so
 *    other WebAssembly still gets optimised; and its compiled code is kept
 *    through memory-reducing collections (recompiling it spikes the process's memory).
 *  - No initdb at first start: initdb runs a second PGlite with its own heap. The build prepares
 *    a template (the output of initdb, scripts/build.mjs) and a fresh data directory is unpacked
 *    from it.
 * None of this changes durability. PGlite writes every commit into the data directory's files (a
 * killed process loses nothing answered) but never fsyncs them (its postgres runs with -F and its
 * file layer has no flush); src/db/pglite-sync.ts adds the flushes (PAYLINK_PGLITE_SYNC,
 * docs/deploy.md#durability), called from forDrizzle below.
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
  // otherwise drop PGlite's compiled code, and compiling it again spikes the process's memory.
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
 * The PGlite client as Drizzle should see it (docs/deploy.md, "How PGlite runs paylink's queries"):
 *  - Drizzle's driver passes its parsers (TEXT_TYPES as text) with every query, and PGlite then
 *    copies its whole parser table (a parser per type and per array type: hundreds) to merge them
 *    in, on every query. The same parsers are set once on the instance instead, and a query that
 *    carries exactly those has them taken off on the way in.
 *  - Every statement with parameters is a prepared statement (PreparedStatements below): PostgreSQL
 *    parses and plans its text once, and each run is one message to the database instead of PGlite's
 *    six.
 * The rows come out the same. A query with options paylink does not use (a blob, parameter types,
 * serializers) goes to PGlite's own query as it is. Transactions get the same treatment.
 */
export function forDrizzle(client: PGlite, commits?: CommitFlush): PGlite {
  for (const type of TEXT_TYPES) client.parsers[type] = asText;
  return lean(client, new PreparedStatements(client), false, commits);
}

/**
 * What a statement outside a transaction, or a transaction, waits for after it returned from PGlite
 * and before its caller sees the result (PgliteDiskSync: the log it wrote reaches the disk). Called
 * outside PGlite's lock, so the next statement runs while the disk flushes, and waiting callers share
 * one flush.
 */
export interface CommitFlush {
  afterCommit(): Promise<void>;
}

type Queryable = Pick<PGliteInterface, 'query'> & Partial<Pick<PGliteInterface, 'transaction'>>;

function lean<T extends Queryable>(target: T, prepared: PreparedStatements, inTransaction: boolean, commits?: CommitFlush): T {
  const flushed = <R>(result: Promise<R>): Promise<R> =>
    commits && !inTransaction
      ? result.then(async (value) => {
          await commits.afterCommit();
          return value;
        })
      : result;
  const statement = (text: string, params?: unknown[], options?: QueryOptions) => {
    let rest = options;
    if (options?.parsers && isDrizzleTextParsers(options.parsers)) {
      const { parsers: _, ...others } = options;
      rest = others;
    }
    if (params && params.length > 0 && !rest?.blob && !rest?.paramTypes && !rest?.serializers && !rest?.parsers) {
      if (inTransaction && (target as unknown as Transaction).closed) throw new Error('Transaction is closed');
      return prepared.query(text, params, rest, inTransaction);
    }
    return target.query(text, params, rest);
  };
  const query = (text: string, params?: unknown[], options?: QueryOptions) => flushed(statement(text, params, options));
  const transaction = target.transaction
    ? (fn: (tx: never) => Promise<unknown>) => flushed(target.transaction!((tx) => fn(lean(tx, prepared, true) as never)))
    : undefined;
  return new Proxy(target, {
    get(object, property) {
      if (property === 'query') return query;
      if (property === 'transaction' && transaction) return transaction;
      const value = Reflect.get(object, property, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}

const { serialize } = protocol;
type RowDescription = InstanceType<typeof protocol.messages.RowDescriptionMessage>;
type DatabaseError = InstanceType<typeof protocol.messages.DatabaseError>;

/** How many statement texts stay prepared; the least recently run is closed first. */
export const PREPARED_STATEMENTS_MAX = 256;
/** PostgreSQL's answers that mean a prepared statement must be prepared again: its result type changed, or it is gone. */
const STALE_STATEMENT = new Set(['0A000', '26000']);

interface Prepared {
  name: string;
  /** The parameters' types, as PostgreSQL inferred them (PGlite serialises values by type). */
  paramTypes: number[];
  /** The rows' description; undefined when the statement returns no rows. */
  rows: RowDescription | undefined;
}

/**
 * PGlite runs a query with parameters as six protocol messages, each a call into PostgreSQL (parse,
 * describe, bind, describe, execute, sync), and PostgreSQL parses, analyses and plans the text every
 * time; on V8's baseline compiler, which PGlite's WebAssembly runs on here (createPglite), that is
 * most of a short statement's cost. Here each text is parsed and described once under a name, and a
 * run is Bind + Execute + Sync in one message (docs/deploy.md has the figures). PostgreSQL then
 * plans as for any prepared statement (plan_cache_mode auto: custom plans first, a generic one only
 * when it is not dearer).
 * What this keeps as PGlite's query does: its mutexes (a statement outside a transaction waits for
 * one in progress), its serialisers for parameters, its parsers and row modes for results, its
 * errors (with the query attached), and the file sync after a statement outside a transaction.
 */
export class PreparedStatements {
  private readonly statements = new Map<string, Prepared>();
  /** Names evicted from the map: closed in front of the next message. */
  private closing: Uint8Array[] = [];
  private serial = 0;
  private readonly client: PGlite;
  private readonly max: number;

  // Plain fields, not parameter properties: scripts/pglite-template.ts loads this file with Node's
  // type stripping, which does not take them.
  constructor(client: PGlite, max = PREPARED_STATEMENTS_MAX) {
    this.client = client;
    this.max = max;
  }

  get size(): number {
    return this.statements.size;
  }

  async query<T>(text: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results<T>> {
    await this.client._checkReady();
    const run = () => this.client._runExclusiveQuery(() => this.run<T>(text, params, options, inTransaction, true));
    return inTransaction ? run() : this.client._runExclusiveTransaction(run);
  }

  private async run<T>(text: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean, retry: boolean): Promise<Results<T>> {
    let statement: Prepared;
    let messages: Awaited<ReturnType<PGlite['execProtocol']>>['messages'];
    try {
      statement = this.statements.get(text) ?? (await this.prepare(text));
      const values = params.map((value, i) => this.serialise(value, statement.paramTypes[i]));
      ({ messages } = await this.client.execProtocol(bindExecuteSync(this.takeClosing(), statement.name, values), { syncToFs: false }));
    } catch (error) {
      if (!isDatabaseError(error)) throw error;
      const stale = this.statements.get(text);
      if (stale && STALE_STATEMENT.has(error.code ?? '')) {
        this.forget(text, stale);
        // Outside a transaction nothing was done: prepare it again, once. Inside, the transaction is aborted.
        if (retry && !inTransaction) return this.run(text, params, options, inTransaction, false);
      }
      throw Object.assign(error, { query: text, params, queryOptions: options });
    }
    // Least recently run first: a run moves the text to the end.
    this.statements.delete(text);
    this.statements.set(text, statement);
    if (!inTransaction) await this.client.syncToFs();
    return parse.parseResults(statement.rows ? [statement.rows, ...messages] : messages, this.client.parsers, options)[0] as Results<T>;
  }

  /** Parse + Describe under a new name; the least recently run statement is closed when there are too many. */
  private async prepare(text: string): Promise<Prepared> {
    const name = `paylink_p${++this.serial}`;
    const { messages } = await this.client.execProtocol(
      message([...this.takeClosing(), serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]),
      { syncToFs: false },
    );
    const prepared: Prepared = {
      name,
      paramTypes: parse.parseDescribeStatementResults(messages),
      rows: messages.find((m): m is RowDescription => m.name === 'rowDescription'),
    };
    if (this.statements.size >= this.max) {
      const [oldest, evicted] = this.statements.entries().next().value!;
      this.forget(oldest, evicted);
    }
    this.statements.set(text, prepared);
    return prepared;
  }

  private forget(text: string, statement: Prepared): void {
    this.statements.delete(text);
    this.closing.push(serialize.close({ type: 'S', name: statement.name }));
  }

  private takeClosing(): Uint8Array[] {
    const closing = this.closing;
    this.closing = [];
    return closing;
  }

  /** As PGlite's query serialises a parameter: null stays null, a type with a serialiser uses it, anything else its text. */
  private serialise(value: unknown, type: number | undefined): string | null {
    if (value === null || value === undefined) return null;
    const serialiser = type === undefined ? undefined : this.client.serializers[type];
    return serialiser ? (serialiser(value) as string) : String(value);
  }
}

const isDatabaseError = (error: unknown): error is DatabaseError => error instanceof protocol.messages.DatabaseError;

const utf8 = new TextEncoder();
/** Execute (the unnamed portal, every row) then Sync, as PGlite's serialize.execute({}) and serialize.sync() write them. */
const EXECUTE_SYNC = new Uint8Array([0x45, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0x53, 0, 0, 0, 4]);

/**
 * `prefix` (Close messages), then Bind (`statement` into the unnamed portal, every parameter and
 * result in text, a null as length -1), Execute and Sync, written into one buffer. What PGlite's
 * serialize.bind sends, except that "all text" is said once instead of once per parameter; it builds
 * each message in buffers that grow and are copied (three times over for a Bind), a cost a refund
 * on PGlite feels.
 */
export function bindExecuteSync(prefix: Uint8Array[], statement: string, values: (string | null)[]): Uint8Array {
  // Room for the worst case: three UTF-8 bytes per UTF-16 code unit.
  let size = 1 + 4 + 1 + statement.length * 3 + 1 + 2 + 2 + 2 + EXECUTE_SYNC.length;
  for (const part of prefix) size += part.length;
  for (const value of values) size += 4 + (value === null ? 0 : String(value).length * 3);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  let at = 0;
  for (const part of prefix) {
    out.set(part, at);
    at += part.length;
  }
  out[at++] = 0x42; // 'B'
  const lengthAt = at;
  at += 4;
  out[at++] = 0; // the unnamed portal
  at += utf8.encodeInto(statement, out.subarray(at)).written;
  out[at++] = 0;
  view.setInt16(at, 0); // no parameter format codes: all text
  at += 2;
  view.setUint16(at, values.length);
  at += 2;
  for (const value of values) {
    if (value === null) {
      view.setInt32(at, -1);
      at += 4;
      continue;
    }
    const written = utf8.encodeInto(String(value), out.subarray(at + 4)).written;
    view.setInt32(at, written);
    at += 4 + written;
  }
  view.setInt16(at, 0); // no result format codes: all text
  at += 2;
  view.setInt32(lengthAt, at - lengthAt);
  out.set(EXECUTE_SYNC, at);
  return out.subarray(0, at + EXECUTE_SYNC.length);
}

function message(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
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
  placeInto(dir, extractBeside(templatePath, dir));
}

/**
 * unpackPgliteTemplate, with every file and directory flushed to the disk before the rename and the
 * rename after it (PAYLINK_PGLITE_SYNC=commit): the log written on top assumes these files are there.
 * The ~1,000 files are flushed concurrently (libuv's threads): 0.2–0.3 s, one after the other 1–4 s.
 */
export async function unpackPgliteTemplateDurably(templatePath: string, dir: string): Promise<void> {
  const partial = extractBeside(templatePath, dir);
  const paths = [partial, ...readdirSync(partial, { recursive: true, withFileTypes: true }).map((entry) => join(entry.parentPath, entry.name))];
  await Promise.all(paths.map(flush));
  placeInto(dir, partial);
  await flush(dirname(dir));
}

function extractBeside(templatePath: string, dir: string): string {
  if (!pgliteDataDirIsNew(dir)) throw new Error(`${dir} is not empty; the PGlite template is only unpacked into a new data directory`);
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true, mode: 0o700 });
  extractTar(gunzipSync(readFileSync(templatePath)), partial);
  return partial;
}

function placeInto(dir: string, partial: string): void {
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
}

async function flush(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The subset of ustar PGlite's dumpDataDir writes: regular files and directories. */
function* archiveEntries(tar: Buffer): Generator<{ relative: string; type: '0' | '5'; data: Buffer }> {
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
    if (relative.split(sep).includes('..')) throw new Error(`the archive has an entry outside its directory: ${name}`);
    if (type !== '0' && type !== '5') throw new Error(`the archive has an entry of an unexpected type (${type}): ${name}`);
    const body = offset + 512;
    if (!Number.isFinite(size) || body + size > tar.length) throw new Error(`the archive is cut short in ${name}`);
    yield { relative, type, data: tar.subarray(body, body + size) };
    offset = body + Math.ceil(size / 512) * 512;
  }
}

function extractTar(tar: Buffer, root: string): void {
  for (const { relative, type, data } of archiveEntries(tar)) {
    const target = join(root, relative);
    if (type === '5') mkdirSync(target, { recursive: true, mode: 0o700 });
    else {
      mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
      writeFileSync(target, data, { mode: 0o600 });
    }
  }
}

/**
 * The files of a gzipped PGlite data directory archive (a template or a backup), read whole: throws
 * when it is not gzip, not a tar of the kind PGlite writes, or cut short.
 */
export function pgliteArchiveFiles(path: string): string[] {
  return [...archiveEntries(gunzipSync(readFileSync(path)))].filter((e) => e.type === '0').map((e) => e.relative);
}
