import { appendFileSync, mkdirSync } from 'node:fs';
import type { Server, ServerResponse } from 'node:http';
import { join } from 'node:path';

/**
 * Every envelope status code a test saw, for the check that each code in the catalogue is
 * produced by at least one test (scripts/test.mjs, after vitest). Only when PAYLINK_STATUS_CODES_SEEN
 * names a directory (npm test sets it): each test process appends to its own file there, so
 * parallel test files never write to one file.
 */
const dir = process.env.PAYLINK_STATUS_CODES_SEEN;
const seen = new Set<string>();

export function recordStatusCode(body: unknown) {
  const code = (body as { data?: { status_code?: unknown } } | null)?.data?.status_code;
  if (!dir || typeof code !== 'string' || seen.has(code)) return;
  seen.add(code);
  mkdirSync(dir, { recursive: true });
  appendFileSync(join(dir, `${process.pid}.txt`), `${code}\n`);
}

/** Reads the JSON bodies a test server sends (after compression has wrapped the response, so the text is plain). */
const SUPPORT_REFERENCE = /data-support-reference>Reference: <span translate="no">((?:OK|ER)\.\d{2}\.\d{2})<\/span>/g;

export function recordStatusCodesOf(server: Server) {
  if (!dir) return;
  server.on('request', (_req, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    const keep = (chunk: unknown) => {
      if (typeof chunk === 'string' || chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk as string));
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk);
      return write(chunk, ...rest);
    }) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (typeof chunk !== 'function') keep(chunk);
      const type = String(res.getHeader('content-type') ?? '');
      // A console or operator page says its code in a support reference line (SupportReference.astro).
      if (type.startsWith('text/html')) {
        for (const m of Buffer.concat(chunks).toString('utf8').matchAll(SUPPORT_REFERENCE)) recordStatusCode({ data: { status_code: m[1] } });
      }
      if (type.startsWith('application/json')) {
        try {
          recordStatusCode(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch {
          // not one JSON document (e.g. a stream): nothing to record
        }
      }
      return end(chunk, ...rest);
    }) as typeof res.end;
  });
}
