import { methodNotAllowed } from '../../../api/endpoint.ts';
import { openApiDocument } from '../../../api/openapi/document.ts';

/** The OpenAPI 3.1 document: public and cacheable, like any published API description. */
export const GET = () =>
  new Response(JSON.stringify(openApiDocument()), {
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*' },
  });
export const ALL = methodNotAllowed(['GET']);
