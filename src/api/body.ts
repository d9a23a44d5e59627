import { DomainError, invalidFields } from '../domain/errors.ts';
import { findUnstorableText, UNSTORABLE_TEXT_MESSAGE } from '../schemas/text.ts';

export const MAX_JSON_BODY_BYTES = 64 * 1024;

export const bodyTooLarge = (limit = MAX_JSON_BODY_BYTES) =>
  new DomainError('ER.02.33', 'Request body too large', { messages: { '(body)': [`must be at most ${limit / 1024} KiB`] } });

const mediaTypeOf = (request: Request) => {
  const type = request.headers.get('content-type');
  return type === null || type.trim() === '' ? undefined : type.split(';')[0]!.trim().toLowerCase();
};
const isJsonType = (mediaType: string) => mediaType === 'application/json' || /^application\/[\w.+-]+\+json$/.test(mediaType);

/**
 * Content-Type is optional for the API (spec §4: JSON is the default) but when present must be
 * JSON. `required` (browser endpoints): it must be there, so a cross-site form post or a no-cors
 * fetch, which cannot send it without a CORS preflight, is refused.
 */
export function checkJsonContentType(request: Request, required = false): void {
  const mediaType = mediaTypeOf(request);
  if (mediaType === undefined) {
    if (!required) return;
    throw new DomainError('ER.02.32', 'Unsupported content type', { messages: { 'content-type': ['is required: send the body as application/json'] } });
  }
  if (!isJsonType(mediaType)) {
    throw new DomainError('ER.02.32', 'Unsupported content type', { messages: { 'content-type': [`must be application/json, got ${mediaType}`] } });
  }
}

/**
 * Reads a JSON object body: more than 64 KiB is refused before it is all read, and a string
 * the database cannot store (NUL, unpaired surrogate) is a field error naming where it is.
 */
export async function readJsonBody(request: Request, limit = MAX_JSON_BODY_BYTES): Promise<{ value: Record<string, unknown>; text: string }> {
  checkJsonContentType(request);
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw bodyTooLarge(limit);
  const text = await readLimited(request, limit);
  if (text.trim() === '') {
    throw new DomainError('ER.02.31', 'Malformed JSON body', { messages: { '(body)': ['a JSON object body is required'] } });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new DomainError('ER.02.31', 'Malformed JSON body', {
      messages: { '(body)': [`is not valid JSON: ${(error as Error).message}`] },
    });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new DomainError('ER.02.31', 'Malformed JSON body', { messages: { '(body)': ['must be a JSON object'] } });
  }
  const unstorable = findUnstorableText(value);
  if (unstorable !== undefined) throw invalidFields({ [unstorable]: [UNSTORABLE_TEXT_MESSAGE] });
  return { value: value as Record<string, unknown>, text };
}

/** A body as text, refused with 413 as soon as it is over `limit` bytes (declared or read). */
export async function readTextBody(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw bodyTooLarge(limit);
  return readLimited(request, limit);
}

async function readLimited(request: Request, limit: number): Promise<string> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw bodyTooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
