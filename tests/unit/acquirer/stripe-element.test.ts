import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { describe, expect, it } from 'vitest';
import { allowStripeElement, stripeCardFormProps, stripeCspSources } from '../../../src/acquirer/stripe/element.ts';
import StripeCardForm, { stripeFallbackMessages } from '../../../src/components/StripeCardForm.tsx';

const waiting = { status: 'requires_payment_method' as const, providerPaymentId: 'pi_3Abc', clientKey: 'pi_3Abc_secret_Xyz123' };
const props = (over: Partial<Parameters<typeof stripeCardFormProps>[0]> = {}) =>
  stripeCardFormProps({
    publishableKey: 'pk_test_51Abcdefgh',
    payment: waiting,
    returnUrl: 'https://pay.example/checkout/t/return',
    buttonLabel: 'Pay $25.00',
    ...over,
  });

describe('Stripe Payment Element › props', () => {
  it('passes the publishable key, the client_secret and the return page to the island', () => {
    expect(props()).toEqual({
      publishableKey: 'pk_test_51Abcdefgh',
      clientSecret: 'pi_3Abc_secret_Xyz123',
      returnUrl: 'https://pay.example/checkout/t/return',
      buttonLabel: 'Pay $25.00',
    });
  });

  it('never puts a secret key, a restricted key or something else than a client_secret on the page', () => {
    expect(() => props({ publishableKey: 'sk_test_51Abcdefgh' })).toThrow(/publishable key/);
    expect(() => props({ publishableKey: 'rk_live_51Abcdefgh' })).toThrow(/publishable key/);
    expect(() => props({ payment: { ...waiting, clientKey: 'sk_test_oops' } })).toThrow(/client_secret/);
    expect(() => props({ returnUrl: 'javascript:alert(1)' })).toThrow();
  });

  it('needs a payment that waits for its card', () => {
    expect(() => props({ payment: { status: 'processing', providerPaymentId: 'pi_1' } })).toThrow(/waiting for its card/);
    expect(() => props({ payment: { status: 'requires_payment_method', providerPaymentId: 'pi_1' } })).toThrow(/waiting for its card/);
  });
});

describe('Stripe Payment Element › Content Security Policy', () => {
  it("widens script-src, frame-src and connect-src to Stripe's hosts only, keeping paylink's own sources", () => {
    const directives: string[] = [];
    const scripts: string[] = [];
    allowStripeElement({ insertDirective: (d) => directives.push(d), insertScriptResource: (r) => scripts.push(r) });
    expect(scripts).toEqual(["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com']);
    expect(directives).toEqual([
      'frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com',
      "connect-src 'self' https://api.stripe.com",
    ]);
    const everySource = [...stripeCspSources['script-src'], ...stripeCspSources['frame-src'], ...stripeCspSources['connect-src']];
    for (const source of everySource) expect(new URL(source.replace('*.', 'x.')).hostname).toMatch(/(^|\.)stripe\.com$/);
  });
});

describe('Stripe Payment Element › island', () => {
  it('renders a mount point for the Element and a disabled button until Stripe is ready; no card input of its own', () => {
    const html = renderToString(h(StripeCardForm, props()));
    expect(html).toContain('class="stripe-element"');
    expect(html).toMatch(/<button type="submit" class="pay" disabled[^>]*>Pay \$25\.00<\/button>/);
    expect(html).not.toMatch(/<input/);
    expect(html).not.toContain('pk_test_51Abcdefgh');
    expect(stripeFallbackMessages.load.length).toBeGreaterThan(0);
  });
});
