import type { APIContext, APIRoute } from 'astro';
import { z } from 'zod';
import type { PaylinkApp } from '../app.ts';
import { sha256Hex } from '../crypto.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { DomainError, invalidFields, type Messages } from '../domain/errors.ts';
import type { Integrator } from '../domain/integrators/service.ts';
import { integratorSuspendedError, isSuspended } from '../domain/integrators/suspension.ts';
import { parseWith } from '../schemas/parse.ts';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '../schemas/text.ts';
import { authenticate, LinkKeyInApiError, tokenFromAuthorization } from './auth.ts';
import { bodyTooLarge, readJsonBody } from './body.ts';
import type { StatusCode } from './catalogue.ts';
import { buildEnvelope, envelopeResponse, jsonResponse } from './envelope.ts';
import { claimKey, completeKey, holdKey, releaseKey } from './idempotency.ts';
import { inCustomerLanguage } from './page-locale.ts';
import { assertSameOriginJson } from './same-origin.ts';

/** What a route's `run` returns: an envelope's code and data, or a finished Response. */
export type EndpointResult = { code: StatusCode; data?: Record<string, unknown>; httpStatus?: number; messages?: Messages | string } | Response;

export interface EndpointContext<Body> {
  app: PaylinkApp;
  request: Request;
  url: URL;
  params: APIContext['params'];
  /** The authenticated integrator (undefined only for `auth: 'none'`). */
  integrator: Integrator;
  body: Body;
  requestId: string;
  /** The client's address (see clientIpOf). */
  clientIp: string;
}

/** Custom authentication from the body (a dynamic link's `key`): the integrator, or undefined when the credential is unknown. */
type Authenticator = (app: PaylinkApp, request: Request, body: Record<string, unknown> | undefined) => Promise<Integrator | undefined>;

export interface EndpointOptions<S extends z.ZodType | undefined> {
  /**
   * 'header' (default): the Authorization token, checked before the body is read. 'none': no
   * credential. A function: a credential inside the body (a dynamic link's `key`).
   */
  auth?: 'header' | 'none' | Authenticator;
  /** Customer-facing form endpoints: same-origin JSON only (src/api/same-origin.ts). */
  browser?: boolean;
  /** zod schema for a JSON body; invalid → 422 ER.02.30 with `messages`. */
  body?: S;
  /** Largest body read, in bytes (default 64 KiB; link settings carry a logo and take 1 MiB). */
  bodyLimit?: number;
  /**
   * Whether a suspended integrator (src/domain/integrators/suspension.ts) is served: by default
   * reads (GET) are and everything else answers 403 ER.01.40; a write that takes no new money
   * (a refund, a cancellation, a settings change) says `true`.
   */
  whileSuspended?: boolean;
  /** Honour `Idempotency-Key` (default: true for POST). */
  idempotent?: boolean;
  /** Checks that need no body and no credential (e.g. the link exists), before the body is read. */
  before?(ctx: { app: PaylinkApp; request: Request; params: APIContext['params'] }): Promise<void>;
  run(ctx: EndpointContext<S extends z.ZodType ? z.infer<S> : undefined>): Promise<EndpointResult>;
}

const IDEMPOTENCY_KEY_MAX = 255;

/** A browser form's body: any JSON object; the domain parses it with the form's own rules. */
export const anyJsonObject = z.looseObject({});

/** Path parameters and query values are text too: one the database cannot store names nothing that exists. */
function checkUrlText(url: URL, params: APIContext['params']) {
  for (const value of Object.values(params)) {
    if (value !== undefined && !isStorableText(value)) throw new DomainError('ER.02.34', 'Resource not found', { messages: { path: ['does not exist'] } });
  }
  for (const [name, value] of url.searchParams) {
    if (!isStorableText(name) || !isStorableText(value)) throw invalidFields({ [isStorableText(name) ? name : '(query)']: [UNSTORABLE_TEXT_MESSAGE] });
  }
}

/** The client address src/http/server.ts worked out (socket, or X-Forwarded-For behind PAYLINK_TRUST_PROXY=1). */
export const clientIpOf = (context: Pick<APIContext, 'locals'>) => context.locals.clientIp ?? 'unknown';

/**
 * The origin paylink's own pages are served from: PUBLIC_URL's when it is set, else the one the
 * request was sent to. The request's origin comes from its `Host` header, which whoever sends the
 * request chooses (a page of a rebound hostile domain sends its own name), so it is believed only
 * when there is nothing better.
 */
export const ownOrigins = (app: PaylinkApp, url: URL) => (app.config.publicUrl ? [new URL(app.config.publicUrl).origin] : [url.origin]);

/**
 * Every API route and form endpoint is built with this. Order matters: cheap refusals come
 * first and the body is read last, so a client without a credential gets 401 (not 400, 413 or
 * 415) and nobody makes paylink read a body it will refuse anyway.
 */
export function apiEndpoint<S extends z.ZodType | undefined = undefined>(options: EndpointOptions<S>): APIRoute {
  return async (context) => {
    const app = context.locals.paylink;
    const requestId = context.locals.requestId;
    const path = context.url.pathname;
    const clientIp = clientIpOf(context);
    try {
      checkUrlText(context.url, context.params);
      if (options.browser) assertSameOriginJson(context.request, ownOrigins(app, context.url));
      const auth = options.auth ?? 'header';
      let integrator: Integrator | undefined;
      if (auth === 'header') integrator = await authenticateHeader(app, context.request, clientIp);
      else if (auth !== 'none') await app.rateLimits.assertMayAuthenticate(clientIp);
      await options.before?.({ app, request: context.request, params: context.params });
      let raw: { value: Record<string, unknown>; text: string } | undefined;
      if (options.body) raw = await readJsonBody(context.request, options.bodyLimit);
      if (typeof auth === 'function') {
        integrator = await auth(app, context.request, raw?.value);
        if (!integrator) {
          await app.rateLimits.authenticationFailed(clientIp);
          throw new DomainError('ER.01.01', 'Invalid link key', { messages: { key: ["is neither the link key nor the API token of this link's owner"] } });
        }
        await app.rateLimits.countApiRequest(integrator.id);
      }
      if (integrator) context.locals.integratorId = integrator.id;
      const method = context.request.method;
      if (integrator && isSuspended(integrator) && !(options.whileSuspended ?? (method === 'GET' || method === 'HEAD'))) throw integratorSuspendedError();
      let body: unknown;
      if (options.body) {
        const parsed = parseWith(options.body, raw!.value);
        if (!parsed.ok) throw invalidFields(parsed.messages);
        body = parsed.value;
      }
      const execute = async () =>
        toResponse(
          await options.run({
            app,
            request: context.request,
            url: context.url,
            params: context.params,
            integrator: integrator as Integrator,
            body: body as never,
            requestId,
            clientIp,
          }),
          path,
          app.now(),
        );
      const idempotent = options.idempotent ?? context.request.method === 'POST';
      const key = context.request.headers.get('idempotency-key');
      if (!idempotent || key === null || !integrator) return await execute();
      if (key.trim() === '' || key.length > IDEMPOTENCY_KEY_MAX) {
        throw new DomainError('ER.02.42', 'Invalid idempotency key', { messages: { 'idempotency-key': [`must be 1 to ${IDEMPOTENCY_KEY_MAX} characters`] } });
      }
      // A rule's refusal raised while running is a result like any other: stored and replayed
      // (as Stripe does). Only unexpected failures (5xx) leave the key free for a retry.
      const executeOrRefuse = () =>
        execute().catch((error) => (error instanceof DomainError ? errorResponse(app, error, path, requestId) : Promise.reject(error)));
      return await withIdempotency(app, { scope: integrator.id, key, method: context.request.method, path, bodyText: raw?.text ?? '' }, executeOrRefuse);
    } catch (caught) {
      // A body over the HTTP layer's limit fails whatever read it (src/http/request-body.ts).
      const error = context.locals.bodyTooLarge !== undefined ? bodyTooLarge(context.locals.bodyTooLarge) : caught;
      return errorResponse(app, options.browser ? inCustomerLanguage(error, context.request) : error, path, requestId);
    }
  };
}

/** The Authorization token, with failed attempts counted per client address and requests per integrator. */
async function authenticateHeader(app: PaylinkApp, request: Request, clientIp: string): Promise<Integrator> {
  await app.rateLimits.assertMayAuthenticate(clientIp);
  let integrator: Integrator;
  try {
    integrator = await authenticate(app, request);
  } catch (error) {
    if (error instanceof LinkKeyInApiError) {
      await app.rateLimits.countApiRequest(error.integratorId);
      throw error;
    }
    // A token was sent and matched nobody: a guess, or a wrong credential.
    if (error instanceof DomainError && tokenFromAuthorization(request.headers.get('authorization'))) await app.rateLimits.authenticationFailed(clientIp);
    throw error;
  }
  await app.rateLimits.countApiRequest(integrator.id);
  return integrator;
}

async function withIdempotency(
  app: PaylinkApp,
  req: { scope: string; key: string; method: string; path: string; bodyText: string },
  execute: () => Promise<Response>,
): Promise<Response> {
  const requestHash = sha256Hex(`${req.method}\n${req.path}\n${req.bodyText}`);
  const claim = await claimKey(app.db, { ...req, requestHash, now: app.now(), ttlSeconds: app.config.idempotencyTtlSeconds });
  if (claim.kind === 'mismatch') {
    throw new DomainError('ER.02.40', 'Idempotency key reused with a different request', {
      messages: { 'idempotency-key': ['was already used with a different method, path or body; use a new key for a new request'] },
    });
  }
  if (claim.kind === 'running') {
    throw new DomainError('ER.02.41', 'Idempotent request still in progress', {
      messages: {
        'idempotency-key': [
          `a request with this key is still being processed; retry when it has finished (its claim lapses in ${claim.retryAfterSeconds} s if its process stopped)`,
        ],
      },
      retryAfterSeconds: claim.retryAfterSeconds,
    });
  }
  if (claim.kind === 'replay') {
    return jsonResponse(claim.body, claim.status, { 'idempotent-replayed': 'true' });
  }
  // The claim is a lease: renewed while this request runs, so only a dead process's claim lapses.
  const hold = holdKey(app.db, { scope: req.scope, key: req.key, now: () => app.now() });
  try {
    let response: Response;
    try {
      response = await execute();
    } catch (error) {
      await releaseKey(app.db, req).catch(() => {});
      throw error;
    }
    if (response.status >= 500) {
      await releaseKey(app.db, req).catch(() => {});
      return response;
    }
    const text = await response.text();
    await completeKey(app.db, { scope: req.scope, key: req.key, status: response.status, body: text });
    return new Response(text, { status: response.status, headers: response.headers });
  } finally {
    hold.release();
  }
}

function toResponse(result: EndpointResult, path: string, now: Date): Response {
  if (result instanceof Response) return result;
  return envelopeResponse(buildEnvelope({ code: result.code, path, httpStatus: result.httpStatus, data: result.data, messages: result.messages, now }));
}

/** How long a client should wait after 503 ER.99.01 (the database could not be reached). */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * Every failure becomes an envelope; unexpected ones are logged and carry only a request id.
 * An unreachable database is 503 ER.99.01 with Retry-After (safe to retry: the request's
 * database transaction, if any, did not commit), anything else 500 ER.99.00.
 */
export function errorResponse(app: PaylinkApp | undefined, error: unknown, path: string, requestId: string): Response {
  if (error instanceof DomainError) {
    return envelopeResponse(
      buildEnvelope({ code: error.code, path, httpStatus: error.httpStatus, data: error.data, messages: error.messages ?? { '(request)': [error.message] } }),
      error.retryAfterSeconds !== undefined ? { 'retry-after': String(error.retryAfterSeconds) } : {},
    );
  }
  if (isDatabaseUnavailable(error)) {
    app?.log.error('request failed: database unavailable', { requestId, path, error });
    return envelopeResponse(
      buildEnvelope({
        code: 'ER.99.01',
        path,
        data: { request_id: requestId },
        messages: 'The service is temporarily unavailable; retry in a few seconds.',
      }),
      { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
    );
  }
  app?.log.error('request failed', { requestId, path, error });
  return envelopeResponse(
    buildEnvelope({
      code: 'ER.99.00',
      path,
      data: { request_id: requestId },
      messages: `Something went wrong on our side. Quote request id ${requestId} to support.`,
    }),
  );
}

/** `export const ALL = methodNotAllowed(['POST', 'DELETE'])` in a route with those handlers. */
export function methodNotAllowed(allowed: string[]): APIRoute {
  return (context) =>
    envelopeResponse(
      buildEnvelope({
        code: 'ER.02.35',
        path: context.url.pathname,
        messages: { method: [`${context.request.method} is not allowed here; use ${allowed.join(' or ')}`] },
      }),
      { allow: allowed.join(', ') },
    );
}
