import { EMAIL_MAX_LENGTH, EMAIL_MESSAGE, isEmailAddress } from './email-rules.ts';
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
/**
 * What the page takes as a mobile number: E.164, or a national number (`09175550123`) that the
 * server reads for the country and stores as E.164 (phone.ts: the island does not carry its metadata).
 */
const MOBILE_AS_TYPED = /^(\+[1-9]\d{6,14}|\d{7,15})$/;

export const COUNTRY_MESSAGE = 'Choose a country (a two-letter ISO code such as PH)';

/** What is wrong with a field's value; worded by the server (English) or the island (its language). */
export type FieldProblem = { key: 'required' } | { key: 'too_long'; max: number } | { key: 'email' | 'mobile' | 'zip' | 'country' };
/** The words for each problem but `required` (the page words that per field): `{max}` is filled in. */
export type FieldMessages = Record<Exclude<FieldProblem['key'], 'required'>, string>;

interface Rule {
  clean?: (value: string) => string;
  check: (value: string) => FieldProblem | undefined;
}

const maxLength =
  (max: number) =>
  (v: string): FieldProblem | undefined =>
    v.length > max ? { key: 'too_long', max } : undefined;

export const customerRules: Record<CustomerFieldPath, Rule> = {
  'customer.first_name': { check: maxLength(100) },
  'customer.last_name': { check: maxLength(100) },
  'customer.contact.email': {
    clean: (v) => v.trim().toLowerCase(),
    // The mailer's rule (email-rules.ts): an address taken here is one its receipt can be sent to.
    check: (v) => (v.length > EMAIL_MAX_LENGTH ? { key: 'too_long', max: EMAIL_MAX_LENGTH } : isEmailAddress(v) ? undefined : { key: 'email' }),
  },
  'customer.contact.mobile': {
    clean: (v) => v.replace(/[\s().-]/g, ''),
    check: (v) => (MOBILE_AS_TYPED.test(v) ? undefined : { key: 'mobile' }),
  },
  'customer.billing_address.line1': { check: maxLength(MAX_FIELD_LENGTH) },
  'customer.billing_address.line2': { check: maxLength(MAX_FIELD_LENGTH) },
  'customer.billing_address.city_municipality': { check: maxLength(100) },
  'customer.billing_address.state_province_region': { check: maxLength(100) },
  'customer.billing_address.zip': {
    check: (v) => (/^[A-Za-z0-9][A-Za-z0-9 -]{1,11}$/.test(v) ? undefined : { key: 'zip' }),
  },
  'customer.billing_address.country_code': {
    clean: (v) => v.trim().toUpperCase(),
    // The form offers a list; the server also checks the code is assigned (checkout.ts).
    check: (v) => (/^[A-Z]{2}$/.test(v) ? undefined : { key: 'country' }),
  },
};

/** Fields the customer may leave empty even when the form asks for them. */
export const optionalCustomerFields: ReadonlySet<string> = new Set(['customer.billing_address.line2']);

export const cleanCustomerValue = (path: CustomerFieldPath, value: string) => (customerRules[path].clean ?? ((v: string) => v.trim()))(value);

/** What is wrong with one field's raw value (undefined when fine); empty values are fine only when optional. */
export function customerFieldProblem(path: CustomerFieldPath, raw: string, required = !optionalCustomerFields.has(path)): FieldProblem | undefined {
  const value = cleanCustomerValue(path, raw);
  if (value === '') return required ? { key: 'required' } : undefined;
  return customerRules[path].check(value);
}

/** A problem in words: `required` is the field's own sentence, the others from `m`. */
export const wordFieldProblem = (problem: FieldProblem, m: FieldMessages, required: string) =>
  problem.key === 'required' ? required : m[problem.key].replace('{max}', 'max' in problem ? String(problem.max) : '');

/** The server's English (src/i18n/en.ts holds the same words for the pages). */
export const englishFieldMessages: FieldMessages = {
  too_long: 'Must be at most {max} characters',
  email: EMAIL_MESSAGE,
  mobile: 'Enter a mobile number such as 0917 123 4567, or with its country code, such as +639171234567',
  zip: 'Enter a ZIP or postal code of 2 to 12 letters or digits',
  country: COUNTRY_MESSAGE,
};

/** What "Enter …" asks for when a field is empty, in the server's English. */
const englishWhat: Record<CustomerFieldPath, string> = {
  'customer.first_name': 'a first name',
  'customer.last_name': 'a last name',
  'customer.contact.email': 'an email address',
  'customer.contact.mobile': 'a mobile number',
  'customer.billing_address.line1': 'the first address line',
  'customer.billing_address.line2': 'the second address line',
  'customer.billing_address.city_municipality': 'a city or municipality',
  'customer.billing_address.state_province_region': 'a state, province or region',
  'customer.billing_address.zip': 'a ZIP or postal code',
  'customer.billing_address.country_code': 'a country',
};

/** The server's message for one field's raw value, in English ("" when fine). */
export function customerFieldError(path: CustomerFieldPath, raw: string, required = !optionalCustomerFields.has(path)): string | undefined {
  const problem = customerFieldProblem(path, raw, required);
  return problem && wordFieldProblem(problem, englishFieldMessages, `Enter ${englishWhat[path]}`);
}
