import { createServer, type Server } from 'node:http';
import type { PaylinkApp } from '../app.ts';
import type { Workers } from '../workers/index.ts';
import { listen } from './server.ts';

/**
 * GET /healthz for a process a supervisor cannot ask on the public port: `npm run worker` listens
 * on none. On PAYLINK_HEALTH_LISTEN (host:port, e.g. 127.0.0.1:9465), off by default. 200 while
 * the database answers and no worker tick has run longer than a schedule claim's lease
 * (PAYLINK_SCHEDULE_LEASE_SECONDS: past it another process may take the work over, so a tick that
 * long is stuck); 503 otherwise, and from SIGTERM on.
 */
export interface WorkerHealth {
  status: 'ok' | 'unavailable' | 'shutting_down';
  database: 'ok' | 'unavailable';
  workers: 'ok' | 'stuck' | 'not_in_this_process';
  /** The loops whose tick has run too long. */
  stuck?: string[];
}

export async function workerHealth(app: PaylinkApp, workers: Workers | undefined, stopping: boolean): Promise<WorkerHealth> {
  let database: WorkerHealth['database'] = 'ok';
  try {
    await app.database.ping();
  } catch {
    database = 'unavailable';
  }
  const limitMs = app.config.scheduleLeaseSeconds * 1000;
  const stuck = (workers?.loops ?? []).filter((loop) => (loop.tickRunningForMs?.() ?? 0) > limitMs).map((loop) => loop.name);
  const status = stopping ? 'shutting_down' : database === 'ok' && stuck.length === 0 ? 'ok' : 'unavailable';
  return { status, database, workers: !workers ? 'not_in_this_process' : stuck.length > 0 ? 'stuck' : 'ok', ...(stuck.length > 0 && { stuck }) };
}

export async function startHealthServer(
  app: PaylinkApp,
  address: { host: string; port: number },
  state: () => { workers: Workers | undefined; stopping: boolean },
): Promise<{ server: Server; port: number }> {
  const server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/healthz') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: the health check is at /healthz\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('method not allowed\n');
      return;
    }
    const { workers, stopping } = state();
    const health = await workerHealth(app, workers, stopping);
    res
      .writeHead(health.status === 'ok' ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      .end(req.method === 'HEAD' ? undefined : JSON.stringify(health));
  });
  const port = await listen(server, address.host, address.port);
  return { server, port };
}
