import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import type { $ZodType } from 'zod/v4/core';
import { envelopeTimestampSchema, errorDataSchema, messagesSchema } from '../../schemas/envelope.ts';
import { catalogue, type StatusCode } from '../catalogue.ts';
import { type Auth, type CodeEntry, type Operation, operations } from './operations.ts';

/**
 * The OpenAPI 3.1 document, generated from operations.ts and the zod schemas it names (zod 4's
 * JSON Schema output, draft 2020-12, which OpenAPI 3.1 uses as is). Never written by hand:
 * GET /api/v1/openapi.json serves it, /docs/api renders it, clients/typescript is generated from it.
 */
type JsonSchema = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: '3.1.1';
  info: Record<string, unknown>;
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, unknown> };
}

export interface OpenApiOperation {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  security: Record<string, string[]>[];
  parameters?: Record<string, unknown>[];
  requestBody?: Record<string, unknown>;
  responses: Record<string, OpenApiResponse>;
  'x-status-codes': { status_code: string; http: number; description: string }[];
  'x-auth': Auth;
}

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, unknown>;
  content: { 'application/json': { schema: JsonSchema; examples?: Record<string, { summary?: string; value: unknown }> } };
}

const TAGS: Record<Operation['tag'], string> = {
  'Payment links': 'Static and dynamic payment links (docs/payment-links.md).',
  'Promotion codes': 'Codes customers type on a payment page for a discount (docs/promotions.md).',
  Refunds: 'FULL and PARTIAL refunds of a payment (docs/refunds.md).',
  Transactions: 'Payments and their refunds, for reconciliation.',
  'Card registrations': 'Cards a customer registers on a hosted page, for schedules (docs/schedules.md).',
  Schedules: 'Recurring charges of a registered card, signed as an HS256 JWT (docs/schedules.md).',
  'Events and callbacks': 'Everything that happened, and its delivery to your callback URL (docs/callbacks.md).',
  Account: 'The integrator behind the token.',
  'Payment pages': 'The JSON the hosted pages send from the customer’s browser: same-origin only, listed so nothing is hidden.',
  Meta: 'Liveness and this document.',
};

/** Codes any operation of a kind can answer with, beside its own. */
function commonCodes(op: Operation): Partial<Record<StatusCode, CodeEntry>> {
  const codes: Partial<Record<StatusCode, CodeEntry>> = {};
  const add = (...list: StatusCode[]) => {
    for (const code of list) codes[code] = {};
  };
  if (op.auth === 'token') add('ER.01.00', 'ER.01.02', 'ER.01.30', 'ER.02.43');
  if (op.auth === 'link-key') add('ER.01.01', 'ER.01.02', 'ER.02.43', 'ER.03.10');
  if (op.auth === 'browser') add('ER.02.44');
  if (op.body) add('ER.02.30', 'ER.02.31', 'ER.02.32', 'ER.02.33');
  if (op.query) add('ER.02.30');
  if (op.pathParams) codes['ER.02.34'] = {};
  if (op.method === 'post' && op.body && (op.auth === 'token' || op.auth === 'link-key')) add('ER.02.40', 'ER.02.41', 'ER.02.42');
  add('ER.99.00');
  return codes;
}

/** The operation's codes and their HTTP statuses: ER.02.30 may be both 422 (fields) and 404 (unknown reference). */
export function operationCodes(op: Operation): { code: StatusCode; http: number; entry: CodeEntry }[] {
  const out: { code: StatusCode; http: number; entry: CodeEntry }[] = [];
  const seen = new Set<string>();
  const push = (code: StatusCode, entry: CodeEntry) => {
    const http = entry.http ?? catalogue[code].http;
    if (seen.has(`${code} ${http}`)) return;
    seen.add(`${code} ${http}`);
    out.push({ code, http, entry });
  };
  for (const [code, entry] of Object.entries(op.codes) as [StatusCode, CodeEntry][]) {
    push(code, entry);
    for (const http of entry.alsoHttp ?? []) push(code, { ...entry, http });
  }
  for (const [code, entry] of Object.entries(commonCodes(op)) as [StatusCode, CodeEntry][]) push(code, entry);
  // Successes first within an HTTP status (a refund's 200 carries both).
  const rank = (code: string) => (code.startsWith('OK') ? 0 : 1);
  return out.sort((a, b) => a.http - b.http || rank(a.code) - rank(b.code) || a.code.localeCompare(b.code));
}

/** The envelope for one HTTP status: `data` is one of the shapes its codes carry. */
function envelopeFor(http: number, codes: { code: StatusCode; entry: CodeEntry }[]): z.ZodType {
  const byShape = new Map<CodeEntry['data'], StatusCode[]>();
  for (const { code, entry } of codes) byShape.set(entry.data, [...(byShape.get(entry.data) ?? []), code]);
  const variants = [...byShape].flatMap(([data, list]) => {
    const statusCode = list.length === 1 ? z.literal(list[0]!) : z.enum(list as [StatusCode, ...StatusCode[]]);
    const shapes = data === undefined ? [undefined] : Array.isArray(data) ? data : [data as z.ZodObject];
    return shapes.map((shape) =>
      shape
        ? shape.extend({ status_code: statusCode, status_description: z.string() }).strict()
        : errorDataSchema.extend({ status_code: statusCode, status_description: z.string() }),
    );
  });
  const data = variants.length === 1 ? variants[0]! : z.union(variants as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]]);
  return z
    .object({
      timestamp: envelopeTimestampSchema,
      status: z.literal(http),
      message: z.literal(STATUS_CODES[http] ?? 'Unknown'),
      path: z.string().meta({ description: 'The path that was called.' }),
      data,
      messages: messagesSchema.optional(),
    })
    .strict();
}

class SchemaWriter {
  readonly components: Record<string, JsonSchema> = {};

  /** JSON Schema for a zod schema; schemas with a `.meta({ id })` become components referenced by `$ref`. */
  write(schema: $ZodType, io: 'input' | 'output'): JsonSchema {
    const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
    const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
    for (const [name, def] of Object.entries(defs)) this.components[name] = relink(def) as JsonSchema;
    delete json.$defs;
    delete json.$schema;
    const id = json.id ?? z.globalRegistry.get(schema)?.id;
    if (typeof id === 'string') {
      delete json.id;
      this.components[id] = relink(json) as JsonSchema;
      return { $ref: `#/components/schemas/${id}` };
    }
    return relink(json) as JsonSchema;
  }
}

/** `#/$defs/X` (one schema's own definitions) → `#/components/schemas/X` (the document's). */
function relink(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relink);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] =
      key === '$ref' && typeof v === 'string' ? v.replace('#/$defs/', '#/components/schemas/') : key === 'id' && typeof v === 'string' ? undefined : relink(v);
    if (out[key] === undefined) delete out[key];
  }
  return out;
}

const retryAfter = { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } } };

function parametersOf(op: Operation, writer: SchemaWriter): Record<string, unknown>[] {
  const params: Record<string, unknown>[] = [];
  const fromObject = (shape: z.ZodObject, where: 'path' | 'query') => {
    const json = writer.write(shape, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, schema] of Object.entries(json.properties ?? {})) {
      const { description, ...rest } = schema;
      params.push({
        name,
        in: where,
        required: where === 'path' || (json.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  };
  if (op.pathParams) fromObject(op.pathParams, 'path');
  if (op.query) fromObject(op.query, 'query');
  if (op.method === 'post' && op.body && (op.auth === 'token' || op.auth === 'link-key')) {
    params.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Any 1–255 characters: the same key with the same request within 24 h replays the first response (`Idempotent-Replayed: true`).',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }
  return params;
}

const exampleTimestamp = '2026-11-21T09:15:02.123+00:00';

function successExample(op: Operation) {
  if (!op.successExample) return undefined;
  const { code, data } = op.successExample;
  const http = op.codes[code]?.http ?? catalogue[code].http;
  return {
    http,
    value: {
      timestamp: exampleTimestamp,
      status: http,
      message: STATUS_CODES[http],
      path: op.path,
      data: { ...data, status_code: code, status_description: catalogue[code].description },
    },
  };
}

function operationObject(op: Operation, writer: SchemaWriter): OpenApiOperation {
  const codes = operationCodes(op);
  const byHttp = new Map<number, { code: StatusCode; entry: CodeEntry }[]>();
  for (const c of codes) byHttp.set(c.http, [...(byHttp.get(c.http) ?? []), c]);
  const responses: Record<string, OpenApiResponse> = {};
  const example = successExample(op);
  if (op.plainSuccess) {
    responses['200'] = {
      description: op.plainSuccess.description,
      ...(op.plainSuccess.cache ? { headers: { 'Cache-Control': { schema: { type: 'string' }, description: 'public, max-age=300' } } } : {}),
      content: { 'application/json': { schema: writer.write(op.plainSuccess.schema, 'output') } },
    };
  }
  for (const [http, list] of [...byHttp].sort(([a], [b]) => a - b)) {
    const described = list.map(({ code }) => `\`${code}\` ${catalogue[code].description}`).join('; ');
    const schema = writer.write(envelopeFor(http, list), 'output');
    if (responses[String(http)]) continue; // the plain success owns 200
    responses[String(http)] = {
      description: described,
      ...(http === 429 ? { headers: retryAfter } : {}),
      content: {
        'application/json': {
          schema,
          ...(example && example.http === http
            ? { examples: { [op.successExample!.code]: { summary: catalogue[op.successExample!.code].description, value: example.value } } }
            : {}),
        },
      },
    };
  }
  const parameters = parametersOf(op, writer);
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: op.description,
    security: op.auth === 'token' ? [{ token: [] }] : [],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: writer.write(op.body, 'input'),
                ...(op.requestExamples ? { examples: op.requestExamples } : {}),
              },
            },
          },
        }
      : {}),
    responses,
    'x-status-codes': codes.map(({ code, http }) => ({ status_code: code, http, description: catalogue[code].description })),
    'x-auth': op.auth,
  };
}

let cached: OpenApiDocument | undefined;

/** The document for these operations (the registry by default; built once per process). */
export function openApiDocument(ops: Operation[] = operations): OpenApiDocument {
  if (ops === operations && cached) return cached;
  const writer = new SchemaWriter();
  const paths: OpenApiDocument['paths'] = {};
  for (const op of ops) {
    paths[op.path] ??= {};
    paths[op.path]![op.method] = operationObject(op, writer);
  }
  const doc: OpenApiDocument = {
    openapi: '3.1.1',
    info: {
      title: 'paylink API',
      version: '1.0.0',
      summary: 'Payment links, checkout, refunds, card registrations and recurring schedules.',
      description:
        'Every response is the envelope `{ timestamp, status, message, path, data: { status_code, status_description, … }, messages? }`; the dynamic payment link answers `{ link }` on success. Decide success from `data.status_code` as well as the HTTP status: business refusals (a refund of a refunded payment) arrive with HTTP 200. The guide is docs/api.md in the repository; every status code is in docs/status-codes.md.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-paylink' },
    },
    servers: [{ url: '/', description: 'This paylink' }],
    tags: (Object.keys(TAGS) as Operation['tag'][]).map((name) => ({ name, description: TAGS[name] })),
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(writer.components).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        token: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description:
            'Your secret API token as the whole header value (`Authorization: <token>`), or `Authorization: Bearer <token>`. A publishable link key (`pk_link_…`) is refused here (403 ER.01.30).',
        },
      },
    },
  };
  if (ops === operations) cached = doc;
  return doc;
}
