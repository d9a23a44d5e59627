import type { CustomerView } from '../../schemas/customer.ts';

/**
 * Who paid, from the dotted field paths a payment recorded (`customer.first_name`,
 * `customer.billing_address.line1`, …) and its e-mail column. Null when nothing was given.
 */
export function customerView(values: Record<string, string>, email: string | null): CustomerView | null {
  const get = (path: string) => {
    const v = values[`customer.${path}`];
    return v === undefined || v === '' ? null : v;
  };
  const addressParts = ['line1', 'line2', 'city_municipality', 'state_province_region', 'zip', 'country_code'] as const;
  const address = Object.fromEntries(addressParts.map((k) => [k, get(`billing_address.${k}`)])) as Record<(typeof addressParts)[number], string | null>;
  const firstName = get('first_name');
  const lastName = get('last_name');
  const view: CustomerView = {
    first_name: firstName,
    last_name: lastName,
    name: get('name') ?? ([firstName, lastName].filter(Boolean).join(' ') || null),
    email: get('contact.email') ?? email,
    mobile: get('contact.mobile'),
    billing_address: Object.values(address).some((v) => v !== null) ? address : null,
  };
  return view.name === null && view.email === null && view.mobile === null && view.billing_address === null ? null : view;
}
