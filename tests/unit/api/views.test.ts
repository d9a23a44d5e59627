import { describe, expect, it } from 'vitest';
import { customerView } from '../../../src/api/presenters/customers.ts';
import { routeOfPath } from '../../../src/http/server.ts';
import { transactionsQuerySchema } from '../../../src/schemas/transaction.ts';

describe('customer view › who paid, as given', () => {
  it('builds name, contact and address from the recorded field paths', () => {
    expect(
      customerView(
        { 'customer.first_name': 'Ana', 'customer.last_name': 'Reyes', 'customer.billing_address.zip': '1000', 'customer.contact.mobile': '+63917' },
        'ana@example.com',
      ),
    ).toEqual({
      first_name: 'Ana',
      last_name: 'Reyes',
      name: 'Ana Reyes',
      email: 'ana@example.com',
      mobile: '+63917',
      billing_address: { line1: null, line2: null, city_municipality: null, state_province_region: null, zip: '1000', country_code: null },
    });
  });

  it('is null when nothing was given, and has no address when no part of one was', () => {
    expect(customerView({}, null)).toBeNull();
    expect(customerView({ 'customer.name': 'Juan' }, null)).toMatchObject({ name: 'Juan', first_name: null, billing_address: null });
  });
});

describe('request log › route of a path', () => {
  it('replaces ids and tokens with :id and keeps the rest', () => {
    expect(routeOfPath('/api/v1/transactions/txn_0123456789abcdef0123456789abcdef')).toBe('/api/v1/transactions/:id');
    expect(routeOfPath('/register/6f1c1b0e-8a53-4d0e-9d0e-2f5b2a1c9e11')).toBe('/register/:id');
    expect(routeOfPath('/checkout/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde')).toBe('/checkout/:id');
    expect(routeOfPath('/pay/acme-books')).toBe('/pay/acme-books');
  });
});

describe('list query › shared parameters', () => {
  it('defaults limit to 20 and reads timestamps with a zone', () => {
    const q = transactionsQuerySchema.parse({ created_gte: '2026-01-01T08:00:00+08:00' });
    expect(q.limit).toBe(20);
    expect(q.created_gte?.toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it('refuses a timestamp without a zone, both cursors at once, and an empty range', () => {
    const r = transactionsQuerySchema.safeParse({
      created_gte: '2026-01-02T00:00:00Z',
      created_lt: '2026-01-01T00:00:00Z',
      starting_after: 'txn_a',
      ending_before: 'txn_b',
    });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path.join('.')).sort()).toEqual(['created_lt', 'ending_before']);
    expect(transactionsQuerySchema.safeParse({ created_gte: '2026-01-01T00:00:00' }).success).toBe(false);
  });
});
