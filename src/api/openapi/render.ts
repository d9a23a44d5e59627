import type { OpenApiDocument, OpenApiOperation } from './document.ts';
import type { Auth } from './operations.ts';

/**
 * The reference page's view of the OpenAPI document (src/pages/docs/api.astro): operations
 * grouped by tag, and JSON Schemas flattened into field tables a person can read.
 */
type Schema = Record<string, unknown>;

export const authLabels: Record<Auth, string> = {
  token: 'your API token in the Authorization header',
  'link-key': 'your API token in the body field key (no Authorization header)',
  browser: 'none: same-origin JSON from paylink’s own page; the token in the path is the capability',
  none: 'none',
};

export interface FieldRow {
  /** Dotted path (`customer.contact.email`, `refunds[].amount`). */
  path: string;
  type: string;
  required: boolean;
  notes: string;
}

const refName = (ref: string) => ref.replace('#/components/schemas/', '');

function resolve(doc: OpenApiDocument, schema: Schema): Schema {
  return typeof schema.$ref === 'string' ? (doc.components.schemas[refName(schema.$ref)] ?? {}) : schema;
}

/** One schema's type, in words: `string`, `integer | null`, `"FULL" | "PARTIAL"`, `Transaction`. */
export function typeOf(doc: OpenApiDocument, schema: Schema): string {
  if (typeof schema.$ref === 'string') return refName(schema.$ref);
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (variants) return [...new Set(variants.map((v) => typeOf(doc, v)))].join(' | ');
  const type = schema.type;
  if (Array.isArray(type)) return type.join(' | ');
  if (type === 'array') return `array of ${typeOf(doc, (schema.items as Schema) ?? {})}`;
  if (type === 'object' && schema.additionalProperties && typeof schema.additionalProperties === 'object' && !schema.properties) {
    return `map of ${typeOf(doc, schema.additionalProperties as Schema)}`;
  }
  return typeof type === 'string' ? type : 'any';
}

/** Text with `code` spans, as segments the page renders (no HTML from the document is ever trusted). */
export function prose(text: string): { text: string; code: boolean }[] {
  return text
    .split(/(`[^`]+`)/)
    .filter((part) => part !== '')
    .map((part) => (part.startsWith('`') && part.endsWith('`') && part.length > 1 ? { text: part.slice(1, -1), code: true } : { text: part, code: false }));
}

function lengthNote(min: unknown, max: unknown): string | undefined {
  if (typeof min === 'number' && typeof max === 'number') return min === 0 ? `at most ${max} characters` : `${min} to ${max} characters`;
  if (typeof min === 'number') return min === 1 ? 'not empty' : `at least ${min} characters`;
  if (typeof max === 'number') return `at most ${max} characters`;
  return undefined;
}

function notesOf(schema: Schema): string {
  const notes: string[] = [];
  if (typeof schema.description === 'string') notes.push(schema.description.replace(/\.$/, ''));
  if (typeof schema.format === 'string') notes.push(`format ${schema.format}`);
  if (typeof schema.pattern === 'string') notes.push(`pattern ${schema.pattern}`);
  const length = lengthNote(schema.minLength, schema.maxLength);
  if (length) notes.push(length);
  if (typeof schema.minimum === 'number' && typeof schema.maximum === 'number') notes.push(`from ${schema.minimum} to ${schema.maximum}`);
  else if (typeof schema.minimum === 'number') notes.push(`at least ${schema.minimum}`);
  else if (typeof schema.maximum === 'number') notes.push(`at most ${schema.maximum}`);
  if (typeof schema.maxItems === 'number') notes.push(`at most ${schema.maxItems} items`);
  if ('default' in schema) notes.push(`default ${JSON.stringify(schema.default)}`);
  return notes.join('; ');
}

/** The fields of an object schema, nested objects and arrays of objects flattened. Components are named, not expanded. */
export function fieldRows(doc: OpenApiDocument, schema: Schema, prefix = '', depth = 0): FieldRow[] {
  const object = schema.$ref && depth === 0 ? resolve(doc, schema) : schema;
  const properties = object.properties as Record<string, Schema> | undefined;
  if (!properties) return [];
  const required = new Set((object.required as string[] | undefined) ?? []);
  return Object.entries(properties).flatMap(([name, raw]) => {
    const path = prefix ? `${prefix}.${name}` : name;
    const row: FieldRow = { path, type: typeOf(doc, raw), required: required.has(name), notes: notesOf(raw) };
    const nested = (raw.anyOf as Schema[] | undefined)?.find((v) => v.type === 'object' && v.properties) ?? raw;
    if (nested.type === 'object' && nested.properties) return [row, ...fieldRows(doc, nested, path, depth + 1)];
    const items = raw.items as Schema | undefined;
    if (raw.type === 'array' && items?.type === 'object' && items.properties) return [row, ...fieldRows(doc, items, `${path}[]`, depth + 1)];
    return [row];
  });
}

export interface ResponseView {
  http: string;
  codes: { status_code: string; description: string }[];
  /** The fields of `data` beside status_code/status_description, per shape. */
  dataRows: FieldRow[];
  plain: boolean;
  example?: string;
}

/** The responses of an operation, by HTTP status, with the status codes each can carry. */
export function responsesOf(doc: OpenApiDocument, op: OpenApiOperation): ResponseView[] {
  return Object.entries(op.responses).map(([http, response]) => {
    const content = response.content['application/json'];
    const schema = content.schema;
    const data = (schema.properties as Record<string, Schema> | undefined)?.data;
    const plain = !data;
    const shapes: Schema[] = data ? ((data.anyOf as Schema[] | undefined) ?? [data]) : [schema];
    const seen = new Set<string>();
    const dataRows = shapes
      .flatMap((shape) => fieldRows(doc, shape))
      .filter((row) => !['status_code', 'status_description'].includes(row.path) && !seen.has(row.path) && seen.add(row.path));
    const example = Object.values(content.examples ?? {})[0]?.value;
    return {
      http,
      codes: op['x-status-codes'].filter((c) => String(c.http) === http).map(({ status_code, description }) => ({ status_code, description })),
      dataRows,
      plain,
      ...(example ? { example: JSON.stringify(example, null, 2) } : {}),
    };
  });
}

export interface OperationView {
  id: string;
  method: string;
  path: string;
  op: OpenApiOperation;
  parameters: { name: string; in: string; required: boolean; type: string; notes: string }[];
  bodyRows: FieldRow[];
  bodyExamples: { summary: string; json: string }[];
  responses: ResponseView[];
}

/** Every operation, grouped by its tag in the document's tag order. */
export function referenceView(doc: OpenApiDocument): { tag: string; description: string; operations: OperationView[] }[] {
  const all: OperationView[] = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const body = op.requestBody as
        | { content: { 'application/json': { schema: Schema; examples?: Record<string, { summary: string; value: unknown }> } } }
        | undefined;
      const json = body?.content['application/json'];
      return {
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        op,
        parameters: ((op.parameters ?? []) as { name: string; in: string; required: boolean; description?: string; schema: Schema }[]).map((p) => ({
          name: p.name,
          in: p.in,
          required: p.required,
          type: typeOf(doc, p.schema),
          notes: [p.description?.replace(/\.$/, ''), notesOf(p.schema)].filter(Boolean).join('; '),
        })),
        bodyRows: json ? fieldRows(doc, json.schema) : [],
        bodyExamples: Object.values(json?.examples ?? {}).map((e) => ({ summary: e.summary, json: JSON.stringify(e.value, null, 2) })),
        responses: responsesOf(doc, op),
      };
    }),
  );
  return doc.tags
    .map((tag) => ({ tag: tag.name, description: tag.description, operations: all.filter((o) => o.op.tags[0] === tag.name) }))
    .filter((group) => group.operations.length > 0);
}
