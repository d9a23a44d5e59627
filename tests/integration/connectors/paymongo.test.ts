import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectorUnavailableError, type PaymentState } from '../../../src/acquirer/connector.ts';
import { PaymongoConnector } from '../../../src/acquirer/paymongo/connector.ts';
import { CARD_EXP } from '../../support/cards.ts';
import { browserPays, type FakePaymongo, startFakePaymongo } from '../../support/fakes/paymongo.ts';
import { type CardBehaviour, describeConformance } from './conformance.ts';

/** The PayMongo connector against the in-repo fake of PayMongo's API (no network). */
let fake: FakePaymongo;
beforeAll(async () => {
  fake = await startFakePaymongo();
});
afterAll(() => fake.close());

const numbers: Record<CardBehaviour, string> = {
  succeeds: '4343434343434345',
  declines: '4111111111111111',
  three_d_secure: '4120000000000007',
  refund_fails_later: '5555444444444457',
};

const connectorFor = (f: FakePaymongo) =>
  new PaymongoConnector({ secretKey: f.secretKey, publicKey: f.publicKey, webhookSecret: f.webhookSecret, apiBaseUrl: f.url, timeoutMs: 2000 });

describeConformance('paymongo (fake)', () => {
  const connector = connectorFor(fake);
  return {
    connector,
    currency: 'PHP',
    amountMinor: 10_000n,
    async pay(card, key, amountMinor = 10_000n) {
      const created = await connector.createPayment(
        { amountMinor, currency: 'PHP', reference: key, returnUrl: 'http://paylink.test/return' },
        { idempotencyKey: key },
      );
      if (created.status !== 'requires_payment_method') return created;
      await browserPays(
        fake,
        { providerPaymentId: created.providerPaymentId, clientKey: created.clientKey! },
        { number: numbers[card], cvc: '123', ...CARD_EXP },
        'http://paylink.test/return',
      );
      return connector.syncPayment(created.providerPaymentId);
    },
    async authenticate(state, answer) {
      const res = await fetch(`${state.redirectUrl}?answer=${answer}`, { redirect: 'manual' });
      expect(res.status).toBe(302);
    },
    settleLater: () => fake.settle(),
    signedPaymentEvent(state: PaymentState & { providerPaymentId: string }, { eventId }) {
      if (state.status === 'succeeded') return fake.event('payment.paid', fake.paymentResource(state.chargeId)!, { eventId });
      return fake.event(
        'payment.failed',
        {
          id: 'pay_failed',
          type: 'payment',
          attributes: { status: 'failed', payment_intent_id: state.providerPaymentId, failed_code: 'generic_decline', amount: 10_000 },
        },
        { eventId },
      );
    },
    reportUnknownStatus: async (id) => fake.setIntentStatus(id, 'some_status_added_later'),
  };
});

describe('paymongo connector › the provider HTTP API', () => {
  it('sends an Idempotency-Key with every POST and the amount in centavos', async () => {
    const connector = connectorFor(fake);
    const before = fake.requests.length;
    await connector.createPayment({ amountMinor: 2000n, currency: 'PHP', reference: 'r1', returnUrl: 'http://paylink.test/r' }, { idempotencyKey: 'idem-1' });
    expect(fake.requests.slice(before)).toEqual([{ method: 'POST', path: '/v1/payment_intents', idempotencyKey: 'idem-1' }]);
  });

  it('never takes a card number on the server', async () => {
    const connector = connectorFor(fake);
    await expect(
      connector.createPayment(
        { amountMinor: 2000n, currency: 'PHP', reference: 'r', returnUrl: 'http://x', card: { number: '4343434343434345', ...CARD_EXP } },
        { idempotencyKey: 'c' },
      ),
    ).rejects.toThrow(/never to paylink/);
  });

  it('a 5xx or no answer is "unavailable" (retry under the same key), not a decline', async () => {
    const connector = connectorFor(fake);
    fake.failNext(1);
    await expect(
      connector.createPayment({ amountMinor: 2000n, currency: 'PHP', reference: 'r', returnUrl: 'http://x' }, { idempotencyKey: 'u1' }),
    ).rejects.toThrow(ConnectorUnavailableError);
    const closed = new PaymongoConnector({ secretKey: 'sk', publicKey: 'pk', webhookSecret: 'w', apiBaseUrl: 'http://127.0.0.1:1', timeoutMs: 500 });
    await expect(closed.syncPayment('pi_1')).rejects.toThrow(ConnectorUnavailableError);
  });

  it("PayMongo's refusal to create the intent (HTTP 400, e.g. under PHP 20.00) is a returned refusal with no payment, not a thrown error", async () => {
    const connector = connectorFor(fake);
    const state = await connector.createPayment({ amountMinor: 1999n, currency: 'PHP', reference: 'r', returnUrl: 'http://x' }, { idempotencyKey: 'm1' });
    expect(state).toEqual({
      status: 'declined',
      code: 'processing_error',
      message: 'The payment provider did not accept this payment. (parameter_below_minimum)',
    });
  });

  it('a webhook signed with another secret, or in live mode without a live signature, is refused', () => {
    const connector = connectorFor(fake);
    const { rawBody } = fake.event('payment.paid', { id: 'pay_x', type: 'payment', attributes: { status: 'paid', payment_intent_id: 'pi_x' } });
    const t = Math.floor(Date.now() / 1000);
    const other = new PaymongoConnector({ secretKey: 's', publicKey: 'p', webhookSecret: 'another', apiBaseUrl: fake.url });
    expect(() => other.parseWebhook({ rawBody, headers: new Headers({ 'paymongo-signature': fake.sign(rawBody, t) }), now: new Date() })).toThrow(
      /does not match/,
    );
    const live = rawBody.replace('"livemode":false', '"livemode":true');
    expect(() => connector.parseWebhook({ rawBody: live, headers: new Headers({ 'paymongo-signature': fake.sign(live, t) }), now: new Date() })).toThrow(
      /does not match/,
    );
  });
});
