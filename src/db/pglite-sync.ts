import { closeSync, fdatasync, fdatasyncSync, fsyncSync, openSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';
import { NodeFS } from '@electric-sql/pglite/nodefs';

/**
 * How the embedded database reaches the disk (docs/deploy.md#durability):
 *  - `commit`: a statement or transaction that wrote returns only once the write-ahead log it wrote
 *    is on the disk (fdatasync), so an answered payment survives a power cut;
 *  - `off`: PGlite as it ships, nothing is ever flushed (its postgres runs with -F): a power cut can
 *    lose the last commits and leave the data directory inconsistent.
 */
export type PgliteSync = 'commit' | 'off';

/** The parts of Emscripten's FS and of its NODEFS driver this file wraps (PGlite does not type them). */
interface Stream {
  nfd: number;
  path: string;
}
interface FsNode {
  name: string;
  parent: FsNode;
  mount: { mountpoint: string };
}
interface StreamOps {
  /** `buffer` is the WebAssembly heap (an Int8Array). */
  write(stream: Stream, buffer: ArrayBufferView, offset: number, length: number, position?: number): number;
  close(stream: Stream): void;
}
interface NodeOps {
  mknod(parent: FsNode, name: string, mode: number, dev: number): FsNode;
  rename(node: FsNode, newParent: FsNode, newName: string): void;
  unlink(parent: FsNode, name: string): void;
  rmdir(parent: FsNode, name: string): void;
}
interface EmscriptenFs {
  lookupPath(path: string): { node: FsNode & { stream_ops: StreamOps; node_ops: NodeOps } };
  getPath(node: FsNode): string;
  ErrnoError: new (errno: number) => Error;
}

/** Emscripten's errno for EIO: what PostgreSQL is told when a flush it depends on failed. */
const EMSCRIPTEN_EIO = 29;

/** A file PostgreSQL wrote since it was last flushed, by the descriptor PGlite's NODEFS holds open. */
interface Written {
  fd: number;
  path: string;
  wal: boolean;
  /** Closed while an asynchronous flush of it ran: it was flushed synchronously before the close. */
  closed: boolean;
}

/**
 * Makes PGlite's data directory durable. PGlite's postgres runs with fsync off and its file layer
 * (Emscripten's NODEFS: fs.writeSync on real descriptors) never flushes, so this wraps that layer and
 * does what PostgreSQL does with fsync on:
 *  - commits: every file written under pg_wal since the last flush, and pg_wal itself when a segment
 *    was created, is fdatasync'd before the statement or transaction that wrote returns (`afterCommit`,
 *    called by the client outside PGlite's lock). Callers that arrive while a flush runs share the
 *    next one (a group commit), off the main thread (libuv's fdatasync).
 *  - write-ahead before data: before a write to any other file (a data page evicted from
 *    shared_buffers, a checkpoint), the write-ahead log written so far is flushed first, synchronously
 *    (the write happens inside a synchronous call into PostgreSQL), so a page never reaches the disk
 *    ahead of the log that describes it. A page of zeros (a relation extended by a page) is exempt:
 *    PostgreSQL does not log extensions, and they were most of these flushes under load.
 *  - checkpoints: before pg_control is written (it moves the redo point past the log) and before a
 *    file is renamed or removed (a log segment recycled, a relation dropped), every written file and
 *    directory is flushed, so no log is given up whose data pages are not on the disk. A new log
 *    segment renamed into place is not such a rename.
 *  - close: whatever is left (pg_control of the shutdown checkpoint) is flushed by `close`.
 */
export class PgliteDiskSync {
  /** Written since taken for a flush, by descriptor. */
  private readonly written = new Map<number, Written>();
  /** Being flushed by an asynchronous fdatasync. */
  private readonly flushing = new Map<number, Written>();
  /** Files written and then closed before a flush: flushed by path. */
  private readonly closedPaths = new Set<string>();
  /** Directories whose entries changed (a file created, renamed or removed). */
  private readonly dirs = new Set<string>();
  private running: Promise<void> | undefined;
  /** A flush the disk refused: after it nothing written is known to be on the disk (see `afterCommit`). */
  private failed: Error | undefined;
  private queued: Promise<void> | undefined;
  private readonly walDir: string;
  private readonly controlFile: string;
  /** Flushes done, for tests: of the log after commits, before data, of everything (checkpoints), of pg_wal, of log files closed. */
  readonly counts = { commitFlushes: 0, walFlushesBeforeData: 0, fullFlushes: 0, walDirectoryFlushes: 0, walFilesFlushedAtClose: 0 };

  private readonly root: string;

  private constructor(root: string) {
    this.root = root;
    this.walDir = join(root, 'pg_wal');
    this.controlFile = join(root, 'global', 'pg_control');
  }

  /**
   * The file system to hand PGlite.create as `fs`: NODEFS on `dataDir`, wrapped before PostgreSQL
   * starts, so crash recovery at start (and its checkpoint) is covered too.
   */
  static fileSystem(dataDir: string): { fs: NodeFS; sync: PgliteDiskSync } {
    const sync = new PgliteDiskSync(dataDir);
    class DurableNodeFS extends NodeFS {
      override async init(...args: Parameters<NodeFS['init']>) {
        const { emscriptenOpts } = await super.init(...args);
        const preRun = [...(emscriptenOpts.preRun ?? []), (mod: { FS: unknown }) => sync.wrap(mod.FS as EmscriptenFs)];
        return { emscriptenOpts: { ...emscriptenOpts, preRun } };
      }
    }
    return { fs: new DurableNodeFS(dataDir), sync };
  }

  /**
   * Resolves once every log file written before the call is on the disk; concurrent callers share
   * flushes. Once the disk has refused a flush it rejects for good, as PostgreSQL stops on a failed
   * fsync: the kernel may have dropped the pages it could not write, so a later flush that succeeds
   * proves nothing. A restart replays the log from what the disk holds.
   */
  afterCommit(): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    if (!this.walPending()) return this.running ?? Promise.resolve();
    if (!this.running) {
      const run = this.flushWal().finally(() => {
        if (this.running === run) this.running = undefined;
      });
      this.running = run;
      return run;
    }
    if (!this.queued) {
      const next = () => {
        this.queued = undefined;
        return this.afterCommit();
      };
      this.queued = this.running.then(next, next);
    }
    return this.queued;
  }

  /** Flushes every file and directory written and not flushed yet; after PGlite is closed. */
  async close(): Promise<void> {
    await this.running?.catch(() => {});
    this.flushEverything();
  }

  private walPending(): boolean {
    if (this.dirs.has(this.walDir)) return true;
    for (const file of this.written.values()) if (file.wal) return true;
    return false;
  }

  private async flushWal(): Promise<void> {
    const files: Written[] = [];
    for (const file of this.written.values()) {
      if (!file.wal) continue;
      files.push(file);
      this.written.delete(file.fd);
      this.flushing.set(file.fd, file);
    }
    const walDir = this.dirs.delete(this.walDir);
    this.counts.commitFlushes++;
    try {
      await Promise.all(
        files.map((file) => new Promise<void>((resolve, reject) => fdatasync(file.fd, (error) => (error && !file.closed ? reject(error) : resolve())))),
      );
      if (walDir) {
        await flushDirectory(this.walDir);
        this.counts.walDirectoryFlushes++;
      }
    } catch (error) {
      this.failed = new Error(`the disk refused to flush the embedded database's write-ahead log; restart paylink (${(error as Error).message})`);
      throw this.failed;
    } finally {
      for (const file of files) if (this.flushing.get(file.fd) === file) this.flushing.delete(file.fd);
    }
  }

  /** Synchronously: the log files written so far (PostgreSQL is inside a call that writes a data page). */
  private flushWalNow(): void {
    let any = false;
    for (const files of [this.written, this.flushing])
      for (const file of files.values()) {
        if (!file.wal) continue;
        fdatasyncSync(file.fd);
        if (files === this.written) this.written.delete(file.fd);
        any = true;
      }
    if (this.dirs.delete(this.walDir)) {
      flushDirectoryNow(this.walDir);
      this.counts.walDirectoryFlushes++;
      any = true;
    }
    if (any) this.counts.walFlushesBeforeData++;
  }

  /** Synchronously: every file and directory written so far, the log first. */
  private flushEverything(): void {
    if (this.written.size === 0 && this.flushing.size === 0 && this.closedPaths.size === 0 && this.dirs.size === 0) return;
    this.flushWalNow();
    // Only log files are ever being flushed asynchronously, and flushWalNow took those.
    for (const file of this.written.values()) {
      fsyncSync(file.fd);
      this.written.delete(file.fd);
    }
    for (const path of this.closedPaths) flushPathNow(path);
    this.closedPaths.clear();
    for (const dir of this.dirs) flushDirectoryNow(dir);
    this.dirs.clear();
    this.counts.fullFlushes++;
  }

  private wrap(fs: EmscriptenFs): void {
    const mountpoint = fs.lookupPath('/pglite/data').node.mount.mountpoint;
    const { stream_ops: streams, node_ops: nodes } = fs.lookupPath(mountpoint).node;
    const real = (path: string) => join(this.root, path.slice(mountpoint.length));
    const realNode = (node: FsNode) => real(fs.getPath(node));
    // Inside NODEFS's operations: a failed flush reaches PostgreSQL as the failed write it protects.
    const orEio = <T>(fn: () => T): T => {
      try {
        return fn();
      } catch (error) {
        if (error instanceof fs.ErrnoError) throw error;
        this.failed ??= new Error(`the disk refused to flush the embedded database's files; restart paylink (${(error as Error).message})`);
        throw new fs.ErrnoError(EMSCRIPTEN_EIO);
      }
    };
    const write = streams.write;
    streams.write = (stream, buffer, offset, length, position) => {
      const path = real(stream.path);
      if (isTemporary(path)) return write(stream, buffer, offset, length, position);
      const wal = path.startsWith(this.walDir + sep);
      if (path === this.controlFile) orEio(() => this.flushEverything());
      // A page of zeros (a relation extended) describes nothing the log holds: no flush for it.
      else if (!wal && !isZeros(buffer, offset, length)) orEio(() => this.flushWalNow());
      const count = write(stream, buffer, offset, length, position);
      if (!this.written.has(stream.nfd)) this.written.set(stream.nfd, { fd: stream.nfd, path, wal, closed: false });
      return count;
    };
    const close = streams.close;
    streams.close = (stream) => {
      const written = this.written.get(stream.nfd);
      const flushing = this.flushing.get(stream.nfd);
      if (flushing) {
        orEio(() => fdatasyncSync(stream.nfd));
        flushing.closed = true;
        this.flushing.delete(stream.nfd);
      }
      if (written) {
        this.written.delete(stream.nfd);
        // A log segment is flushed as it is closed (PostgreSQL does so at a segment switch); other
        // files are flushed by path at the next checkpoint or at close.
        if (written.wal) {
          orEio(() => fdatasyncSync(stream.nfd));
          this.counts.walFilesFlushedAtClose++;
        } else this.closedPaths.add(written.path);
      }
      close(stream);
    };
    const mknod = nodes.mknod;
    nodes.mknod = (parent, name, mode, dev) => {
      const node = mknod(parent, name, mode, dev);
      this.dirs.add(realNode(parent));
      return node;
    };
    const rename = nodes.rename;
    nodes.rename = (node, newParent, newName) => {
      const from = realNode(node);
      // A new log segment put in place gives no log up: it was flushed as it was closed, and pg_wal is
      // flushed with the next commit. Any other rename (a segment recycled, a file replaced) may.
      if (!(dirname(from) === this.walDir && basename(from).startsWith('xlogtemp.'))) orEio(() => this.flushEverything());
      rename(node, newParent, newName);
      this.dirs.add(dirname(from));
      this.dirs.add(realNode(newParent));
    };
    for (const removal of ['unlink', 'rmdir'] as const) {
      const remove = nodes[removal];
      nodes[removal] = (parent, name) => {
        if (isTemporary(join(realNode(parent), name))) return remove(parent, name);
        orEio(() => this.flushEverything());
        remove(parent, name);
        this.dirs.add(realNode(parent));
      };
    }
  }
}

/** A sort or hash spilled to disk (base/pgsql_tmp): never read after a crash, so never flushed. */
const isTemporary = (path: string) => path.includes(`${sep}pgsql_tmp${sep}`);

let zeros = Buffer.alloc(8192);
function isZeros(buffer: ArrayBufferView, offset: number, length: number): boolean {
  if (zeros.length < length) zeros = Buffer.alloc(length);
  return Buffer.compare(new Uint8Array(buffer.buffer, buffer.byteOffset + offset, length), zeros.subarray(0, length)) === 0;
}

function flushPathNow(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

const flushDirectoryNow = flushPathNow;

async function flushDirectory(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
