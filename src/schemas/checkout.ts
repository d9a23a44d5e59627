import * as z from 'zod/mini';
import { cardSchema } from './card.ts';
import {
  COUNTRY_MESSAGE,
  type CustomerFieldPath,
  cleanCustomerValue,
  englishFieldMessages,
  optionalCustomerFields,
  customerFieldError as shapeError,
} from './checkout-rules.ts';
import { isCountryCode } from './countries.ts';
import { customerFieldPaths } from './fields.ts';
import { mobileE164 } from './phone.ts';

/**
 * What the checkout form sends, and the customer field schemas, in zod/mini, built from the
 * plain rules in checkout-rules.ts that the island runs. Field values are keyed by spec §2.4
 * dotted path.
 */
export * from './checkout-rules.ts';
export { customerFieldPaths };

/** The island's rule plus what only the server checks (the country code is really assigned, the mobile number is a number). */
export function customerFieldError(path: CustomerFieldPath, raw: string, required = !optionalCustomerFields.has(path)): string | undefined {
  const message = shapeError(path, raw, required);
  if (message) return message;
  const value = cleanCustomerValue(path, raw);
  if (value === '') return undefined;
  if (path === 'customer.billing_address.country_code') return isCountryCode(value) ? undefined : COUNTRY_MESSAGE;
  if (path === 'customer.contact.mobile') return mobileE164(value) ? undefined : englishFieldMessages.mobile;
  return undefined;
}

/** The value as stored: cleaned, and a mobile number in E.164 (a national one read for its country: phone.ts). */
function storedCustomerValue(path: CustomerFieldPath, raw: string): string {
  const value = cleanCustomerValue(path, raw);
  return path === 'customer.contact.mobile' ? (mobileE164(value) ?? value) : value;
}

function fieldSchema(path: CustomerFieldPath) {
  const required = !optionalCustomerFields.has(path);
  return z.string(customerFieldError(path, '', true)!).check(
    z.superRefine((value, ctx) => {
      const message = customerFieldError(path, value, required);
      if (message) ctx.issues.push({ code: 'custom', message, input: value });
    }),
    z.overwrite((value) => storedCustomerValue(path, value)),
  );
}

export const customerFieldSchemas = Object.fromEntries(customerFieldPaths.map((path) => [path, fieldSchema(path)])) as Record<
  CustomerFieldPath,
  ReturnType<typeof fieldSchema>
>;

/** Checks the asked fields; returns the cleaned values and per-field messages. */
export function checkCustomerFields(
  asked: readonly CustomerFieldPath[],
  values: Record<string, unknown>,
): { values: Partial<Record<CustomerFieldPath, string>>; messages: Record<string, string[]> } {
  const out: Partial<Record<CustomerFieldPath, string>> = {};
  const messages: Record<string, string[]> = {};
  for (const path of asked) {
    const raw = values[path];
    if (raw !== undefined && typeof raw !== 'string') {
      messages[path] = ['must be text'];
      continue;
    }
    const message = customerFieldError(path, raw ?? '', !optionalCustomerFields.has(path));
    if (message) messages[path] = [message];
    else if ((raw ?? '').trim() !== '') out[path] = storedCustomerValue(path, raw!);
  }
  return { values: out, messages };
}

/**
 * What a page that sells items, takes a tip or a code, or asks questions sends beside the customer's
 * fields (read field by field, every wrong one said, by src/domain/checkout/sale.ts).
 */
const saleSubmission = {
  /** Quantities by item id; an item left out takes its default. */
  quantity: z.optional(z.record(z.string(), z.union([z.string().check(z.maxLength(10, 'is too long')), z.number()]))),
  /** "none", a preset's index ("0"), or "custom" with `tip_amount`. */
  tip: z.optional(z.string().check(z.maxLength(10, 'is too long'))),
  /** The typed tip, a decimal amount in the link's currency ("5.00"). */
  tip_amount: z.optional(z.string().check(z.maxLength(32, 'Enter a shorter amount'))),
  promo_code: z.optional(z.string().check(z.maxLength(100, 'is too long'))),
  /** Answers by question id: text, a number, true/false. */
  answers: z.optional(z.record(z.string(), z.union([z.string().check(z.maxLength(1000, 'is too long')), z.number(), z.boolean()]))),
  /** The page's sale form as it would post it (form-encoded), as the page's card forms send it. */
  sale: z.optional(z.string().check(z.maxLength(20_000, 'is too long'))),
};

/** The checkout form's submission (card + the customer's own field values + amount when asked). */
export const checkoutSubmissionSchema = z.object({
  ...saleSubmission,
  /** Static links only: the session ticket the page was rendered with (checked by the checkout service). */
  session: z.optional(z.string().check(z.maxLength(200, 'The payment form is out of date: reload the page'))),
  amount: z.optional(z.string().check(z.maxLength(32, 'Enter a shorter amount'))),
  /** The page's language the amount was typed in ("es", "en-US"): its separators read `amount`. English when absent. */
  amount_locale: z.optional(z.string().check(z.maxLength(35, 'is too long'))),
  fields: z._default(z.record(z.string(), z.string().check(z.maxLength(1000, 'is too long'))), {}),
  card: cardSchema,
});

export type CheckoutSubmission = z.infer<typeof checkoutSubmissionSchema>;

/** The same form when the card goes from the browser straight to the acquirer: no card here. */
export const checkoutCustomerSchema = z.object({
  session: checkoutSubmissionSchema.shape.session,
  amount: checkoutSubmissionSchema.shape.amount,
  amount_locale: checkoutSubmissionSchema.shape.amount_locale,
  fields: checkoutSubmissionSchema.shape.fields,
  ...saleSubmission,
});

/** The page's running total (POST …/quote): what the customer chose so far, nothing stored. */
export const saleQuoteBodySchema = z.object({
  ...saleSubmission,
  amount_locale: checkoutSubmissionSchema.shape.amount_locale,
  fields: z.optional(checkoutSubmissionSchema.shape.fields),
});
