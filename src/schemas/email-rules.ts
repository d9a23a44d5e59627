import { regexes } from 'zod/mini';

/**
 * The one e-mail address rule: what paylink's mailer can send to, so an address accepted on a
 * checkout, a dynamic link, a card registration or a console invitation never fails for good when
 * its e-mail is sent. It is zod's `z.email()` pattern (the mailer's own check): ASCII only, a
 * dot-separated local part of letters, digits and `_'+-`, and a domain of letters, digits and
 * hyphens with an alphabetic top-level label. The mailer does not ask SMTP servers for SMTPUTF8,
 * so a non-ASCII local part (or a U+FFFD a broken encoding left behind) is refused here rather
 * than by the receiving server later; an internationalised domain is written in its `xn--` form.
 * Plain functions and words, no zod schema: the checkout island imports this file.
 */
export const EMAIL_PATTERN: RegExp = regexes.email;

/** The longest address SMTP carries (RFC 5321's 256-octet path, less its angle brackets). */
export const EMAIL_MAX_LENGTH = 254;

/** The words for an address the rule refuses, the same on every form and API that takes one. */
export const EMAIL_MESSAGE = 'Enter an email address such as name@example.com';

/** True when the mailer can send to `value` (already trimmed). */
export const isEmailAddress = (value: string): boolean => value.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(value);
