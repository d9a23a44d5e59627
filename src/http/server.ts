import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import compression from 'compression';
import sirv from 'sirv';
import { buildEnvelope, toJson } from '../api/envelope.ts';
import type { PaylinkApp } from '../app.ts';
import { clientIpOf } from './client-ip.ts';
import { guardRequestBody, hasBody } from './request-body.ts';

export type AstroHandler = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void, locals?: object) => void | Promise<void>;

/** Headers on every response. Page CSP (script/style hashes) comes from Astro in a <meta>; the
 * header adds what a <meta> policy cannot carry (frame-ancestors) and locks down everything else. */
function securityHeaders(app: PaylinkApp, req: IncomingMessage, res: ServerResponse) {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(self)');
  res.setHeader('Content-Security-Policy', "frame-ancestors 'none'; object-src 'none'; base-uri 'none'; form-action 'self'");
  const forwardedHttps =
    app.config.trustProxy &&
    String(req.headers['x-forwarded-proto'] ?? '')
      .split(',')[0]
      ?.trim() === 'https';
  const tls = (req.socket as { encrypted?: boolean }).encrypted === true;
  if (tls || forwardedHttps) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(toJson(body));
}

export function createHttpServer(app: PaylinkApp, opts: { astroHandler: AstroHandler; clientDir: string }): Server {
  const compress = compression({ threshold: 1024 });
  const statics = sirv(opts.clientDir, {
    dev: false,
    etag: true,
    gzip: false,
    brotli: false,
    setHeaders(res, pathname) {
      // Astro fingerprints everything under /_astro/: safe to cache for a year.
      res.setHeader('Cache-Control', pathname.startsWith('/_astro/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
    },
  });
  const shuttingDown = { value: false };
  // Astro renders error pages with fresh locals; src/middleware.ts finds the app here then.
  (globalThis as Record<symbol, PaylinkApp>)[Symbol.for('paylink.app')] = app;

  const server = createServer(async (req, res) => {
    const requestId = `req_${randomUUID().replaceAll('-', '')}`;
    const started = performance.now();
    // The same object reaches the route as Astro.locals: routes add the matched route and the
    // authenticated integrator there, for the request log line below.
    const locals: RequestLocals = { paylink: app, requestId, clientIp: clientIpOf(req, app.config.trustProxy) };
    res.once('close', () => logRequest(app, req, res, locals, performance.now() - started));
    res.setHeader('X-Request-Id', requestId);
    securityHeaders(app, req, res);
    if (shuttingDown.value) res.setHeader('Connection', 'close');
    compress(req as never, res as never, async () => {
      try {
        const path = (req.url ?? '/').split('?')[0]!;
        if (path === '/healthz') {
          try {
            await app.database.ping();
            sendJson(res, shuttingDown.value ? 503 : 200, { status: shuttingDown.value ? 'shutting_down' : 'ok', database: app.database.kind });
          } catch {
            sendJson(res, 503, { status: 'unavailable', database: app.database.kind });
          }
          return;
        }
        statics(req, res, () => {
          // Astro reads `req.body` when it is set: the guarded view (src/http/request-body.ts).
          if (hasBody(req)) (req as IncomingMessage & { body?: unknown }).body = guardRequestBody(req, res);
          void opts.astroHandler(req, res, undefined, locals);
        });
      } catch (error) {
        app.log.error('unhandled request error', { requestId, error });
        if (!res.headersSent) {
          sendJson(res, 500, buildEnvelope({ code: 'ER.99.00', path: req.url ?? '/', data: { request_id: requestId } }));
        } else res.end();
      }
    });
  });
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  (server as Server & { paylinkShuttingDown?: { value: boolean } }).paylinkShuttingDown = shuttingDown;
  return server;
}

interface RequestLocals {
  paylink: PaylinkApp;
  requestId: string;
  clientIp: string;
  route?: string;
  integratorId?: string;
}

/** Ids inside a path (txn_…, UUIDs, long tokens) become `:id`, so a route reads as its pattern. */
export const routeOfPath = (path: string) =>
  path
    .split('/')
    .map((part) => (/^[a-z]{2,5}_[0-9a-f]{16,}$|^[0-9a-f-]{36}$|^[A-Za-z0-9_-]{32,}$/.test(part) ? ':id' : part))
    .join('/');

/**
 * One line per request at info: method, route (the matched pattern, never the query string,
 * where filters such as customer_email live), status, duration, request id and the
 * authenticated integrator. Never a header, a body or a token.
 */
function logRequest(app: PaylinkApp, req: IncomingMessage, res: ServerResponse, locals: RequestLocals, ms: number) {
  const path = (req.url ?? '/').split('?')[0]!;
  app.log.info('request', {
    method: req.method,
    route: locals.route ?? routeOfPath(path),
    status: res.statusCode,
    duration_ms: Math.round(ms * 10) / 10,
    request_id: locals.requestId,
    integrator_id: locals.integratorId ?? null,
    ...(res.writableFinished ? {} : { aborted: true }),
  });
}

export async function listen(server: Server, host: string, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

/** Stop accepting; wait for in-flight requests (bounded), then drop idle keep-alive sockets. */
export async function closeServer(server: Server, timeoutMs: number): Promise<void> {
  const flag = (server as Server & { paylinkShuttingDown?: { value: boolean } }).paylinkShuttingDown;
  if (flag) flag.value = true;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const idle = setInterval(() => server.closeIdleConnections(), 100);
  const timer = setTimeout(() => server.closeAllConnections(), timeoutMs);
  try {
    await closed;
  } finally {
    clearInterval(idle);
    clearTimeout(timer);
  }
}
