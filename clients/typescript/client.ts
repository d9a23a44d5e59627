/**
 * The typed paylink client (`@paylink/client`): every path, parameter, body and response of paylink's
 * OpenAPI document (schema.d.ts, `npm run client:generate`) checked by TypeScript, over the `fetch`
 * Node 18 and later have built in. No runtime dependency.
 *
 *   const paylink = createPaylinkClient({ baseUrl: 'http://127.0.0.1:4321', token });
 *   const { data } = await paylink.GET('/api/v1/transactions/{transaction_id}', { params: { path: { transaction_id } } });
 *
 * Decide success from `data.data.status_code` as well as the HTTP status: business refusals (a
 * refund of a refunded payment, a declined card) arrive with HTTP 200 and an `ER.` code.
 */
import type { components, operations, paths } from './schema.d.ts';

export type { components, operations, paths };

export interface PaylinkClientOptions {
  /** Where paylink runs, e.g. http://127.0.0.1:4321 (a path prefix, if paylink is served under one, is kept). */
  baseUrl: string;
  /** Your secret API token: sent as `Authorization` on /api/v1 calls. The dynamic link takes your publishable link key in the body as `key`. */
  token?: string;
  /** A `fetch` of your own (a proxy, a test double); the global one by default. */
  fetch?: typeof globalThis.fetch;
  /** Headers sent on every call (e.g. a `user-agent` naming your integration). */
  headers?: Record<string, string>;
}

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
type Operation<P extends keyof paths, M extends Method> = Exclude<paths[P][M], undefined>;
/** The paths that have method M. */
export type PathsWith<M extends Method> = { [P in keyof paths]: [Operation<P, M>] extends [never] ? never : P }[keyof paths];

/** The `path` and `query` parameters an operation takes (those it has, as optional as the document says). */
type OperationParams<O> = O extends { parameters: infer P }
  ? { [K in keyof P as K extends 'path' | 'query' ? ([Exclude<P[K], undefined>] extends [never] ? never : K) : never]: P[K] }
  : Record<never, never>;
type ParamsPart<O> = keyof OperationParams<O> extends never
  ? { params?: never }
  : Record<never, never> extends OperationParams<O>
    ? { params?: OperationParams<O> }
    : { params: OperationParams<O> };
type JsonBody<O> = O extends { requestBody?: infer B } ? (Exclude<B, undefined> extends { content: { 'application/json': infer J } } ? J : never) : never;
type BodyPart<O> = [JsonBody<O>] extends [never] ? { body?: never } : O extends { requestBody: unknown } ? { body: JsonBody<O> } : { body?: JsonBody<O> };

/** What a call takes besides its path: the operation's parameters and JSON body, and per-call headers or signal. */
export type PaylinkRequestInit<O> = ParamsPart<O> & BodyPart<O> & { headers?: Record<string, string>; signal?: AbortSignal };
type InitArgs<O> = Record<never, never> extends PaylinkRequestInit<O> ? [init?: PaylinkRequestInit<O>] : [init: PaylinkRequestInit<O>];

type SuccessCodes = 200 | 201 | 202 | 203 | 204 | 206 | '2XX';
type JsonOf<R> = R extends { content: { 'application/json': infer T } } ? T : undefined;
type Responses<O> = O extends { responses: infer R } ? R : never;
/** The parsed JSON of the operation's 2xx answers. */
export type SuccessBody<O> = JsonOf<Responses<O>[Extract<keyof Responses<O>, SuccessCodes>]>;
/** The parsed JSON of its other answers (the envelope, with an `ER.` status code). */
export type ErrorBody<O> = JsonOf<Responses<O>[Exclude<keyof Responses<O>, SuccessCodes>]>;

/**
 * An answer: `data` on a 2xx, `error` otherwise (both the parsed JSON body), and the `Response`
 * itself. A network failure rejects, as `fetch` does.
 */
export type PaylinkResult<O> = { data: SuccessBody<O>; error?: never; response: Response } | { data?: never; error: ErrorBody<O>; response: Response };

type Call<M extends Method> = <P extends PathsWith<M>>(path: P, ...init: InitArgs<Operation<P, M>>) => Promise<PaylinkResult<Operation<P, M>>>;

export interface PaylinkClient {
  GET: Call<'get'>;
  POST: Call<'post'>;
  PUT: Call<'put'>;
  PATCH: Call<'patch'>;
  DELETE: Call<'delete'>;
}

interface LooseInit {
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown> };
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** The URL of `template` (e.g. `/api/v1/links/{slug}`) with its path parameters filled in and the query appended. */
function urlFor(baseUrl: string, template: string, params: LooseInit['params']): string {
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params?.path?.[name];
    if (value === undefined || value === null || value === '') throw new TypeError(`paylink client: ${template} needs the path parameter "${name}"`);
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params?.query ?? {})) {
    if (value === undefined || value === null) continue;
    for (const one of Array.isArray(value) ? value : [value]) query.append(name, String(one));
  }
  const search = query.toString();
  return `${baseUrl.replace(/\/+$/, '')}${path}${search ? `?${search}` : ''}`;
}

async function bodyOf(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205 || response.status === 304) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (!/\bjson\b/i.test(type)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function createPaylinkClient(options: PaylinkClientOptions): PaylinkClient {
  const { baseUrl, token } = options;
  if (!/^https?:\/\//i.test(baseUrl)) throw new TypeError(`paylink client: baseUrl must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);
  const call =
    (method: Uppercase<Method>) =>
    async (path: string, init: LooseInit = {}): Promise<{ data?: unknown; error?: unknown; response: Response }> => {
      const headers = new Headers(options.headers);
      for (const [name, value] of Object.entries(init.headers ?? {})) headers.set(name, value);
      if (token && path.startsWith('/api/v1/') && !headers.has('authorization')) headers.set('authorization', token);
      const hasBody = init.body !== undefined;
      if (hasBody && !headers.has('content-type')) headers.set('content-type', 'application/json');
      if (!headers.has('accept')) headers.set('accept', 'application/json');
      const fetchImpl = options.fetch ?? globalThis.fetch;
      const response = await fetchImpl(urlFor(baseUrl, path, init.params), {
        method,
        headers,
        ...(hasBody ? { body: JSON.stringify(init.body) } : {}),
        ...(init.signal ? { signal: init.signal } : {}),
      });
      const parsed = await bodyOf(response);
      return response.ok ? { data: parsed, response } : { error: parsed, response };
    };
  return { GET: call('GET'), POST: call('POST'), PUT: call('PUT'), PATCH: call('PATCH'), DELETE: call('DELETE') } as PaylinkClient;
}

/** The envelope's `data.status_code`, whether the call succeeded or failed. */
export function statusCodeOf(result: { data?: unknown; error?: unknown }): string | undefined {
  const body = (result.data ?? result.error) as { data?: { status_code?: unknown } } | undefined;
  return typeof body?.data?.status_code === 'string' ? body.data.status_code : undefined;
}
