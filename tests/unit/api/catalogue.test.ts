import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../../src/api/catalogue.ts';
import { renderStatusCodesDoc } from '../../../src/api/catalogue-doc.ts';
import { buildEnvelope, envelopeTimestamp } from '../../../src/api/envelope.ts';

describe('status-code catalogue', () => {
  it('keeps the spec codes with the spec meanings', () => {
    expect(catalogue['OK.12.00'].description).toBe('Payment scheduling successful');
    expect(catalogue['OK.11.20'].description).toBe('Card registration deletion successful');
    expect(catalogue['OK.02.00'].description).toBe('Full refund successful');
    expect(catalogue['OK.04.00'].description).toBe('Partial refund successful');
    expect(catalogue['ER.02.30'].description).toBe('Invalid client request due to invalid parameters');
    expect(catalogue['ER.20.20']).toMatchObject({ http: 200, description: 'Unable to process client request because the transaction is already refunded' });
  });

  it('uses only the OK.xx.yy / ER.xx.yy pattern', () => {
    for (const code of Object.keys(catalogue)) expect(code).toMatch(/^(OK|ER)\.\d{2}\.\d{2}$/);
  });

  it('matches docs/status-codes.md (run `npm run docs:status-codes` when this fails)', () => {
    expect(readFileSync('docs/status-codes.md', 'utf8')).toBe(renderStatusCodesDoc());
  });
});

describe('envelope', () => {
  it('carries the spec fields: millisecond timestamp with offset, integer status, message, path, data codes', () => {
    const envelope = buildEnvelope({
      code: 'ER.02.30',
      path: '/api/v1/refund',
      httpStatus: 404,
      messages: { transaction_id: ['does not exist'] },
      now: new Date('2026-01-02T03:04:05.006Z'),
    });
    expect(envelope).toEqual({
      timestamp: '2026-01-02T03:04:05.006+00:00',
      status: 404,
      message: 'Not Found',
      path: '/api/v1/refund',
      data: { status_code: 'ER.02.30', status_description: 'Invalid client request due to invalid parameters' },
      messages: { transaction_id: ['does not exist'] },
    });
    expect(envelopeTimestamp(new Date(0))).toBe('1970-01-01T00:00:00.000+00:00');
  });
});
