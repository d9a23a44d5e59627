import * as z from 'zod/mini';
import { cardSchema } from './card.ts';
import { isCountryCode } from './countries.ts';
import { customerFieldPaths } from './fields.ts';

export type CustomerFieldPath = (typeof customerFieldPaths)[number];

/**
 * What the checkout form sends and how each customer field is checked. zod/mini, shared by the
 * island (instant inline errors) and the server (the authority: it parses the same schemas
 * again). Field values are keyed by the spec §2.4 dotted path.
 */

/** Longest value any customer field accepts. */
export const MAX_FIELD_LENGTH = 200;

const text = (what: string, max = MAX_FIELD_LENGTH) =>
  z.string(`Enter ${what}`).check(z.trim(), z.minLength(1, `Enter ${what}`), z.maxLength(max, `Must be at most ${max} characters`));

/** E.164: a plus sign, then 7 to 15 digits (spaces, dashes and brackets are removed first). */
export const MOBILE = /^\+[1-9]\d{6,14}$/;
const EMAIL = /^[^\s@"<>()[\]\\,;:]+@[^\s@"<>()[\]\\,;:]+\.[^\s@"<>()[\]\\,;:]{2,}$/;

export const customerFieldSchemas: Record<CustomerFieldPath, z.ZodMiniType<string, unknown>> = {
  'customer.first_name': text('a first name', 100),
  'customer.last_name': text('a last name', 100),
  'customer.contact.email': z.string('Enter an email address').check(
    z.trim(),
    z.toLowerCase(),
    z.maxLength(254, 'Must be at most 254 characters'),
    z.regex(EMAIL, 'Enter an email address such as name@example.com'),
  ),
  'customer.contact.mobile': z.string('Enter a mobile number').check(
    z.overwrite((v) => v.replace(/[\s().-]/g, '')),
    z.regex(MOBILE, 'Enter a mobile number with its country code, such as +639171234567'),
  ),
  'customer.billing_address.line1': text('the first address line'),
  'customer.billing_address.line2': z.string().check(z.trim(), z.maxLength(MAX_FIELD_LENGTH, `Must be at most ${MAX_FIELD_LENGTH} characters`)),
  'customer.billing_address.city_municipality': text('a city or municipality', 100),
  'customer.billing_address.state_province_region': text('a state, province or region', 100),
  'customer.billing_address.zip': z.string('Enter a ZIP or postal code').check(
    z.trim(),
    z.regex(/^[A-Za-z0-9][A-Za-z0-9 -]{1,11}$/, 'Enter a ZIP or postal code of 2 to 12 letters or digits'),
  ),
  'customer.billing_address.country_code': z.string('Choose a country').check(
    z.trim(),
    z.toUpperCase(),
    z.refine(isCountryCode, 'Choose a country (a two-letter ISO code such as PH)'),
  ),
};

/** Fields the customer may leave empty even when the form asks for them. */
export const optionalCustomerFields: ReadonlySet<CustomerFieldPath> = new Set(['customer.billing_address.line2']);

/** Checks the asked fields; returns the cleaned values and per-field messages. */
export function checkCustomerFields(
  asked: readonly CustomerFieldPath[],
  values: Record<string, unknown>,
): { values: Partial<Record<CustomerFieldPath, string>>; messages: Record<string, string[]> } {
  const out: Partial<Record<CustomerFieldPath, string>> = {};
  const messages: Record<string, string[]> = {};
  for (const path of asked) {
    const raw = values[path];
    if ((raw === undefined || raw === '') && optionalCustomerFields.has(path)) continue;
    const parsed = customerFieldSchemas[path].safeParse(raw ?? '');
    if (parsed.success) {
      if (parsed.data !== '') out[path] = parsed.data;
    } else messages[path] = [parsed.error.issues[0]!.message];
  }
  return { values: out, messages };
}

/** The checkout form's submission (card + the customer's own field values + amount when asked). */
export const checkoutSubmissionSchema = z.object({
  /** Static links only: the session token the page was rendered with. */
  session: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/, 'The payment form is out of date: reload the page'))),
  amount: z.optional(z.string().check(z.maxLength(32, 'Enter a shorter amount'))),
  fields: z._default(z.record(z.string(), z.string().check(z.maxLength(1000))), {}),
  card: cardSchema,
});

export type CheckoutSubmission = z.infer<typeof checkoutSubmissionSchema>;

export { customerFieldPaths };
