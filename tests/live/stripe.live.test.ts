import Stripe from 'stripe';
import { describe, it } from 'vitest';
import type { PaymentState } from '../../src/acquirer/connector.ts';
import { StripeConnector } from '../../src/acquirer/stripe/connector.ts';
import { type CardBehaviour, describeConformance } from '../integration/connectors/conformance.ts';

/**
 * `npm run test:live`: the conformance journeys against Stripe's real test mode (network needed;
 * never part of `npm test`; not run on the development machine, which has no network). Set
 * STRIPE_TEST_SECRET_KEY, STRIPE_TEST_PUBLISHABLE_KEY and STRIPE_TEST_WEBHOOK_SECRET (any `whsec_`
 * value: the journeys sign their own events with it). Where the Payment Element would confirm in
 * the customer's browser, the test confirms with the secret key and Stripe's test payment methods
 * (`pm_card_visa`, …). 3-D Secure needs a person on the bank's page, so that journey is skipped and
 * reported as such.
 */
const secretKey = process.env.STRIPE_TEST_SECRET_KEY;
const publicKey = process.env.STRIPE_TEST_PUBLISHABLE_KEY;
const webhookSecret = process.env.STRIPE_TEST_WEBHOOK_SECRET ?? 'whsec_paylink_live_test';
const returnUrl = 'https://example.com/return';

const methods: Record<CardBehaviour, string> = {
  succeeds: 'pm_card_visa',
  declines: 'pm_card_chargeDeclined',
  three_d_secure: 'pm_card_threeDSecure2Required',
  refund_fails_later: 'pm_card_refundFail',
};

if (!secretKey?.startsWith('sk_test_') || !publicKey?.startsWith('pk_test_')) {
  describe('stripe live', () => {
    it.skip('needs STRIPE_TEST_SECRET_KEY and STRIPE_TEST_PUBLISHABLE_KEY (test-mode keys only)', () => {});
  });
} else {
  describeConformance('stripe (live test mode)', () => {
    const connector = new StripeConnector({
      secretKey,
      publicKey,
      webhookSecret,
      apiBaseUrl: process.env.STRIPE_API_BASE_URL ?? 'https://api.stripe.com',
      timeoutMs: 20_000,
    });
    // The browser's part (the Payment Element), played with the secret key.
    const browser = new Stripe(secretKey);
    return {
      connector,
      currency: 'USD',
      amountMinor: 10_000n,
      unsupported: ['three_d_secure'],
      async pay(card, key, amountMinor = 10_000n) {
        const created = await connector.createPayment({ amountMinor, currency: 'USD', reference: key, returnUrl }, { idempotencyKey: key });
        if (created.status !== 'requires_payment_method') return created;
        await browser.paymentIntents.confirm(created.providerPaymentId, { payment_method: methods[card], return_url: returnUrl }).catch(() => undefined);
        return connector.syncPayment(created.providerPaymentId);
      },
      authenticate: async () => {
        throw new Error('3-D Secure needs a person on the bank’s page');
      },
      async saveCard() {
        const key = `live-save:${Date.now()}:${Math.random()}`;
        const started = await connector.createCardSetup!({ reference: key, returnUrl }, { idempotencyKey: key });
        await browser.setupIntents.confirm(started.setupId, { payment_method: 'pm_card_visa', return_url: returnUrl });
        const state = await connector.syncCardSetup!(started.setupId);
        if (state.status !== 'succeeded') throw new Error(`saving the card: the setup is ${state.status}`);
        return { token: state.token, customer: state.customer };
      },
      async confirmCardSetup(started, card) {
        await browser.setupIntents
          .confirm(started.setupId, { payment_method: card === 'succeeds' ? 'pm_card_visa' : 'pm_card_chargeDeclined', return_url: returnUrl })
          .catch(() => undefined);
      },
      settleLater: () => new Promise((r) => setTimeout(r, 3000)),
      signedPaymentEvent(state: PaymentState & { providerPaymentId: string }, { eventId }) {
        const object =
          state.status === 'succeeded'
            ? { id: state.providerPaymentId, object: 'payment_intent', status: 'succeeded', latest_charge: state.chargeId }
            : {
                id: state.providerPaymentId,
                object: 'payment_intent',
                status: 'requires_payment_method',
                latest_charge: null,
                last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
              };
        const type = state.status === 'succeeded' ? 'payment_intent.succeeded' : 'payment_intent.payment_failed';
        const rawBody = JSON.stringify({ id: eventId, object: 'event', type, created: Math.floor(Date.now() / 1000), livemode: false, data: { object } });
        const header = browser.webhooks.generateTestHeaderString({ payload: rawBody, secret: webhookSecret });
        return { rawBody, headers: new Headers({ 'stripe-signature': header }) };
      },
    };
  });
}
