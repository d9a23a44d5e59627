import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import compression from 'compression';
import sirv from 'sirv';
import { busyRefusal } from '../api/console.ts';
import { buildEnvelope, toJson } from '../api/envelope.ts';
import type { PaylinkApp } from '../app.ts';
import { passwordCheckBusy } from '../domain/accounts/passwords.ts';
import type { DomainError } from '../domain/errors.ts';
import type { RequestSpan } from '../telemetry.ts';
import { clientIpOf, forwardedProtoOf } from './client-ip.ts';
import type { Readiness } from './readiness.ts';
import { guardRequestBody, hasBody } from './request-body.ts';
import { ALLOWED_METHODS, hasValidPathEncoding, methodRefusal, ROUTED_METHODS, rawEnvelopeResponse } from './request-target.ts';

export type AstroHandler = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void, locals?: object) => void | Promise<void>;

/** Headers on every response. Page CSP (script/style hashes) comes from Astro in a <meta>; the
 * header adds what a <meta> policy cannot carry (frame-ancestors) and locks down everything else. */
function securityHeaders(app: PaylinkApp, req: IncomingMessage, res: ServerResponse) {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  res.setHeader('X-Frame-Options', 'DENY');
  // COOP and Permissions-Policy: a Stripe merchant's pages replace both for the Payment Element's wallets (stripeWalletHeaders, src/acquirer/stripe/element.ts).
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(self)');
  res.setHeader('Content-Security-Policy', "frame-ancestors 'none'; object-src 'none'; base-uri 'none'; form-action 'self'");
  const forwardedHttps = forwardedProtoOf(req, app.config.trustProxy) === 'https';
  const tls = (req.socket as { encrypted?: boolean }).encrypted === true;
  if (tls || forwardedHttps) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
}

/** The sign-in forms whose POST checks a password (src/pages/console/sign-in.astro, src/pages/operator/sign-in.astro). */
const SIGN_IN_PATHS = new Set(['/console/sign-in', '/operator/sign-in']);

function sendBusy(res: ServerResponse, error: DomainError) {
  const { status, headers, body } = busyRefusal(error);
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(toJson(body));
}

/**
 * @param opts.readiness the process's start (src/server.ts): until it is ready, /readyz answers
 *   503 and every request but /healthz gets 503 ER.99.02. Absent (tests that build the app
 *   themselves): ready from the start.
 */
export function createHttpServer(app: PaylinkApp, opts: { astroHandler: AstroHandler; clientDir: string; readiness?: Readiness }): Server {
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
    const span = app.tracing?.startRequest(req.method ?? '');
    res.once('close', () => logRequest(app, req, res, locals, performance.now() - started, span));
    res.setHeader('X-Request-Id', requestId);
    securityHeaders(app, req, res);
    if (shuttingDown.value) res.setHeader('Connection', 'close');
    compress(req as never, res as never, async () => {
      try {
        const path = (req.url ?? '/').split('?')[0]!;
        // A method no route takes (TRACE, PROPFIND, …) never reaches Astro, whose web Request
        // refuses TRACE with a 500 and a stack trace on stderr.
        if (!ROUTED_METHODS.has(req.method ?? '')) return sendJson(res, 405, methodRefusal(req.method ?? '', path), { allow: ALLOWED_METHODS });
        // Astro logs a path it cannot decode at error level: a client's typo is a 404 here.
        if (!hasValidPathEncoding(path)) {
          return sendJson(
            res,
            404,
            buildEnvelope({
              code: 'ER.02.34',
              path,
              messages: { path: ['is not a valid URL path: each "%" must start an escaped UTF-8 character, such as %20'] },
            }),
          );
        }
        if (path === '/healthz') {
          if (req.method !== 'GET' && req.method !== 'HEAD')
            return sendJson(res, 405, methodRefusal(req.method ?? '', path, 'GET, HEAD'), { allow: 'GET, HEAD' });
          try {
            await app.database.ping();
            sendJson(res, shuttingDown.value ? 503 : 200, { status: shuttingDown.value ? 'shutting_down' : 'ok', database: app.database.kind });
          } catch {
            sendJson(res, 503, { status: 'unavailable', database: app.database.kind });
          }
          return;
        }
        if (path === '/readyz') {
          if (req.method !== 'GET' && req.method !== 'HEAD')
            return sendJson(res, 405, methodRefusal(req.method ?? '', path, 'GET, HEAD'), { allow: 'GET, HEAD' });
          const view = opts.readiness?.view() ?? { status: 'ready' as const, checks: {} };
          let database: 'ok' | 'unavailable' = 'ok';
          try {
            await app.database.ping();
          } catch {
            database = 'unavailable';
          }
          const ready = view.status === 'ready' && database === 'ok' && !shuttingDown.value;
          sendJson(res, ready ? 200 : 503, {
            status: shuttingDown.value ? 'draining' : database === 'ok' ? view.status : 'unavailable',
            checks: { database, ...view.checks },
          });
          return;
        }
        if (opts.readiness && !opts.readiness.started) {
          return sendJson(res, 503, buildEnvelope({ code: 'ER.99.02', path, messages: { '(request)': ['paylink is starting; try again in a second'] } }), {
            'retry-after': '1',
          });
        }
        const toAstro = () => {
          // Astro reads `req.body` when it is set: the guarded view (src/http/request-body.ts).
          if (hasBody(req)) {
            (req as IncomingMessage & { body?: unknown }).body = guardRequestBody(req, res, { tooLarge: (limit) => (locals.bodyTooLarge = limit) });
          }
          void opts.astroHandler(req, res, undefined, locals);
        };
        // A sign-in that finds the queue of password checks full is held here, before Astro builds a
        // request for it, until a place frees or a second passes (then refused, ER.01.04): a flood
        // that resends at once is slowed to the pace of the checks and costs no page each time.
        if (req.method === 'POST' && SIGN_IN_PATHS.has(path) && app.passwords.full) {
          const gone = new AbortController();
          res.once('close', () => gone.abort());
          const room = await app.passwords.waitForRoom(undefined, gone.signal);
          if (gone.signal.aborted) return;
          return room ? toAstro() : sendBusy(res, passwordCheckBusy());
        }
        // Static files answer GET and HEAD only; other methods go to the routes (405 or 404).
        if (req.method === 'GET' || req.method === 'HEAD') statics(req, res, toAstro);
        else toAstro();
      } catch (error) {
        app.log.error('unhandled request error', { requestId, error });
        if (!res.headersSent) {
          sendJson(res, 500, buildEnvelope({ code: 'ER.99.00', path: req.url ?? '/', data: { request_id: requestId } }));
        } else res.end();
      }
    });
  });
  // CONNECT (a proxy tunnel) and requests Node cannot parse (a lower-case or unknown method)
  // never become a request: answered on the socket, with the envelope where it is a method.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    socket.end(rawEnvelopeResponse(405, methodRefusal('CONNECT', req.url ?? '/'), { allow: ALLOWED_METHODS }));
  });
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    if (error.code === 'HPE_INVALID_METHOD') {
      const [method = '', target = '/'] = (error.rawPacket?.toString('latin1') ?? '').split('\r\n', 1)[0]!.split(' ');
      socket.end(
        rawEnvelopeResponse(405, methodRefusal(method.slice(0, 32), target.startsWith('/') ? target.slice(0, 2048) : '/'), { allow: ALLOWED_METHODS }),
      );
      return;
    }
    // What Node answers by itself when nobody listens for this event.
    const status =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? '431 Request Header Fields Too Large'
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? '408 Request Timeout'
          : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
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
  bodyTooLarge?: number;
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
function logRequest(app: PaylinkApp, req: IncomingMessage, res: ServerResponse, locals: RequestLocals, ms: number, span?: RequestSpan) {
  const path = (req.url ?? '/').split('?')[0]!;
  span?.end(locals.route ?? routeOfPath(path), res.statusCode);
  // Metrics label by the matched pattern only: a path no route matched (a hostile client's
  // invention, a static file) must not become a series of its own.
  app.observeRequest?.(req.method ?? '', locals.route ?? (res.statusCode === 404 ? '(not found)' : '(static or probe)'), res.statusCode, ms / 1000);
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
