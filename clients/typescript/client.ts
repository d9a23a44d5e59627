/**
 * A typed paylink client: openapi-fetch over the types generated from paylink's OpenAPI document
 * (schema.d.ts, `npm run client:generate`). Every path, body and response is checked by TypeScript.
 *
 *   const paylink = createPaylinkClient({ baseUrl: 'http://127.0.0.1:4321', token });
 *   const { data } = await paylink.GET('/api/v1/transactions/{transaction_id}', { params: { path: { transaction_id } } });
 *
 * Decide success from `data.data.status_code` as well as the HTTP status: business refusals (a
 * refund of a refunded payment, a declined card) arrive with HTTP 200 and an `ER.` code.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './schema.d.ts';

export type { components, paths };

export interface PaylinkClientOptions {
  /** Where paylink runs, e.g. http://127.0.0.1:4321. */
  baseUrl: string;
  /** Your secret API token: sent as `Authorization` on /api/v1 calls. The dynamic link takes your publishable link key in the body as `key`. */
  token?: string;
  fetch?: typeof globalThis.fetch;
}

export function createPaylinkClient(options: PaylinkClientOptions) {
  const client = createClient<paths>({ baseUrl: options.baseUrl, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const { token } = options;
  if (token) {
    client.use({
      onRequest({ request, schemaPath }) {
        if (schemaPath.startsWith('/api/v1/') && !request.headers.has('authorization')) request.headers.set('authorization', token);
        return request;
      },
    });
  }
  return client;
}

export type PaylinkClient = ReturnType<typeof createPaylinkClient>;

/** The envelope's `data.status_code`, whether the call succeeded or failed. */
export function statusCodeOf(result: { data?: unknown; error?: unknown }): string | undefined {
  const body = (result.data ?? result.error) as { data?: { status_code?: unknown } } | undefined;
  return typeof body?.data?.status_code === 'string' ? body.data.status_code : undefined;
}
