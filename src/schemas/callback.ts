import { z } from 'zod';

/**
 * A `callback_url` as integrators send it (spec §2.2 route.callback_url, §2.4): refused at input
 * when obviously unusable — not http/https, credentials in the URL, or too long. Whether the
 * host may be called (SSRF guard) is decided again at delivery time, after DNS resolution.
 */
export const callbackUrlSchema = z
  .string()
  .trim()
  .max(2048, 'must be at most 2048 characters')
  .pipe(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }))
  .refine((value) => {
    const url = new URL(value);
    return url.username === '' && url.password === '';
  }, 'must not contain a user name or password');
