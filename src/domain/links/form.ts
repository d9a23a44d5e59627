import type { Link } from '../../db/schema.ts';
import { DEFAULT_LOCALE, intlLocale, type Locale, t } from '../../i18n/index.ts';
import { type CustomerFieldPath, customerFieldPaths, optionalCustomerFields } from '../../schemas/checkout.ts';
import { countryCodes } from '../../schemas/countries.ts';
import { defaultLabels, type FieldMode, type FieldPath, fieldPaths } from '../../schemas/fields.ts';

/**
 * Which customer fields a payment page shows and how. Each spec §2.4 field has a mode from the
 * link's `fields` map:
 *   customer — asked on the form (unless the integrator already sent a value: then read-only);
 *   system   — the integrator must send it in the dynamic link body; shown read-only;
 *   hidden   — never asked, never shown (a value the integrator sends is still recorded).
 * Fields the map does not name use DEFAULT_FIELD_MODES: name and e-mail are asked, the rest
 * hidden, so a link asks for little unless its owner wants more.
 */
export const DEFAULT_FIELD_MODES: Partial<Record<FieldPath, FieldMode>> = {
  'customer.first_name': 'customer',
  'customer.last_name': 'customer',
  'customer.contact.email': 'customer',
};

export const fieldMode = (link: Pick<Link, 'fields'>, path: FieldPath): FieldMode =>
  (link.fields as Partial<Record<FieldPath, FieldMode>>)[path] ?? DEFAULT_FIELD_MODES[path] ?? 'hidden';

export const fieldLabel = (link: Pick<Link, 'labels'>, path: FieldPath): string =>
  (link.labels as Partial<Record<FieldPath, string>>)[path] ?? defaultLabels[path];

/**
 * The label a customer reads: the merchant's own wording as written, else ours in the customer's
 * language (a stored label equal to the English default is ours, not the merchant's).
 */
export function customerLabel(link: Pick<Link, 'labels'>, path: FieldPath, locale: Locale): string {
  const own = (link.labels as Partial<Record<FieldPath, string>>)[path];
  return own !== undefined && own !== defaultLabels[path] ? own : t(locale, `field.${path}`);
}

/**
 * A link with any `system` field can only be paid through a dynamic link: its static page would
 * have no one to fill those values in. paylink's own (system) links are paid only through the
 * personal checkout links paylink makes on them, whatever their fields.
 */
export const isDynamicOnly = (link: Pick<Link, 'fields'> & { system?: boolean }) =>
  link.system === true || fieldPaths.some((path) => fieldMode(link, path) === 'system');

import type { FormField } from '../../schemas/form-field.ts';

export type { FormField };

const inputHints: Record<CustomerFieldPath, Pick<FormField, 'type' | 'autocomplete' | 'inputmode'>> = {
  'customer.first_name': { autocomplete: 'given-name' },
  'customer.last_name': { autocomplete: 'family-name' },
  'customer.contact.email': { type: 'email', autocomplete: 'email', inputmode: 'email' },
  'customer.contact.mobile': { type: 'tel', autocomplete: 'tel', inputmode: 'tel' },
  'customer.billing_address.line1': { autocomplete: 'address-line1' },
  'customer.billing_address.line2': { autocomplete: 'address-line2' },
  'customer.billing_address.city_municipality': { autocomplete: 'address-level2' },
  'customer.billing_address.state_province_region': { autocomplete: 'address-level1' },
  'customer.billing_address.zip': { autocomplete: 'postal-code' },
  'customer.billing_address.country_code': { type: 'select', autocomplete: 'country' },
};

// Country names in each language, built once per locale (a page render only looks them up).
const countryOptions = new Map<Locale, [string, string][]>();
function countries(locale: Locale): [string, string][] {
  let options = countryOptions.get(locale);
  if (!options) {
    const tag = intlLocale(locale);
    const names = new Intl.DisplayNames([tag], { type: 'region' });
    options = countryCodes.map((code): [string, string] => [code, names.of(code) ?? code]).sort((a, b) => a[1].localeCompare(b[1], tag));
    countryOptions.set(locale, options);
  }
  return options;
}

/** Customer fields the customer must fill in on this form (asked and not already system-filled). */
export function askedFields(link: Pick<Link, 'fields'>, systemValues: Record<string, string>): CustomerFieldPath[] {
  return customerFieldPaths.filter((path) => fieldMode(link, path) === 'customer' && systemValues[path] === undefined);
}

/** The customer fields of the form, in spec order: asked inputs and read-only system values. */
export function customerFormFields(link: Pick<Link, 'fields' | 'labels'>, systemValues: Record<string, string>, locale: Locale = DEFAULT_LOCALE): FormField[] {
  const out: FormField[] = [];
  for (const path of customerFieldPaths) {
    const mode = fieldMode(link, path);
    const value = systemValues[path];
    if (mode === 'hidden') continue;
    const hints = inputHints[path];
    if (value !== undefined) {
      out.push({ name: path, label: customerLabel(link, path, locale), ...hints, type: hints.type === 'select' ? 'text' : hints.type, value, readOnly: true });
    } else if (mode === 'customer') {
      out.push({
        name: path,
        label: customerLabel(link, path, locale),
        ...hints,
        required: !optionalCustomerFields.has(path),
        requiredMessage: t(locale, `field.required.${path}`),
        ...(hints.type === 'select' ? { options: countries(locale) } : {}),
      });
    }
  }
  return out;
}
