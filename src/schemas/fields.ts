/**
 * The customer/payment fields of a dynamic payment link (spec §2.4), by dotted path, with the
 * plain-English label shown when a link does not set its own. Shared by server and islands.
 */
export const customerFieldPaths = [
  'customer.first_name',
  'customer.last_name',
  'customer.contact.email',
  'customer.contact.mobile',
  'customer.billing_address.line1',
  'customer.billing_address.line2',
  'customer.billing_address.city_municipality',
  'customer.billing_address.state_province_region',
  'customer.billing_address.zip',
  'customer.billing_address.country_code',
] as const;

export const paymentFieldPaths = ['payment.description', 'payment.amount', 'payment.currency', 'payment.merchant_reference_id'] as const;

export const fieldPaths = [...customerFieldPaths, ...paymentFieldPaths] as const;
export type FieldPath = (typeof fieldPaths)[number];

export const fieldModes = ['customer', 'system', 'hidden'] as const;
export type FieldMode = (typeof fieldModes)[number];

export const defaultLabels: Record<FieldPath, string> = {
  'customer.first_name': 'First name',
  'customer.last_name': 'Last name',
  'customer.contact.email': 'Email',
  'customer.contact.mobile': 'Mobile number',
  'customer.billing_address.line1': 'Address line 1',
  'customer.billing_address.line2': 'Address line 2',
  'customer.billing_address.city_municipality': 'City or municipality',
  'customer.billing_address.state_province_region': 'State, province or region',
  'customer.billing_address.zip': 'ZIP or postal code',
  'customer.billing_address.country_code': 'Country',
  'payment.description': 'Description',
  'payment.amount': 'Amount',
  'payment.currency': 'Currency',
  'payment.merchant_reference_id': 'Reference',
};
