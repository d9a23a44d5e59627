import { z } from 'zod';
import type { StripeCardFormProps } from '../../components/StripeCardForm.tsx';
import { stripeAllowedTypes } from './methods.ts';

/**
 * What the checkout page needs to show Stripe's Payment Element (src/components/StripeCardForm.tsx)
 * and the Content Security Policy that lets it load, on the pages of integrators whose acquirer is
 * Stripe only. Every other page keeps paylink's strict policy (astro.config.mjs).
 */

/**
 * The origins the Payment Element needs, per directive: the script, its iframes (the card fields
 * and the 3-D Secure challenge) and its API calls. Nothing else is widened.
 */
export const stripeCspSources = {
  'script-src': ['https://js.stripe.com', 'https://*.js.stripe.com'],
  'frame-src': ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  'connect-src': ['https://api.stripe.com'],
} as const;

/** The part of Astro's `Astro.csp` the widening uses (kept narrow so it can be tested alone). */
export interface CspTarget {
  insertDirective(directive: string): void;
  insertScriptResource(resource: string): void;
}

/**
 * What the wallets in the Element (Apple Pay, Google Pay, Link) need of the page beyond its CSP,
 * replacing what src/http/server.ts sends every page:
 * - `Permissions-Policy: payment`: the wallets call the browser's Payment Request API (Apple Pay
 *   in Safari, Google Pay in Chrome) from Stripe's frames; a frame of another origin may use it
 *   only when the page's policy names that origin (`payment=(self)` alone keeps it to paylink);
 * - `Cross-Origin-Opener-Policy: same-origin-allow-popups`: where the browser has no Payment
 *   Request for a wallet, its sign-in opens in a window that reports back to the page that opened
 *   it; `same-origin` would cut that window off. Other pages keep `same-origin`.
 */
export const stripeWalletHeaders = {
  'Permissions-Policy': `camera=(), microphone=(), geolocation=(), payment=(self ${stripeCspSources['frame-src']
    .filter((source) => source.includes('js.stripe.com'))
    .map((source) => `"${source}"`)
    .join(' ')})`,
  'Cross-Origin-Opener-Policy': 'same-origin-allow-popups',
} as const;

/**
 * Widens the page's policy for Stripe. Astro replaces its default script source ('self') as soon
 * as one resource is inserted, so 'self' goes back in first: paylink's own island modules still load.
 * With the response's headers, the page also lets Stripe's wallets run (stripeWalletHeaders).
 */
export function allowStripeElement(csp: CspTarget, headers?: Headers): void {
  csp.insertScriptResource("'self'");
  for (const source of stripeCspSources['script-src']) csp.insertScriptResource(source);
  csp.insertDirective(`frame-src ${stripeCspSources['frame-src'].join(' ')}`);
  csp.insertDirective(`connect-src 'self' ${stripeCspSources['connect-src'].join(' ')}`);
  if (headers) for (const [name, value] of Object.entries(stripeWalletHeaders)) headers.set(name, value);
}

const propsSchema = z.object({
  publishableKey: z.string().regex(/^pk_(test|live)_[A-Za-z0-9]{8,250}$/, 'not a Stripe publishable key'),
  // Same origin only: the customer's fields go nowhere else.
  startUrl: z.string().regex(/^\/(?![/\\])[\w\-./]*$/, 'not a path on paylink'),
  currency: z.string().regex(/^[a-z]{3}$/),
  amountMinor: z.number().int().positive().max(99_999_999).optional(),
});

/**
 * The island's props for a payment page of a merchant on Stripe. Refuses what must never reach
 * the page: a secret or restricted key instead of the publishable one, a start address off paylink,
 * an amount Stripe cannot take. The Element opens in payment mode with the amount and currency;
 * the PaymentIntent is created only when the customer submits (startUrl).
 */
export function stripeCardFormProps(input: {
  publishableKey: string;
  startUrl: string;
  currency: string;
  /** The amount due; null on an open-amount link (then `amount` asks for it). */
  amountMinor: bigint | null;
  buttonLabel: string;
  fields?: StripeCardFormProps['fields'];
  amount?: StripeCardFormProps['amount'];
  extraBody?: Record<string, unknown>;
  saveCard?: boolean;
  /** A free trial's page: the card is saved by a SetupIntent, nothing is paid. */
  trial?: boolean;
}): StripeCardFormProps {
  const checked = propsSchema.parse({
    publishableKey: input.publishableKey,
    startUrl: input.startUrl,
    currency: input.currency.toLowerCase(),
    ...(input.amountMinor === null ? {} : { amountMinor: input.amountMinor <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(input.amountMinor) : Number.NaN }),
  });
  if (checked.amountMinor === undefined && !input.amount) throw new Error('stripe: an open-amount page needs the amount input');
  return {
    ...checked,
    buttonLabel: input.buttonLabel,
    ...(input.fields ? { fields: input.fields } : {}),
    ...(input.amount ? { amount: input.amount } : {}),
    ...(input.extraBody ? { extraBody: input.extraBody } : {}),
    ...(input.saveCard ? { saveCard: true } : {}),
    ...(input.trial ? { trial: true } : {}),
    methodTypes: input.trial ? ['card'] : [...stripeAllowedTypes(input.saveCard === true)],
  };
}

const setupPropsSchema = z.object({
  publishableKey: propsSchema.shape.publishableKey,
  // A SetupIntent's client secret (seti_…_secret_…), never a key.
  clientSecret: z.string().regex(/^seti_[A-Za-z0-9]+_secret_[A-Za-z0-9]+$/, 'not a SetupIntent client secret'),
  returnUrl: z.url({ protocol: /^https?$/ }),
  // The no-script form posts nowhere else but the page itself.
  pagePath: propsSchema.shape.startUrl,
});

/**
 * The island's props for the card registration page of a merchant on Stripe (setup mode): the
 * Element mounts with the SetupIntent's client secret and confirms it, coming back to `returnUrl`.
 * Refuses a secret key in place of the publishable one and anything but a SetupIntent's secret.
 */
export function stripeSetupFormProps(input: {
  publishableKey: string;
  clientSecret: string;
  returnUrl: string;
  pagePath: string;
  buttonLabel: string;
  loadingLabel?: string;
  failure?: string;
}): StripeCardFormProps {
  const checked = setupPropsSchema.parse(input);
  return {
    publishableKey: checked.publishableKey,
    startUrl: checked.pagePath,
    currency: '',
    buttonLabel: input.buttonLabel,
    ...(input.loadingLabel ? { loadingLabel: input.loadingLabel } : {}),
    setup: { clientSecret: checked.clientSecret, returnUrl: checked.returnUrl, ...(input.failure ? { failure: input.failure } : {}) },
  };
}
