import { DomainError } from '../domain/errors.ts';
import { checkJsonContentType } from './body.ts';

/**
 * The customer's forms (checkout, static link, hosted card registration) POST JSON to paylink
 * from paylink's own pages, so another site has no business sending them. A hostile page can
 * still make a visitor's browser send a request (a form post, or `fetch` in no-cors mode), but
 * not with `Content-Type: application/json` without a CORS preflight paylink never grants, and
 * never without saying where it comes from: `Sec-Fetch-Site` (every current browser) and
 * `Origin` (on every cross-origin POST). A request that carries neither is not from a browser
 * page and cannot ride on a visitor's browser.
 */
const crossSite = (why: string) =>
  new DomainError('ER.02.44', 'Cross-site request refused', {
    messages: { '(request)': [`This form can only be sent from its own page (${why}). Open the payment page again and submit it there.`] },
  });

export function assertSameOriginJson(request: Request, ownOrigins: readonly string[]): void {
  assertSameOrigin(request, ownOrigins);
  checkJsonContentType(request, true);
}

/** The same check for the console's HTML forms, which also carry a CSRF token (src/api/console.ts). */
export function assertSameOrigin(request: Request, ownOrigins: readonly string[]): void {
  const site = request.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin' && site !== 'none') throw crossSite(`Sec-Fetch-Site: ${site}`);
  const origin = request.headers.get('origin');
  if (origin !== null && !ownOrigins.includes(origin)) throw crossSite(origin === 'null' ? 'an opaque origin' : `sent from ${origin}`);
}

/**
 * The same check for a customer page's plain form posts (no script: a payment method's start, "I
 * have paid", the sandbox's answers). Those pages keep their address to themselves
 * (`<meta name="referrer" content="no-referrer">`), so Chromium sends `Origin: null` on their
 * posts; that is believed only beside `Sec-Fetch-Site: same-origin`, which the browser sets and
 * no page can forge (a post from another site, a sandboxed frame or a data: page says cross-site).
 */
export function assertSameOriginForm(request: Request, ownOrigins: readonly string[]): void {
  if (request.headers.get('origin') === 'null' && request.headers.get('sec-fetch-site') === 'same-origin') return;
  assertSameOrigin(request, ownOrigins);
}
