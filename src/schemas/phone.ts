import type { CountryCode } from 'libphonenumber-js/max';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { MOBILE } from './checkout-rules.ts';

/**
 * A customer's mobile number as the server stores it: E.164. A number with its + code is kept as
 * given (what the API took before); one without is read as a national number of
 * DEFAULT_PHONE_COUNTRY (a Philippine `0917 555 0123` becomes `+639175550123`) and must be a real
 * number there. Server only: the phone-number metadata is too heavy for the payment page's island,
 * which checks the shape alone (checkout-rules.ts).
 */
export const DEFAULT_PHONE_COUNTRY: CountryCode = 'PH';

/** E.164 for a cleaned value (no spaces or dashes), or undefined when it is no number. */
export function mobileE164(cleaned: string, country: CountryCode = DEFAULT_PHONE_COUNTRY): string | undefined {
  if (MOBILE.test(cleaned)) return cleaned;
  if (cleaned.startsWith('+')) return undefined;
  const parsed = parsePhoneNumberFromString(cleaned, country);
  return parsed?.isValid() ? parsed.number : undefined;
}
