import type { APIContext, APIRoute } from 'astro';
import { z } from 'zod';
import type { PaylinkApp } from '../app.ts';
import { sha256Hex } from '../crypto.ts';
import { DomainError, invalidFields, type Messages } from '../domain/errors.ts';
import type { Integrator } from '../domain/integrators/service.ts';
import { parseWith } from '../schemas/parse.ts';
import { authenticate } from './auth.ts';
import { readJsonBody } from './body.ts';
import type { StatusCode } from './catalogue.ts';
import { buildEnvelope, envelopeResponse } from './envelope.ts';
import { claimKey, completeKey, releaseKey } from './idempotency.ts';

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
}

type Authenticator = (app: PaylinkApp, request: Request, body: Record<string, unknown> | undefined) => Promise<Integrator>;

export interface EndpointOptions<S extends z.ZodType | undefined> {
  /** 'header' (default): the Authorization token. A function: custom (e.g. a link's `key`). */
  auth?: 'header' | 'none' | Authenticator;
  /** zod schema for a JSON body; invalid → 422 ER.02.30 with `messages`. */
  body?: S;
  /** Honour `Idempotency-Key` (default: true for POST). */
  idempotent?: boolean;
  run(ctx: EndpointContext<S extends z.ZodType ? z.infer<S> : undefined>): Promise<EndpointResult>;
}

const IDEMPOTENCY_KEY_MAX = 255;

/** A browser form's body: any JSON object; the domain parses it with the form's own rules. */
export const anyJsonObject = z.looseObject({});

export function apiEndpoint<S extends z.ZodType | undefined = undefined>(options: EndpointOptions<S>): APIRoute {
  return async (context) => {
    const app = context.locals.paylink;
    const requestId = context.locals.requestId;
    const path = context.url.pathname;
    try {
      let raw: { value: Record<string, unknown>; text: string } | undefined;
      if (options.body) raw = await readJsonBody(context.request);
      const auth = options.auth ?? 'header';
      const integrator =
        auth === 'none'
          ? (undefined as unknown as Integrator)
          : auth === 'header'
            ? await authenticate(app, context.request)
            : await auth(app, context.request, raw?.value);
      let body: unknown;
      if (options.body) {
        const parsed = parseWith(options.body, raw!.value);
        if (!parsed.ok) throw invalidFields(parsed.messages);
        body = parsed.value;
      }
      const execute = async () =>
        toResponse(
          await options.run({ app, request: context.request, url: context.url, params: context.params, integrator, body: body as never, requestId }),
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
    } catch (error) {
      return errorResponse(app, error, path, requestId);
    }
  };
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
      messages: { 'idempotency-key': ['a request with this key is still being processed; retry when it has finished'] },
    });
  }
  if (claim.kind === 'replay') {
    return new Response(claim.body, {
      status: claim.status,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'idempotent-replayed': 'true' },
    });
  }
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
}

function toResponse(result: EndpointResult, path: string, now: Date): Response {
  if (result instanceof Response) return result;
  return envelopeResponse(buildEnvelope({ code: result.code, path, httpStatus: result.httpStatus, data: result.data, messages: result.messages, now }));
}

/** Every failure becomes an envelope; unexpected ones are logged and carry only a request id. */
export function errorResponse(app: PaylinkApp | undefined, error: unknown, path: string, requestId: string): Response {
  if (error instanceof DomainError) {
    return envelopeResponse(
      buildEnvelope({ code: error.code, path, httpStatus: error.httpStatus, data: error.data, messages: error.messages ?? { '(request)': [error.message] } }),
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
