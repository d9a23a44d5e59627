import { STATUS_CODES } from 'node:http';
import type { Messages } from '../domain/errors.ts';
import { catalogue, type StatusCode } from './catalogue.ts';

/** Spec §2.1 timestamp: date-time with milliseconds and a UTC offset (`2026-11-21T09:15:02.123+00:00`). */
export const envelopeTimestamp = (date: Date) => date.toISOString().replace('Z', '+00:00');

export interface Envelope {
  timestamp: string;
  status: number;
  message: string;
  path: string;
  data: Record<string, unknown> & { status_code: StatusCode; status_description: string };
  messages?: Messages | string;
}

/** JSON that carries bigints as decimal strings. */
export const toJson = (value: unknown) => JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));

export function buildEnvelope(opts: {
  code: StatusCode;
  path: string;
  httpStatus?: number;
  data?: Record<string, unknown>;
  messages?: Messages | string;
  now?: Date;
}): Envelope {
  const status = opts.httpStatus ?? catalogue[opts.code].http;
  const envelope: Envelope = {
    timestamp: envelopeTimestamp(opts.now ?? new Date()),
    status,
    message: STATUS_CODES[status] ?? 'Unknown',
    path: opts.path,
    data: { ...opts.data, status_code: opts.code, status_description: catalogue[opts.code].description },
  };
  if (opts.messages !== undefined) envelope.messages = opts.messages;
  return envelope;
}

/**
 * A JSON body as a response, with its length: the HTTP layer compresses only bodies of 1 KB and more,
 * and can tell only by this header (Astro streams the body). Without it every envelope, most of them a
 * few hundred bytes, would be compressed for nothing (docs/architecture.md, "Measurements behind the code").
 */
export function jsonResponse(body: string, status: number, headers: Record<string, string> = {}): Response {
  return new Response(body, {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': String(Buffer.byteLength(body)), ...headers },
  });
}

export function envelopeResponse(envelope: Envelope, headers: Record<string, string> = {}): Response {
  return jsonResponse(toJson(envelope), envelope.status, headers);
}
