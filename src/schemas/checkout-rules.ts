import type { customerFieldPaths } from './fields.ts';

/**
 * The customer field rules (spec §2.4 paths) as plain functions with the words the customer
 * reads: the checkout island imports these directly; the server's zod/mini schemas
 * (checkout.ts) are built from them. `clean` normalises what was typed; `check` returns a
 * message or undefined for a cleaned, non-empty value.
 */
export type CustomerFieldPath = (typeof customerFieldPaths)[number];

/** Longest value a customer text field accepts. */
export const MAX_FIELD_LENGTH = 200;

/** E.164: a plus sign, then 7 to 15 digits (spaces, dashes, dots and brackets are removed first). */
export const MOBILE = /^\+[1-9]\d{6,14}$/;
const EMAIL = /^[^\s@"<>()[\]\\,;:]+@[^\s@"<>()[\]\\,;:]+\.[^\s@"<>()[\]\\,;:]{2,}$/;

export const COUNTRY_MESSAGE = 'Choose a country (a two-letter ISO code such as PH)';

interface Rule {
  /** What "Enter …" asks for when the field is empty. */
  what: string;
  clean?: (value: string) => string;
  check: (value: string) => string | undefined;
}

const maxLength = (max: number) => (v: string) => (v.length > max ? `Must be at most ${max} characters` : undefined);

export const customerRules: Record<CustomerFieldPath, Rule> = {
  'customer.first_name': { what: 'a first name', check: maxLength(100) },
  'customer.last_name': { what: 'a last name', check: maxLength(100) },
  'customer.contact.email': {
    what: 'an email address',
    clean: (v) => v.trim().toLowerCase(),
    check: (v) => (v.length > 254 ? 'Must be at most 254 characters' : EMAIL.test(v) ? undefined : 'Enter an email address such as name@example.com'),
  },
  'customer.contact.mobile': {
    what: 'a mobile number',
    clean: (v) => v.replace(/[\s().-]/g, ''),
    check: (v) => (MOBILE.test(v) ? undefined : 'Enter a mobile number with its country code, such as +639171234567'),
  },
  'customer.billing_address.line1': { what: 'the first address line', check: maxLength(MAX_FIELD_LENGTH) },
  'customer.billing_address.line2': { what: 'the second address line', check: maxLength(MAX_FIELD_LENGTH) },
  'customer.billing_address.city_municipality': { what: 'a city or municipality', check: maxLength(100) },
  'customer.billing_address.state_province_region': { what: 'a state, province or region', check: maxLength(100) },
  'customer.billing_address.zip': {
    what: 'a ZIP or postal code',
    check: (v) => (/^[A-Za-z0-9][A-Za-z0-9 -]{1,11}$/.test(v) ? undefined : 'Enter a ZIP or postal code of 2 to 12 letters or digits'),
  },
  'customer.billing_address.country_code': {
    what: 'a country',
    clean: (v) => v.trim().toUpperCase(),
    // The form offers a list; the server also checks the code is assigned (checkout.ts).
    check: (v) => (/^[A-Z]{2}$/.test(v) ? undefined : COUNTRY_MESSAGE),
  },
};

/** Fields the customer may leave empty even when the form asks for them. */
export const optionalCustomerFields: ReadonlySet<string> = new Set(['customer.billing_address.line2']);

export const cleanCustomerValue = (path: CustomerFieldPath, value: string) => (customerRules[path].clean ?? ((v: string) => v.trim()))(value);

/** The message for one field's raw value ("" when fine); empty values are fine only when optional. */
export function customerFieldError(path: CustomerFieldPath, raw: string, required = !optionalCustomerFields.has(path)): string | undefined {
  const rule = customerRules[path];
  const value = cleanCustomerValue(path, raw);
  if (value === '') return required ? `Enter ${rule.what}` : undefined;
  return rule.check(value);
}
