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

/** Every method the PayMongo connector declares: each runs the method journeys against the fake. */
const declaredMethods = new PaymongoConnector({
  secretKey: 's',
  publicKey: 'p',
  webhookSecret: 'w',
  apiBaseUrl: 'http://127.0.0.1:1',
}).capabilities.methods.map((m) => m.method);

/** What the customer does with a waiting method on the fake: scans the code, or answers the authorisation page; or lets it expire. */
async function customerActs(state: Extract<PaymentState, { status: 'requires_action' | 'awaiting_scan' }>, action: 'pay' | 'decline' | 'expire') {
  if (state.status === 'awaiting_scan') {
    if (action === 'expire') return fake.expireQr(state.providerPaymentId);
    return fake.scanQr(state.providerPaymentId, action === 'pay' ? 'pay' : 'fail');
  }
  if (action === 'expire') return fake.expireAuthorisation(state.providerPaymentId);
  const res = await fetch(`${state.redirectUrl}?answer=${action === 'pay' ? 'authorize' : 'decline'}`, { redirect: 'manual' });
  expect(res.status).toBe(302);
}

describeConformance(
  'paymongo (fake)',
  () => {
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
      methodActions: { act: customerActs },
      // The same customer, as the journeys of every declared method at once ask it. A code or an
      // authorisation page that no longer waits cannot be paid: the bank app refuses the code, the
      // page is gone (404), and PayMongo hears nothing.
      answerMethod: async (state, answer) => {
        if ((await connector.syncPayment(state.providerPaymentId)).status !== state.status) return;
        await customerActs(state, answer === 'approve' ? 'pay' : answer);
      },
    };
  },
  declaredMethods,
);

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

  it('a non-card method: the intent allows that method, the payment method carries its type, bank code, billing and QR life, the attach its return_url; each POST under its own key', async () => {
    const connector = connectorFor(fake);
    const before = fake.requests.length;
    const state = await connector.createPayment(
      {
        amountMinor: 50_000n,
        currency: 'PHP',
        reference: 'r-dob',
        returnUrl: 'http://paylink.test/checkout/t/return',
        method: 'dob',
        bank: 'bpi',
        billing: { name: 'Ana Reyes', email: 'ana@example.com', phone: '+639171234567' },
      },
      { idempotencyKey: 'idem-dob' },
    );
    expect(state).toMatchObject({ status: 'requires_action', redirectUrl: expect.stringContaining('/_test/authorize/') });
    expect(fake.requests.slice(before).map((r) => [r.path.replace(/pi_[a-f0-9]+/, 'pi_x'), r.idempotencyKey])).toEqual([
      ['/v1/payment_intents', 'idem-dob'],
      ['/v1/payment_methods', 'idem-dob:payment_method'],
      ['/v1/payment_intents/pi_x/attach', 'idem-dob:attach'],
    ]);
    // A bank the method does not reach is refused before any call.
    const count = fake.requests.length;
    expect(
      await connector.createPayment(
        { amountMinor: 50_000n, currency: 'PHP', reference: 'r', returnUrl: 'http://x', method: 'dob', bank: 'bdo' },
        { idempotencyKey: 'idem-dob-bdo' },
      ),
    ).toMatchObject({ status: 'declined', code: 'processing_error' });
    expect(fake.requests.length).toBe(count);
  });

  it('QR Ph: the code comes back awaiting its scan, expiring expiry_seconds (60–9000) after the attach; qrph.expired declines that intent as expired', async () => {
    const connector = connectorFor(fake);
    const t0 = Date.now();
    const state = await connector.createPayment(
      { amountMinor: 30_000n, currency: 'PHP', reference: 'r-qr', returnUrl: 'http://x', method: 'qrph', qrExpirySeconds: 600 },
      { idempotencyKey: 'idem-qr' },
    );
    if (state.status !== 'awaiting_scan') throw new Error(`expected awaiting_scan, got ${state.status}`);
    expect(state.qr.content).toMatch(/^data:image\/png;base64,/);
    expect(state.qr.expiresAt.getTime()).toBeGreaterThanOrEqual(Math.floor(t0 / 1000) * 1000 + 600_000);
    expect(state.qr.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 600_000);
    // Out of PayMongo's range: held to it.
    const long = await connector.createPayment(
      { amountMinor: 30_000n, currency: 'PHP', reference: 'r-qr2', returnUrl: 'http://x', method: 'qrph', qrExpirySeconds: 99_999 },
      { idempotencyKey: 'idem-qr2' },
    );
    expect(long.status === 'awaiting_scan' && long.qr.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(9000_000);
    const expired = fake.event('qrph.expired', { id: state.providerPaymentId, type: 'payment_intent', attributes: { status: 'awaiting_payment_method' } });
    expect(connector.parseWebhook({ ...expired, now: new Date() })).toMatchObject({
      kind: 'payment',
      payment: { status: 'declined', code: 'expired', method: 'qrph', providerPaymentId: state.providerPaymentId },
    });
    // The same event naming the intent by id inside another resource.
    const other = fake.event('qrph.expired', { id: 'qr_1', type: 'qrph', attributes: { payment_intent_id: state.providerPaymentId } });
    expect(connector.parseWebhook({ ...other, now: new Date() })).toMatchObject({ payment: { providerPaymentId: state.providerPaymentId, code: 'expired' } });
  });

  it('refunds: a UnionBank online-banking payment is refused before any call, naming the method and bank; a BPI one goes to PayMongo', async () => {
    const connector = connectorFor(fake);
    const count = fake.requests.length;
    const refused = await connector.refund(
      { chargeId: 'pay_x', amountMinor: 100n, currency: 'PHP', paymentAmountMinor: 10_000n, paidAt: new Date(), method: 'dob', bank: 'ubp' },
      { idempotencyKey: 'r-ubp' },
    );
    expect(refused).toEqual({
      status: 'failed',
      code: 'not_refundable',
      message: 'This acquirer cannot refund payments made by Online banking through UnionBank.',
    });
    const qr = await connector.refund(
      { chargeId: 'pay_x', amountMinor: 10_000n, currency: 'PHP', paymentAmountMinor: 10_000n, paidAt: new Date(), method: 'qrph' },
      { idempotencyKey: 'r-qr' },
    );
    expect(qr).toMatchObject({ status: 'failed', code: 'not_refundable', message: expect.stringContaining('QR Ph') });
    // GCash's 180 days, not a card's 60: a 100-day-old GCash payment is still refundable.
    expect(
      await connector.refund(
        {
          chargeId: 'pay_x',
          amountMinor: 100n,
          currency: 'PHP',
          paymentAmountMinor: 10_000n,
          paidAt: new Date(Date.now() - 100 * 86_400_000),
          method: 'gcash',
        },
        { idempotencyKey: 'r-gcash' },
      ),
    ).not.toMatchObject({ code: 'not_refundable' });
    expect(fake.requests.length).toBe(count + 1);
  });

  it('hosted checkout passes the allowed methods as Checkout Sessions spell them (dob_ubp, brankas_bdo, shopee_pay)', async () => {
    const connector = connectorFor(fake);
    const started = await connector.createHostedCheckout(
      {
        amountMinor: 50_000n,
        currency: 'PHP',
        reference: 'r-cs',
        returnUrl: 'http://x/return',
        cancelUrl: 'http://x',
        itemName: 'Tour',
        methods: ['card', 'qrph', 'gcash', 'shopeepay', 'dob', 'brankas', 'billease'],
      },
      { idempotencyKey: 'idem-cs' },
    );
    if ('status' in started) throw new Error(started.message);
    const session = await (await fetch(started.checkoutUrl)).text();
    expect(session).toContain('PayMongo checkout (test)');
    const sent = fake.checkoutSessionTypes(started.providerPaymentId);
    expect(sent).toEqual(['card', 'qrph', 'gcash', 'shopee_pay', 'dob', 'dob_ubp', 'brankas_bdo', 'brankas_landbank', 'brankas_metrobank', 'billease']);
  });

  it('a failed non-card payment without last_payment_error reads as declined from the intent’s payments; payment.paid names the method', async () => {
    const connector = connectorFor(fake);
    const state = await connector.createPayment(
      { amountMinor: 30_000n, currency: 'PHP', reference: 'r-gc', returnUrl: 'http://x', method: 'gcash' },
      { idempotencyKey: 'idem-gc-fail' },
    );
    if (state.status !== 'requires_action') throw new Error(state.status);
    await fetch(`${state.redirectUrl}?answer=decline`, { redirect: 'manual' });
    expect(await connector.syncPayment(state.providerPaymentId)).toMatchObject({ status: 'declined', code: 'cancelled', method: 'gcash' });
    const paid = await connector.createPayment(
      { amountMinor: 30_000n, currency: 'PHP', reference: 'r-gc2', returnUrl: 'http://x', method: 'gcash' },
      { idempotencyKey: 'idem-gc-pay' },
    );
    if (paid.status !== 'requires_action') throw new Error(paid.status);
    await fetch(`${paid.redirectUrl}?answer=authorize`, { redirect: 'manual' });
    const synced = await connector.syncPayment(paid.providerPaymentId);
    if (synced.status !== 'succeeded') throw new Error(synced.status);
    const event = fake.event('payment.paid', fake.paymentResource(synced.chargeId)!);
    expect(connector.parseWebhook({ ...event, now: new Date() })).toMatchObject({ payment: { status: 'succeeded', method: 'gcash' } });
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
