import { describe, expect, it } from 'vitest';
import { outboxRow } from '../../../src/domain/notifications/outbox.ts';

const now = new Date('2026-03-01T10:00:00.000Z');

describe('outbox row', () => {
  it('writes bigints in the event data as decimal strings, at any depth', () => {
    const row = outboxRow({
      integratorId: 'int_1',
      type: 'refund.succeeded',
      data: { amount_minor: 12345n, refund: { left_minor: 0n, parts: [1n, 90071992547409930n] }, note: 'x', count: 2 },
      now,
    });
    expect(row.data).toEqual({ amount_minor: '12345', refund: { left_minor: '0', parts: ['1', '90071992547409930'] }, note: 'x', count: 2 });
  });

  it('is pending on each channel that has an address, due at once; a callback with none has no destination', () => {
    const row = outboxRow({ integratorId: 'int_1', type: 'payment.succeeded', data: {}, callbackUrl: 'https://hooks.example/pl', now });
    expect(row).toMatchObject({
      integratorId: 'int_1',
      type: 'payment.succeeded',
      createdAt: now,
      callbackUrl: 'https://hooks.example/pl',
      callbackState: 'pending',
      callbackNextAt: now,
      emailTo: null,
      emailState: 'none',
      emailNextAt: null,
    });
    expect(row.id).toMatch(/^evt_/);
    const mailOnly = outboxRow({ integratorId: 'int_1', type: 'payment.failed', data: {}, emailTo: 'juan@example.com', now });
    expect(mailOnly).toMatchObject({
      callbackUrl: null,
      callbackState: 'no_destination',
      callbackNextAt: null,
      emailTo: 'juan@example.com',
      emailState: 'pending',
      emailNextAt: now,
    });
  });
});
