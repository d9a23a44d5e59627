import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { OpenApiDocument } from '../../src/api/openapi/document.ts';

const DOC_ID = 'https://paylink.invalid/openapi.json';
const pointer = (...parts: string[]) => parts.map((p) => encodeURIComponent(p.replaceAll('~', '~0').replaceAll('/', '~1'))).join('/');

/** Validates bodies against the document's own schemas with a JSON Schema 2020-12 validator (ajv). */
export function openApiValidator(doc: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ ...doc, $id: DOC_ID });
  const check = (path: string[], value: unknown): string[] => {
    const validate = ajv.getSchema(`${DOC_ID}#/${pointer(...path)}`);
    if (!validate) return [`the document has no schema at /${path.join('/')}`];
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}`);
  };
  return {
    /** Errors of a response body (empty: it matches the document). */
    response(method: string, template: string, status: number, body: unknown): string[] {
      const op = doc.paths[template]?.[method.toLowerCase()];
      if (!op) return [`${method} ${template} is not in the document`];
      if (!op.responses[String(status)]) return [`${method} ${template} does not document HTTP ${status}: ${JSON.stringify(body)}`];
      return check(['paths', template, method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema'], body);
    },
    request(method: string, template: string, body: unknown): string[] {
      return check(['paths', template, method.toLowerCase(), 'requestBody', 'content', 'application/json', 'schema'], body);
    },
  };
}

/** The document's path template that a concrete path matches (`/api/v1/schedules/sch_1` → `/api/v1/schedules/{reference}`). */
export function templateOf(doc: OpenApiDocument, method: string, path: string): string | undefined {
  const candidates = Object.keys(doc.paths).filter((t) => doc.paths[t]?.[method.toLowerCase()]);
  const exact = candidates.find((t) => t === path);
  if (exact) return exact;
  return candidates.find((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));
}

/**
 * Every (method, path) the routes serve: the files under src/pages/api/v1 with the methods they
 * export, plus the dynamic payment link (POST /pay/{slug}, handled by the page) and the payment
 * pages' JSON endpoints.
 */
export function servedOperations(root: string): string[] {
  const pages = join(root, 'src/pages');
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : name.endsWith('.ts') ? [join(dir, name)] : []));
  const routes = [
    ...files(join(pages, 'api/v1')),
    join(pages, 'checkout/[token]/pay.ts'),
    join(pages, 'pay/[slug]/pay.ts'),
    join(pages, 'register/[token]/card.ts'),
    join(pages, 'checkout/[token]/provider.ts'),
    join(pages, 'pay/[slug]/provider.ts'),
    join(pages, 'checkout/[token]/quote.ts'),
    join(pages, 'pay/[slug]/quote.ts'),
    join(pages, 'webhooks/[provider]/[id].ts'),
  ];
  const out: string[] = [];
  for (const file of routes) {
    const route = `/${relative(pages, file)
      .replace(/\.ts$/, '')
      .replace(/\[([^\].]+)\]/g, '{$1}')}`;
    if (route.includes('[...')) continue; // the catch-all 404
    const methods = [...readFileSync(file, 'utf8').matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1]!.toLowerCase());
    for (const method of methods) out.push(`${method} ${route}`);
  }
  if (/method === 'POST'/.test(readFileSync(join(pages, 'pay/[slug].astro'), 'utf8'))) out.push('post /pay/{slug}');
  return out.sort();
}
