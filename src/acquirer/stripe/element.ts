import { z } from 'zod';
import type { StripeCardFormProps } from '../../components/StripeCardForm.tsx';
import type { PaymentState } from '../connector.ts';

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
 * Widens the page's policy for Stripe. Astro replaces its default script source ('self') as soon
 * as one resource is inserted, so 'self' goes back in first: paylink's own island modules still load.
 */
export function allowStripeElement(csp: CspTarget): void {
  csp.insertScriptResource("'self'");
  for (const source of stripeCspSources['script-src']) csp.insertScriptResource(source);
  csp.insertDirective(`frame-src ${stripeCspSources['frame-src'].join(' ')}`);
  csp.insertDirective(`connect-src 'self' ${stripeCspSources['connect-src'].join(' ')}`);
}

const propsSchema = z.object({
  publishableKey: z.string().regex(/^pk_(test|live)_[A-Za-z0-9]{8,250}$/, 'not a Stripe publishable key'),
  clientSecret: z.string().regex(/^pi_[A-Za-z0-9]+_secret_[A-Za-z0-9]+$/, 'not a PaymentIntent client_secret'),
  returnUrl: z.url({ protocol: /^https?$/ }),
  buttonLabel: z.string().min(1).max(80),
  busyLabel: z.string().min(1).max(80).optional(),
});

/**
 * The island's props from a payment waiting for its card (`requires_payment_method` with the
 * client_secret). Refuses what must never reach the page: a secret key instead of the publishable
 * one, or anything that is not a client_secret.
 */
export function stripeCardFormProps(input: {
  publishableKey: string;
  payment: PaymentState;
  returnUrl: string;
  buttonLabel: string;
  busyLabel?: string;
}): StripeCardFormProps {
  if (input.payment.status !== 'requires_payment_method' || !input.payment.clientKey) {
    throw new Error(`stripe: the Payment Element needs a payment waiting for its card, not ${input.payment.status}`);
  }
  return propsSchema.parse({
    publishableKey: input.publishableKey,
    clientSecret: input.payment.clientKey,
    returnUrl: input.returnUrl,
    buttonLabel: input.buttonLabel,
    ...(input.busyLabel ? { busyLabel: input.busyLabel } : {}),
  });
}
