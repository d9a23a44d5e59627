import { createHmac } from 'node:crypto';
import { describe, it } from 'vitest';
import type { PaymentState } from '../../src/acquirer/connector.ts';
import { PaymongoConnector } from '../../src/acquirer/paymongo/connector.ts';
import { type CardBehaviour, describeConformance } from '../integration/connectors/conformance.ts';
import { CARD_EXP } from '../support/cards.ts';
import { browserPays } from '../support/fakes/paymongo.ts';

/**
 * `npm run test:live`: the conformance journeys against PayMongo's real test mode (network
 * needed; never part of `npm test`). Set PAYMONGO_TEST_SECRET_KEY, PAYMONGO_TEST_PUBLIC_KEY and
 * PAYMONGO_TEST_WEBHOOK_SECRET (the secret of any webhook of the account: the journeys sign their
 * own events with it). 3-D Secure needs a person on PayMongo's page and PayMongo's test mode has
 * no refund that fails later, so those journeys are skipped and reported as such.
 */
const secretKey = process.env.PAYMONGO_TEST_SECRET_KEY;
const publicKey = process.env.PAYMONGO_TEST_PUBLIC_KEY;
const webhookSecret = process.env.PAYMONGO_TEST_WEBHOOK_SECRET ?? '';
const apiBaseUrl = process.env.PAYMONGO_API_BASE_URL ?? 'https://api.paymongo.com';

const numbers: Record<CardBehaviour, string> = {
  succeeds: '4343434343434345',
  declines: '4111111111111111',
  three_d_secure: '4120000000000007',
  refund_fails_later: '4343434343434345',
};

if (!secretKey?.startsWith('sk_test_') || !publicKey?.startsWith('pk_test_')) {
  describe('paymongo live', () => {
    it.skip('needs PAYMONGO_TEST_SECRET_KEY and PAYMONGO_TEST_PUBLIC_KEY (test-mode keys only)', () => {});
  });
} else {
  describeConformance('paymongo (live test mode)', () => {
    const connector = new PaymongoConnector({ secretKey, publicKey, webhookSecret, apiBaseUrl, timeoutMs: 20_000 });
    return {
      connector,
      currency: 'PHP',
      amountMinor: 10_000n,
      unsupported: ['three_d_secure', 'refund_fails_later'],
      async pay(card, key, amountMinor = 10_000n) {
        const created = await connector.createPayment(
          { amountMinor, currency: 'PHP', reference: key, returnUrl: 'https://example.com/return' },
          { idempotencyKey: key },
        );
        if (created.status !== 'requires_payment_method') return created;
        await browserPays(
          { url: apiBaseUrl, publicKey },
          { providerPaymentId: created.providerPaymentId, clientKey: created.clientKey! },
          { number: numbers[card], cvc: '123', ...CARD_EXP },
          'https://example.com/return',
        );
        return connector.syncPayment(created.providerPaymentId);
      },
      authenticate: async () => {
        throw new Error('3-D Secure needs a person on PayMongo’s page');
      },
      settleLater: () => new Promise((r) => setTimeout(r, 2000)),
      signedPaymentEvent(state: PaymentState & { providerPaymentId: string }, { eventId }) {
        const attributes =
          state.status === 'succeeded'
            ? { status: 'paid', payment_intent_id: state.providerPaymentId }
            : { status: 'failed', payment_intent_id: state.providerPaymentId, failed_code: 'generic_decline' };
        const id = state.status === 'succeeded' ? state.chargeId : 'pay_failed';
        const type = state.status === 'succeeded' ? 'payment.paid' : 'payment.failed';
        const t = Math.floor(Date.now() / 1000);
        const rawBody = JSON.stringify({
          data: { id: eventId, type: 'event', attributes: { type, livemode: false, data: { id, type: 'payment', attributes }, created_at: t } },
        });
        const sig = createHmac('sha256', webhookSecret).update(`${t}.${rawBody}`).digest('hex');
        return { rawBody, headers: new Headers({ 'paymongo-signature': `t=${t},te=${sig},li=` }) };
      },
    };
  });
}
