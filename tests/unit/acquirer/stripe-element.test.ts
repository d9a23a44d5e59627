import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { describe, expect, it } from 'vitest';
import { allowStripeElement, stripeCardFormProps, stripeCspSources, stripeSetupFormProps, stripeWalletHeaders } from '../../../src/acquirer/stripe/element.ts';
import StripeCardForm, { minorUnits, stripeFormMessages } from '../../../src/components/StripeCardForm.tsx';
import { stripeFormText } from '../../../src/i18n/island.ts';
import { writtenIn } from '../../../src/schemas/amount-locale.ts';
import type { AmountRule } from '../../../src/schemas/amount-rules.ts';

const rule: AmountRule = { currency: 'USD', exponent: 2, min: { minor: '50', shown: '$0.50' }, ...writtenIn('en-US', 2) };
const props = (over: Partial<Parameters<typeof stripeCardFormProps>[0]> = {}) =>
  stripeCardFormProps({
    publishableKey: 'pk_test_51Abcdefgh',
    startUrl: '/checkout/tok_1/provider',
    currency: 'USD',
    amountMinor: 2500n,
    buttonLabel: 'Pay $25.00',
    ...over,
  });

describe('Stripe Payment Element › props', () => {
  it('passes the publishable key, the start address, the currency as Stripe.js takes it and the amount due', () => {
    expect(props({ fields: [{ name: 'customer.email', label: 'Email', type: 'email', required: true }], extraBody: { session: 's' } })).toEqual({
      publishableKey: 'pk_test_51Abcdefgh',
      startUrl: '/checkout/tok_1/provider',
      currency: 'usd',
      amountMinor: 2500,
      buttonLabel: 'Pay $25.00',
      fields: [{ name: 'customer.email', label: 'Email', type: 'email', required: true }],
      extraBody: { session: 's' },
      methodTypes: ['card', 'link'],
    });
  });

  it('asks the Element for the types the PaymentIntent allows: cards and Link, cards alone when the card is kept for a schedule', () => {
    expect(props().methodTypes).toEqual(['card', 'link']);
    expect(props({ saveCard: true })).toMatchObject({ saveCard: true, methodTypes: ['card'] });
  });

  it('an open amount comes from the amount input', () => {
    const amount = { label: 'Amount', currency: 'USD', rule };
    expect(props({ amountMinor: null, amount })).toMatchObject({ currency: 'usd', amount });
    expect(props({ amountMinor: null, amount }).amountMinor).toBeUndefined();
    expect(() => props({ amountMinor: null })).toThrow(/amount input/);
  });

  it('never puts a secret or restricted key on the page, nor sends the fields off paylink', () => {
    expect(() => props({ publishableKey: 'sk_test_51Abcdefgh' })).toThrow(/publishable key/);
    expect(() => props({ publishableKey: 'rk_live_51Abcdefgh' })).toThrow(/publishable key/);
    for (const startUrl of ['https://evil.example/collect', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
      expect(() => props({ startUrl })).toThrow(/path on paylink/);
    }
    expect(() => props({ amountMinor: 0n })).toThrow();
    expect(() => props({ amountMinor: 100_000_000n })).toThrow();
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

  it("lets Stripe's frames use the Payment Request API and keeps wallet pop-ups connected, on the page it widens", () => {
    const headers = new Headers({
      'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(self)',
      'Cross-Origin-Opener-Policy': 'same-origin',
    });
    allowStripeElement({ insertDirective: () => {}, insertScriptResource: () => {} }, headers);
    expect(headers.get('permissions-policy')).toBe(
      'camera=(), microphone=(), geolocation=(), payment=(self "https://js.stripe.com" "https://*.js.stripe.com")',
    );
    expect(headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
    expect(stripeWalletHeaders['Permissions-Policy']).toBe(headers.get('permissions-policy'));
  });
});

describe('Stripe Payment Element › island', () => {
  it("renders the customer's fields, a mount point for the Element and a disabled button until Stripe is ready; no card input of its own", () => {
    const html = renderToString(
      h(
        StripeCardForm,
        props({
          fields: [
            { name: 'customer.email', label: 'Email', type: 'email', required: true },
            { name: 'ref', label: 'Ref', value: 'A1', readOnly: true },
          ],
        }),
      ),
    );
    expect(html).toContain('class="stripe-element"');
    expect(html).toContain('data-acquirer="stripe"');
    expect(html).toMatch(/<label for="f-customer-email">Email<\/label>/);
    expect(html).toMatch(/<button type="submit" class="pay" disabled[^>]*>Pay \$25\.00<\/button>/);
    const inputs = [...html.matchAll(/<input[^>]*name="([^"]+)"/g)].map((m) => m[1]);
    expect(inputs).toEqual(['customer.email', 'ref']);
    expect(html).not.toMatch(/cc-number|cc-csc|card\./);
    expect(html).not.toContain('pk_test_51Abcdefgh');
    expect(Object.values(stripeFormMessages).every((m) => m.length > 0)).toBe(true);
  });
});

describe('Stripe Payment Element › setup mode (card registration)', () => {
  const setupProps = (over: Partial<Parameters<typeof stripeSetupFormProps>[0]> = {}) =>
    stripeSetupFormProps({
      publishableKey: 'pk_test_51Abcdefgh',
      clientSecret: 'seti_1AbC_secret_XyZ9',
      returnUrl: 'https://pay.example/register/tok_1/return',
      pagePath: '/register/tok_1',
      buttonLabel: 'Save card',
      ...over,
    });

  it('passes the publishable key, the SetupIntent secret and the return address; the form falls back to the page itself', () => {
    expect(setupProps({ failure: 'Your card was not saved.', loadingLabel: 'Loading…' })).toEqual({
      publishableKey: 'pk_test_51Abcdefgh',
      startUrl: '/register/tok_1',
      currency: '',
      buttonLabel: 'Save card',
      loadingLabel: 'Loading…',
      setup: { clientSecret: 'seti_1AbC_secret_XyZ9', returnUrl: 'https://pay.example/register/tok_1/return', failure: 'Your card was not saved.' },
    });
  });

  it('refuses a secret key, a PaymentIntent or other secret in place of the SetupIntent secret, and a return address that is not http(s)', () => {
    expect(() => setupProps({ publishableKey: 'sk_test_51Abcdefgh' })).toThrow(/publishable key/);
    for (const clientSecret of ['sk_test_51Abcdefgh', 'pi_1_secret_x', 'seti_1', 'seti_1_secret_x"><script>']) {
      expect(() => setupProps({ clientSecret })).toThrow(/SetupIntent client secret/);
    }
    expect(() => setupProps({ returnUrl: 'javascript:alert(1)' })).toThrow();
    expect(() => setupProps({ pagePath: '//evil.example/x' })).toThrow(/path on paylink/);
  });

  it('renders no field of its own, a loading line while Stripe.js loads (never a blank box), and the last failure', () => {
    const html = renderToString(h(StripeCardForm, setupProps({ loadingLabel: 'Loading the secure card form…', failure: 'Your card was not saved.' })));
    expect(html).toContain('class="stripe-element"');
    expect(html).toMatch(/<form class="card-form" method="get" action="\/register\/tok_1"/);
    expect(html).toContain('<p class="hint stripe-loading" aria-live="polite">Loading the secure card form…</p>');
    expect(html).toContain('<div tabindex="-1" class="alert" role="alert">Your card was not saved.</div>');
    expect(html).toMatch(/<button type="submit" class="pay" disabled[^>]*>Save card<\/button>/);
    expect(html).not.toMatch(/<input/);
    // Without a failure the alert is empty, and the default loading words are Stripe's.
    const plain = renderToString(h(StripeCardForm, setupProps()));
    expect(plain).toContain(`>${stripeFormMessages.loading}</p>`);
    expect(plain).toContain('class="alert empty"');
  });

  it("speaks the page's language: its legend, its note and its loading line come from the page", () => {
    const fil = stripeFormText('fil');
    const html = renderToString(h(StripeCardForm, { ...setupProps(), text: fil }));
    expect(html).toContain(`<legend>${fil.legend}</legend>`);
    expect(html).toContain(`>${fil.note}</p>`);
    expect(html).toContain(`>${fil.loading}</p>`);
    expect(html).not.toContain(stripeFormMessages.note);
    for (const locale of ['en', 'fil', 'es'] as const) {
      const words = stripeFormText(locale);
      expect(words.required).toContain('{label}');
      expect(Object.values(words).every((w) => w.length > 0)).toBe(true);
    }
    expect(stripeFormText('es').note).not.toBe(stripeFormText('en').note);
  });
});

describe('the Stripe island reads an open amount in minor units, exactly', () => {
  const php = { currency: 'PHP', exponent: 2, ...writtenIn('en-US', 2) };
  const jpy = { currency: 'JPY', exponent: 0, ...writtenIn('en-US', 0) };
  it('counts digits, not floating point, and refuses what the currency cannot hold', async () => {
    expect(await minorUnits('12.50', php)).toEqual({ minor: 1250 });
    expect(await minorUnits('1,234.5', php)).toEqual({ minor: 123450 });
    expect(await minorUnits('0.29', php)).toEqual({ minor: 29 });
    expect(await minorUnits('500', jpy)).toEqual({ minor: 500 });
    for (const [typed, rule] of [
      ['5.5', jpy],
      ['1.234', php],
      ['-3', php],
      ['0', php],
      ['1e3', php],
      ['', php],
    ] as const)
      expect(await minorUnits(typed, rule)).toHaveProperty('message');
  });

  it("reads the page's separators: a Spanish decimal comma is a decimal, an English one is refused as unclear", async () => {
    expect(await minorUnits('25,00', { ...php, ...writtenIn('es', 2) })).toEqual({ minor: 2500 });
    expect(await minorUnits('25,00', php)).toEqual({ message: 'The amount can be read two ways: write 25.00 or 2,500' });
  });
});
