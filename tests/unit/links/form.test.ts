import { describe, expect, it } from 'vitest';
import { askedFields, customerFormFields, fieldLabel, fieldMode } from '../../../src/domain/links/form.ts';

const link = (fields: Record<string, string> = {}, labels: Record<string, string> = {}) => ({ fields, labels }) as never;

describe('link form', () => {
  it('asks for name and e-mail by default and hides the rest', () => {
    expect(askedFields(link(), {})).toEqual(['customer.first_name', 'customer.last_name', 'customer.contact.email']);
    expect(fieldMode(link(), 'customer.billing_address.zip')).toBe('hidden');
  });

  it("follows the link's field modes and labels", () => {
    const l = link({ 'customer.contact.email': 'hidden', 'customer.contact.mobile': 'customer' }, { 'customer.contact.mobile': 'Phone' });
    expect(askedFields(l, {})).toEqual(['customer.first_name', 'customer.last_name', 'customer.contact.mobile']);
    expect(fieldLabel(l, 'customer.contact.mobile')).toBe('Phone');
    expect(fieldLabel(l, 'customer.first_name')).toBe('First name');
  });

  it('shows values the integrator sent read-only and does not ask for them', () => {
    const fields = customerFormFields(link({ 'customer.contact.email': 'system' }), {
      'customer.first_name': 'Maria',
      'customer.contact.email': 'm@example.com',
    });
    expect(fields.map((f) => [f.name, f.readOnly ?? false])).toEqual([
      ['customer.first_name', true],
      ['customer.last_name', false],
      ['customer.contact.email', true],
    ]);
    expect(fields[0]).toMatchObject({ value: 'Maria', autocomplete: 'given-name' });
  });

  it('offers countries as a list with their English names', () => {
    const [country] = customerFormFields(
      link({
        'customer.first_name': 'hidden',
        'customer.last_name': 'hidden',
        'customer.contact.email': 'hidden',
        'customer.billing_address.country_code': 'customer',
      }),
      {},
    );
    expect(country!.type).toBe('select');
    expect(country!.options).toContainEqual(['PH', 'Philippines']);
    expect(country!.options).toHaveLength(249);
  });
});
