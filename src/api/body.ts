import { DomainError } from '../domain/errors.ts';

export const MAX_JSON_BODY_BYTES = 64 * 1024;

/**
 * Reads a JSON object body. Content-Type is optional (spec §4: JSON is the default) but when
 * present must be application/json; more than 64 KiB is refused before it is all read.
 */
export async function readJsonBody(request: Request, limit = MAX_JSON_BODY_BYTES): Promise<{ value: Record<string, unknown>; text: string }> {
  const type = request.headers.get('content-type');
  if (type !== null && type.trim() !== '') {
    const mediaType = type.split(';')[0]!.trim().toLowerCase();
    if (mediaType !== 'application/json' && !/^application\/[\w.+-]+\+json$/.test(mediaType)) {
      throw new DomainError('ER.02.32', 'Unsupported content type', {
        messages: { 'content-type': [`must be application/json, got ${mediaType}`] },
      });
    }
  }
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
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
  return { value: value as Record<string, unknown>, text };
}

const tooLarge = (limit: number) => new DomainError('ER.02.33', 'Request body too large', { messages: { '(body)': [`must be at most ${limit / 1024} KiB`] } });

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
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
