import { z } from 'zod';

const URL_MAX_LENGTH = 2048;

/**
 * An http(s) URL as a browser or an HTTP client reads it (WHATWG URL). A string that
 * `new URL()` refuses (a port above 65535, `256.256.256.256`, an IPv6 zone id, no host…) is a
 * field error, never an exception later.
 *
 * A `callback_url` (spec §2.2 route.callback_url, §2.4) is one of these; whether its host may
 * ever be called (a private, loopback or metadata address) is checked by the service that takes
 * it (src/domain/notifications/callback-url.ts), and again at delivery after DNS.
 */
export const httpUrlSchema = z
  .string()
  .trim()
  .max(URL_MAX_LENGTH, `must be at most ${URL_MAX_LENGTH} characters`)
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be an http:// or https:// URL' });
      return;
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
      ctx.addIssue({ code: 'custom', message: 'must be an http:// or https:// URL' });
    } else if (url.username !== '' || url.password !== '') {
      ctx.addIssue({ code: 'custom', message: 'must not contain a user name or password' });
    }
  });
