import { resolve } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../src/api/openapi/document.ts';
import { operations } from '../../../src/api/openapi/operations.ts';
import { catalogue } from '../../../src/status-codes.ts';
import { openApiValidator, servedOperations } from '../../support/openapi.ts';

const root = resolve(import.meta.dirname, '../../..');
const doc = openApiDocument();
const shape = (op: string) => op.replace(/\{[^}]+\}/g, '{}');

describe('openapi › the document', () => {
  it('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
    const result = await new Validator().validate(structuredClone(doc) as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toMatch(/^3\.1\./);
  });

  it('describes every route the service serves (a route without an entry in operations.ts fails here)', () => {
    const served = servedOperations(root).map(shape);
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => shape(`${m} ${path}`)));
    expect(served.length).toBeGreaterThanOrEqual(17);
    expect(served.filter((op) => !documented.includes(op))).toEqual([]);
    expect(documented.filter((op) => !served.includes(op))).toEqual([]);
  });

  it('gives every operation an id, a summary, a success response and the 500 envelope', () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z]+$/);
        expect(op.summary.length, `${method} ${path}`).toBeGreaterThan(5);
        expect(Object.keys(op.responses), `${method} ${path}`).toContain('200');
        expect(Object.keys(op.responses), `${method} ${path}`).toContain('500');
      }
    }
  });

  it('documents each status code with the HTTP status the catalogue gives it (ER.02.30 also as 404 where a reference may not exist)', () => {
    for (const op of Object.values(doc.paths).flatMap((m) => Object.values(m))) {
      for (const { status_code, http } of op['x-status-codes']) {
        const entry = catalogue[status_code as keyof typeof catalogue];
        expect(entry, status_code).toBeDefined();
        if (http !== entry.http) expect(`${status_code} ${http}`).toBe('ER.02.30 404');
        expect(op.responses[String(http)], `${op.operationId} ${status_code}`).toBeDefined();
      }
    }
    const refund = doc.paths['/api/v1/refund']!.post!;
    expect(refund['x-status-codes'].map((c) => c.status_code)).toEqual(expect.arrayContaining(['OK.02.00', 'OK.04.00', 'ER.20.20', 'ER.02.30', 'ER.01.00']));
    expect(refund.responses['429']!.headers).toHaveProperty('Retry-After');
  });

  it('shows the envelope with the status as an integer and messages mapping fields to lists', () => {
    const v = openApiValidator(doc);
    const envelope = {
      timestamp: '2026-11-21T09:15:02.123+00:00',
      status: 422,
      message: 'Unprocessable Entity',
      path: '/api/v1/refund',
      data: { status_code: 'ER.02.30', status_description: catalogue['ER.02.30'].description },
      messages: { amount: ['PHP allows at most 2 decimal places in the amount'] },
    };
    expect(v.response('post', '/api/v1/refund', 422, envelope)).toEqual([]);
    expect(v.response('post', '/api/v1/refund', 422, { ...envelope, status: '422' })).not.toEqual([]);
    expect(v.response('post', '/api/v1/refund', 422, { ...envelope, messages: { amount: 'no list' } })).not.toEqual([]);
    expect(v.response('post', '/api/v1/refund', 200, { ...envelope, status: 200, message: 'OK', data: { status_code: 'OK.02.00' } })).not.toEqual([]);
  });

  it('keeps every example true to its schema (the lenient "true"/true and "12.50"/12.50 included)', () => {
    const v = openApiValidator(doc);
    let checked = 0;
    for (const op of operations) {
      for (const [name, example] of Object.entries(op.requestExamples ?? {})) {
        expect(v.request(op.method, op.path, example.value), `${op.operationId} ${name}`).toEqual([]);
        checked++;
      }
      const response = doc.paths[op.path]![op.method]!;
      for (const [status, r] of Object.entries(response.responses)) {
        for (const [name, example] of Object.entries(r.content['application/json'].examples ?? {})) {
          expect(v.response(op.method, op.path, Number(status), example.value), `${op.operationId} ${name}`).toEqual([]);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(12);
    const refundExamples = Object.values(operations.find((o) => o.operationId === 'refundPayment')!.requestExamples!).map(
      (e) => e.value as Record<string, unknown>,
    );
    expect(refundExamples.map((e) => typeof e.notify_user)).toEqual(expect.arrayContaining(['boolean', 'string']));
    expect(refundExamples.map((e) => typeof e.amount)).toEqual(expect.arrayContaining(['number', 'string']));
  });

  it('refuses what the request schemas refuse: unknown fields, a bad boolean', () => {
    const v = openApiValidator(doc);
    expect(v.request('post', '/api/v1/refund', { transaction_id: 'txn_1', notify_user: 'yes', reason: 'x' })).not.toEqual([]);
    expect(v.request('post', '/api/v1/refund', { transaction_id: 'txn_1', notify_user: true, reason: 'x', amout: '1' })).not.toEqual([]);
  });
});
