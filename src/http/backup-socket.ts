import { chmodSync, existsSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { join } from 'node:path';
import type { Database } from '../db/client.ts';
import type { Logger } from '../log.ts';

/**
 * How `npm run admin -- backup` reaches the process that holds the embedded database: a Unix socket
 * in PAYLINK_DATA_DIR (0600, in a 0700 directory), so only the user paylink runs as can ask, and
 * nothing is added to any TCP port. One request, `POST /backup`, answers the backup's bytes.
 */
export const backupSocketPath = (dataDir: string) => join(dataDir, 'admin.sock');

/** Linux's limit for a socket path (sun_path, 108 bytes with its terminating NUL). */
const SOCKET_PATH_MAX = 107;

export const socketPathFits = (path: string) => Buffer.byteLength(path) <= SOCKET_PATH_MAX;

export async function startBackupSocket(database: Database, dataDir: string, log: Logger): Promise<Server | undefined> {
  const path = backupSocketPath(dataDir);
  if (!database.backup) return undefined;
  if (!socketPathFits(path)) {
    log.warn('backup socket not started: its path is longer than a Unix socket allows; `admin backup` needs paylink stopped', { path });
    return undefined;
  }
  const backup = database.backup.bind(database);
  let running = false;
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/backup') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('only POST /backup is served here\n');
      return;
    }
    if (running) {
      res.writeHead(409, { 'content-type': 'text/plain' }).end('a backup is already being taken; try again when it is done\n');
      return;
    }
    running = true;
    const started = Date.now();
    backup().then(
      (bytes) => {
        running = false;
        log.info('backup taken', { bytes: bytes.length, ms: Date.now() - started });
        res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': bytes.length, 'x-paylink-pid': String(process.pid) }).end(bytes);
      },
      (error: Error) => {
        running = false;
        log.error('backup failed', { error });
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`the backup failed: ${error.message}\n`);
      },
    );
  });
  // This process holds the data directory's lock: a socket file left here is a dead process's.
  rmSync(path, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  chmodSync(path, 0o600);
  return server;
}

export type BackupAnswer = { kind: 'taken'; bytes: Buffer; pid: string } | { kind: 'refused'; message: string } | { kind: 'nobody' };

/** Asks the running paylink for a backup; `nobody` when no process answers on the socket. */
export function requestBackup(dataDir: string): Promise<BackupAnswer> {
  const path = backupSocketPath(dataDir);
  if (!existsSync(path) || !socketPathFits(path)) return Promise.resolve({ kind: 'nobody' });
  return new Promise((resolve) => {
    const req = request({ socketPath: path, method: 'POST', path: '/backup' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        if (res.statusCode === 200) resolve({ kind: 'taken', bytes: body, pid: String(res.headers['x-paylink-pid'] ?? '?') });
        else resolve({ kind: 'refused', message: body.toString('utf8').trim() || `status ${res.statusCode}` });
      });
      res.on('error', (error) => resolve({ kind: 'refused', message: `the answer broke off: ${error.message}` }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') resolve({ kind: 'nobody' });
      else resolve({ kind: 'refused', message: error.message });
    });
    req.end();
  });
}
