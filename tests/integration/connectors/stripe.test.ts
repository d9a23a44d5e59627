import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declineMessages } from '../../../src/acquirer/acquirer.ts';
import { amountAccepted, ConnectorUnavailableError, nextPaymentState, type PaymentState, WebhookVerificationError } from '../../../src/acquirer/connector.ts';
import { intentState, StripeConnector, setupState } from '../../../src/acquirer/stripe/connector.ts';
import { browserConfirms, browserConfirmsSetup, type FakeStripe, startFakeStripe } from '../../support/fakes/stripe.ts';
import { type CardBehaviour, describeConformance } from './conformance.ts';

/** The Stripe connector (the official `stripe` package) against the in-repo fake of Stripe's API (no network). */
let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe();
});
afterAll(() => fake.close());

const methods: Record<CardBehaviour, string> = {
  succeeds: 'pm_card_visa',
  declines: 'pm_card_chargeDeclined',
  three_d_secure: 'pm_card_threeDSecure2Required',
  refund_fails_later: 'pm_card_refundFail',
};

const returnUrl = 'http://paylink.test/return';

const connectorFor = (f: FakeStripe, overrides: Partial<ConstructorParameters<typeof StripeConnector>[0]> = {}) =>
  new StripeConnector({
    secretKey: f.secretKey,
    publicKey: f.publishableKey,
    webhookSecret: f.webhookSecret,
    apiBaseUrl: f.url,
    timeoutMs: 2000,
    ...overrides,
  });

/** The customer pays in the Payment Element: the browser confirms the intent with the client_secret. */
async function pays(connector: StripeConnector, method: string, key: string, opts: { amountMinor?: bigint; saveCard?: boolean } = {}) {
  const created = await connector.createPayment(
    { amountMinor: opts.amountMinor ?? 10_000n, currency: 'USD', reference: key, returnUrl, ...(opts.saveCard ? { saveCard: true } : {}) },
    { idempotencyKey: key },
  );
  if (created.status !== 'requires_payment_method') return created;
  // The same key again gives the same intent: confirm only what the customer has not paid yet.
  const now = await connector.syncPayment(created.providerPaymentId);
  if (now.status !== 'requires_payment_method') return now;
  await browserConfirms(fake, { providerPaymentId: created.providerPaymentId, clientKey: created.clientKey! }, method, returnUrl);
  return connector.syncPayment(created.providerPaymentId);
}

async function savedCard(connector: StripeConnector, method = 'pm_card_visa') {
  const state = await pays(connector, method, `save:${Math.random()}`, { saveCard: true });
  if (state.status !== 'succeeded') throw new Error(`saving the card paid ${state.status}`);
  const saved = await connector.savedCardOf(state.providerPaymentId);
  if (!saved) throw new Error('the payment saved no card');
  return saved;
}

describeConformance('stripe (fake)', () => {
  const connector = connectorFor(fake);
  return {
    connector,
    currency: 'USD',
    amountMinor: 10_000n,
    pay: (card, key, amountMinor) => pays(connector, methods[card], key, amountMinor === undefined ? {} : { amountMinor }),
    async authenticate(state, answer) {
      const res = await fetch(`${state.redirectUrl}?answer=${answer}`, { redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toContain(`payment_intent=${state.providerPaymentId}`);
    },
    // A card is saved as a registration saves it: the SetupIntent, confirmed in the browser.
    async saveCard() {
      const key = `save:${Math.random()}`;
      const started = await connector.createCardSetup({ reference: key, returnUrl }, { idempotencyKey: key });
      await browserConfirmsSetup(fake, started, 'pm_card_visa', returnUrl);
      const state = await connector.syncCardSetup(started.setupId);
      if (state.status !== 'succeeded') throw new Error(`saving the card: the setup is ${state.status}`);
      return { token: state.token, customer: state.customer };
    },
    async confirmCardSetup(started, card) {
      await browserConfirmsSetup(fake, started, card === 'succeeds' ? 'pm_card_visa' : 'pm_card_chargeDeclined', returnUrl);
    },
    reportUnknownSetupStatus: async (id) => fake.setSetupStatus(id, 'some_status_added_later'),
    settleLater: () => fake.settle(),
    signedPaymentEvent(state: PaymentState & { providerPaymentId: string }, { eventId }) {
      const intent = fake.intent(state.providerPaymentId)!;
      if (state.status === 'succeeded') return fake.event('payment_intent.succeeded', intent, { eventId });
      return fake.event(
        'payment_intent.payment_failed',
        {
          ...intent,
          status: 'requires_payment_method',
          latest_charge: null,
          last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
        },
        { eventId },
      );
    },
    reportUnknownStatus: async (id) => fake.setIntentStatus(id, 'some_status_added_later'),
  };
});

describe('stripe connector › the provider HTTP API', () => {
  it('sends an Idempotency-Key with every POST, the secret key as a Bearer token, and never retries by itself', async () => {
    const connector = connectorFor(fake);
    const before = fake.requests.length;
    const state = await pays(connector, 'pm_card_visa', 'idem-1', { saveCard: true });
    expect(state.status).toBe('succeeded');
    if (state.status !== 'succeeded') return;
    await connector.refund(
      { chargeId: state.chargeId, amountMinor: 100n, currency: 'USD', paymentAmountMinor: 10_000n, paidAt: new Date() },
      { idempotencyKey: 'idem-refund' },
    );
    const saved = await connector.savedCardOf(state.providerPaymentId);
    await connector.chargeSavedCard({ ...saved!, amountMinor: 500n, currency: 'USD', reference: 'r' }, { idempotencyKey: 'idem-off' });
    // The browser's confirm (publishable key) is not ours; every POST paylink's server makes carries a key.
    const server = fake.requests.slice(before).filter((r) => r.method === 'POST' && !r.path.endsWith('/confirm'));
    expect(server.map((r) => r.path)).toEqual(['/v1/customers', '/v1/payment_intents', '/v1/refunds', '/v1/payment_intents']);
    expect(server.map((r) => r.idempotencyKey)).toEqual(['idem-1:customer', 'idem-1', 'idem-refund', 'idem-off']);
    // A key longer than Stripe keeps is hashed, the same way every time.
    const long = 'k'.repeat(300);
    const first = await connector.createPayment({ amountMinor: 100n, currency: 'USD', reference: 'long', returnUrl }, { idempotencyKey: long });
    const again = await connector.createPayment({ amountMinor: 100n, currency: 'USD', reference: 'long', returnUrl }, { idempotencyKey: long });
    expect(again.providerPaymentId).toBe(first.providerPaymentId);
    expect(fake.requests.at(-1)?.idempotencyKey).toMatch(/^sha256:[a-f0-9]{64}$/);
  });

  it('never takes a card number on the server', async () => {
    const connector = connectorFor(fake);
    await expect(
      connector.createPayment(
        { amountMinor: 2000n, currency: 'USD', reference: 'r', returnUrl, card: { number: '4242424242424242', expMonth: 12, expYear: 2034 } },
        { idempotencyKey: 'c' },
      ),
    ).rejects.toThrow(/never to paylink/);
  });

  it('a 5xx or no answer is "unavailable" (retry under the same key), not a decline; a refused key is not', async () => {
    const connector = connectorFor(fake);
    fake.failNext(1);
    await expect(connector.createPayment({ amountMinor: 2000n, currency: 'USD', reference: 'r', returnUrl }, { idempotencyKey: 'u1' })).rejects.toThrow(
      ConnectorUnavailableError,
    );
    // The same key after the outage creates the intent once.
    const created = await connector.createPayment({ amountMinor: 2000n, currency: 'USD', reference: 'r', returnUrl }, { idempotencyKey: 'u1' });
    expect(created.status).toBe('requires_payment_method');
    const closed = connectorFor(fake, { apiBaseUrl: 'http://127.0.0.1:1', timeoutMs: 500 });
    await expect(closed.syncPayment('pi_1')).rejects.toThrow(ConnectorUnavailableError);
    const wrongKey = connectorFor(fake, { secretKey: 'sk_test_wrong' });
    await expect(wrongKey.syncPayment(created.providerPaymentId!)).rejects.toThrow(/API keys were refused/);
    await expect(wrongKey.syncPayment(created.providerPaymentId!)).rejects.not.toThrow(ConnectorUnavailableError);
  });

  it("knows Stripe's minimum charge amounts, and Stripe refuses below them", async () => {
    const connector = connectorFor(fake);
    const caps = connector.capabilities;
    expect(amountAccepted(caps, 50n, 'USD')).toEqual({ ok: true });
    expect(amountAccepted(caps, 49n, 'USD')).toEqual({ ok: false, reason: 'minimum', minimumMinor: 50n });
    expect(amountAccepted(caps, 29n, 'GBP')).toMatchObject({ ok: false, reason: 'minimum' });
    expect(amountAccepted(caps, 50n, 'JPY')).toEqual({ ok: true });
    expect(amountAccepted(caps, 10_000n, 'XTS')).toEqual({ ok: false, reason: 'currency' });
    await expect(connector.createPayment({ amountMinor: 49n, currency: 'USD', reference: 'r', returnUrl }, { idempotencyKey: 'm1' })).rejects.toThrow(
      /amount_too_small/,
    );
  });

  it('declines read in plain words: insufficient funds, expired card, a failed 3-D Secure', async () => {
    const connector = connectorFor(fake);
    expect(await pays(connector, 'pm_card_chargeDeclinedInsufficientFunds', `d1:${Math.random()}`)).toMatchObject({
      status: 'declined',
      code: 'insufficient_funds',
    });
    expect(await pays(connector, 'pm_card_chargeDeclinedExpiredCard', `d2:${Math.random()}`)).toMatchObject({ status: 'declined', code: 'expired_card' });
    expect(await pays(connector, 'pm_card_chargeDeclinedIncorrectCvc', `d3:${Math.random()}`)).toMatchObject({ status: 'declined', code: 'incorrect_cvc' });
  });

  it('off-session: a card the bank wants authenticated is declined with a call to bring the customer back; never success', async () => {
    const connector = connectorFor(fake);
    // Saved after 3-D Secure on-session: the first payment needs the customer, the later ones the bank still wants confirmed.
    const created = await connector.createPayment(
      { amountMinor: 10_000n, currency: 'USD', reference: 'sca', returnUrl, saveCard: true },
      { idempotencyKey: `sca:${Math.random()}` },
    );
    if (created.status !== 'requires_payment_method') throw new Error(created.status);
    await browserConfirms(fake, { providerPaymentId: created.providerPaymentId, clientKey: created.clientKey! }, 'pm_card_authenticationRequired', returnUrl);
    const action = await connector.syncPayment(created.providerPaymentId);
    if (action.status !== 'requires_action') throw new Error(action.status);
    await fetch(`${action.redirectUrl}?answer=approve`, { redirect: 'manual' });
    for (let i = 0; i < 3 && (await connector.syncPayment(created.providerPaymentId)).status === 'processing'; i++);
    const saved = await connector.savedCardOf(created.providerPaymentId);
    expect(saved).toMatchObject({ token: expect.stringMatching(/^pm_/), customer: expect.stringMatching(/^cus_/) });
    const key = `off-sca:${Math.random()}`;
    const state = await connector.chargeSavedCard({ ...saved!, amountMinor: 2500n, currency: 'USD', reference: 'schedule' }, { idempotencyKey: key });
    expect(state).toMatchObject({
      status: 'declined',
      code: 'card_declined',
      customerAction: 'authenticate',
      providerPaymentId: expect.stringMatching(/^pi_/),
    });
    // The same key answers the same decline: the schedule never charges twice.
    expect(await connector.chargeSavedCard({ ...saved!, amountMinor: 2500n, currency: 'USD', reference: 'schedule' }, { idempotencyKey: key })).toEqual(state);
    // A schedule that kept only the payment method: its customer is read from Stripe.
    const other = await savedCard(connector);
    expect(
      await connector.chargeSavedCard({ token: other.token, amountMinor: 2500n, currency: 'USD', reference: 's' }, { idempotencyKey: `nc:${Math.random()}` }),
    ).toMatchObject({ status: 'succeeded' });
    // A card that is not (or no longer) the customer's is a final answer for the schedule, not something to retry.
    for (const request of [
      { token: saved!.token, customer: other.customer },
      { token: 'pm_0123456789abcdef01234567', customer: other.customer },
      { token: 'pm_0123456789abcdef01234567' },
    ]) {
      expect(
        await connector.chargeSavedCard({ ...request, amountMinor: 2500n, currency: 'USD', reference: 's' }, { idempotencyKey: `oc:${Math.random()}` }),
      ).toMatchObject({ status: 'declined', code: 'unknown_token' });
    }
  });

  it('maps every SetupIntent status: succeeded only with the card and its customer, anything unknown to pending', () => {
    const base = { id: 'seti_1', object: 'setup_intent' as const, client_secret: 'seti_1_secret_x', customer: 'cus_1' };
    const method = {
      id: 'pm_1',
      object: 'payment_method' as const,
      customer: 'cus_1',
      card: { brand: 'Visa', last4: '4242', exp_month: 12, exp_year: 2034, fingerprint: 'fp1' },
    };
    expect(setupState({ ...base, status: 'requires_payment_method' })).toEqual({ status: 'pending', setupId: 'seti_1', clientSecret: 'seti_1_secret_x' });
    expect(
      setupState({ ...base, status: 'requires_payment_method', last_setup_error: { type: 'card_error', code: 'card_declined', decline_code: 'expired_card' } }),
    ).toMatchObject({ status: 'failed', code: 'expired_card', message: declineMessages.expired_card, final: false });
    expect(setupState({ ...base, status: 'requires_action' })).toMatchObject({ status: 'requires_action' });
    expect(setupState({ ...base, status: 'requires_confirmation' })).toMatchObject({ status: 'requires_action' });
    expect(setupState({ ...base, status: 'processing' })).toMatchObject({ status: 'pending' });
    expect(setupState({ ...base, status: 'canceled' })).toMatchObject({ status: 'failed', code: 'card_declined', final: true });
    expect(setupState({ ...base, status: 'some_status_added_later', payment_method: method })).toMatchObject({ status: 'pending' });
    expect(setupState({ ...base, status: 'succeeded', payment_method: method })).toEqual({
      status: 'succeeded',
      setupId: 'seti_1',
      clientSecret: 'seti_1_secret_x',
      token: 'pm_1',
      customer: 'cus_1',
      brand: 'visa',
      last4: '4242',
      expMonth: 12,
      expYear: 2034,
      fingerprint: 'fp1',
    });
    // Succeeded without the expanded card (an event) or without a customer is not something to record yet.
    expect(setupState({ ...base, status: 'succeeded', payment_method: 'pm_1' })).toMatchObject({ status: 'pending' });
    expect(setupState({ ...base, customer: null, status: 'succeeded', payment_method: { ...method, customer: null } })).toMatchObject({ status: 'pending' });
  });

  it('card setup: a customer and a SetupIntent for off-session use, each under its own Idempotency-Key; setup_intent events read as card_setup', async () => {
    const connector = connectorFor(fake);
    const before = fake.requests.length;
    const started = await connector.createCardSetup(
      { reference: 'reg-1', customerName: 'Ana Reyes', customerEmail: 'ana@example.com', returnUrl },
      { idempotencyKey: 'card-setup:reg-1' },
    );
    expect(fake.requests.slice(before).map((r) => [r.method, r.path, r.idempotencyKey])).toEqual([
      ['POST', '/v1/customers', 'card-setup:reg-1:customer'],
      ['POST', '/v1/setup_intents', 'card-setup:reg-1'],
    ]);
    expect(fake.customer(started.customer)).toEqual({ name: 'Ana Reyes', email: 'ana@example.com', metadata: { paylink_registration: 'reg-1' } });
    expect(fake.setupIntent(started.setupId)).toMatchObject({ usage: 'off_session', customer: started.customer, metadata: { paylink_return_url: returnUrl } });
    const now = new Date();
    const pending = fake.event('setup_intent.created', fake.setupIntent(started.setupId)!, { eventId: 'evt_seti_created' });
    expect(connector.parseWebhook({ ...pending, now })).toMatchObject({
      kind: 'card_setup',
      eventId: 'evt_seti_created',
      setupId: started.setupId,
      status: 'pending',
    });
    await browserConfirmsSetup(fake, started, 'pm_card_visa', returnUrl);
    const succeeded = fake.event('setup_intent.succeeded', fake.setupIntent(started.setupId)!, { eventId: 'evt_seti_ok' });
    // The event's payment method is not expanded: it says succeeded, and paylink reads the card with a sync.
    expect(connector.parseWebhook({ ...succeeded, now })).toMatchObject({ kind: 'card_setup', setupId: started.setupId, status: 'succeeded' });
    expect(await connector.syncCardSetup(started.setupId)).toMatchObject({ status: 'succeeded', customer: started.customer, brand: 'visa', last4: '4242' });
    const forged = { rawBody: succeeded.rawBody.replace('evt_seti_ok', 'evt_seti_forged'), headers: succeeded.headers };
    expect(() => connector.parseWebhook({ ...forged, now })).toThrow(WebhookVerificationError);
    // Stripe unreachable while the setup is made: no answer (retry under the same key), never a saved card.
    fake.failNext(1);
    await expect(connector.createCardSetup({ reference: 'reg-2', returnUrl }, { idempotencyKey: 'card-setup:reg-2' })).rejects.toThrow(
      ConnectorUnavailableError,
    );
  });

  it('maps every PaymentIntent status, and anything unknown to processing', () => {
    const base = { id: 'pi_1', object: 'payment_intent' as const, client_secret: 'pi_1_secret_x' };
    expect(intentState({ ...base, status: 'requires_payment_method' })).toEqual({
      status: 'requires_payment_method',
      providerPaymentId: 'pi_1',
      clientKey: 'pi_1_secret_x',
    });
    expect(
      intentState({ ...base, status: 'requires_payment_method', last_payment_error: { code: 'card_declined', decline_code: 'insufficient_funds' } }),
    ).toMatchObject({ status: 'declined', code: 'insufficient_funds' });
    expect(
      intentState({ ...base, status: 'requires_action', next_action: { type: 'redirect_to_url', redirect_to_url: { url: 'https://hooks.example/3ds' } } }),
    ).toEqual({ status: 'requires_action', providerPaymentId: 'pi_1', redirectUrl: 'https://hooks.example/3ds' });
    // use_stripe_sdk: the Element finishes the step on paylink's return page.
    expect(
      intentState({ ...base, status: 'requires_action', next_action: { type: 'use_stripe_sdk' }, metadata: { paylink_return_url: 'https://pay.example/r' } }),
    ).toMatchObject({ status: 'requires_action', redirectUrl: 'https://pay.example/r' });
    expect(intentState({ ...base, status: 'requires_confirmation', metadata: { paylink_return_url: 'https://pay.example/r' } })).toMatchObject({
      status: 'requires_action',
    });
    expect(intentState({ ...base, status: 'requires_action' })).toMatchObject({ status: 'processing' });
    expect(intentState({ ...base, status: 'processing' })).toMatchObject({ status: 'processing' });
    expect(intentState({ ...base, status: 'requires_capture' })).toMatchObject({ status: 'processing' });
    expect(intentState({ ...base, status: 'succeeded', latest_charge: 'ch_1' })).toMatchObject({ status: 'succeeded', chargeId: 'ch_1' });
    expect(intentState({ ...base, status: 'succeeded', latest_charge: null })).toMatchObject({ status: 'processing' });
    expect(intentState({ ...base, status: 'canceled' })).toMatchObject({ status: 'declined' });
    expect(intentState({ ...base, status: 'something_new' })).toMatchObject({ status: 'processing' });
  });

  it('refund events: charge.refund.updated and refund.updated settle a pending refund, a failed one says why', async () => {
    const connector = connectorFor(fake);
    const paid = await pays(connector, 'pm_card_refundFail', `rf:${Math.random()}`);
    if (paid.status !== 'succeeded') throw new Error(paid.status);
    const pending = await connector.refund(
      { chargeId: paid.chargeId, amountMinor: 10_000n, currency: 'USD', paymentAmountMinor: 10_000n, paidAt: new Date() },
      { idempotencyKey: `rf-refund:${Math.random()}` },
    );
    if (pending.status !== 'pending') throw new Error(pending.status);
    const now = new Date();
    const created = connector.parseWebhook({ ...fake.event('refund.created', fake.refund(pending.refundId)!, { eventId: 'evt_rc' }), now });
    expect(created).toMatchObject({ kind: 'refund', refund: { status: 'pending', refundId: pending.refundId } });
    await fake.settle();
    const failed = connector.parseWebhook({ ...fake.event('charge.refund.updated', fake.refund(pending.refundId)!, { eventId: 'evt_rf' }), now });
    expect(failed).toMatchObject({
      kind: 'refund',
      eventId: 'evt_rf',
      refund: { status: 'failed', code: 'expired_or_canceled_card', refundId: pending.refundId },
    });
    const again = connector.parseWebhook({ ...fake.event('refund.updated', fake.refund(pending.refundId)!, { eventId: 'evt_ru' }), now });
    expect(again).toMatchObject({ kind: 'refund', refund: { status: 'failed' } });
    expect(connector.parseWebhook({ ...fake.event('customer.created', { id: 'cus_1', object: 'customer' }, { eventId: 'evt_c' }), now })).toEqual({
      kind: 'ignored',
      eventId: 'evt_c',
      occurredAt: expect.any(Date),
      type: 'customer.created',
    });
  });

  it('webhooks out of order: a late payment_intent.processing after succeeded changes nothing', async () => {
    const connector = connectorFor(fake);
    const paid = await pays(connector, 'pm_card_visa', `ooo:${Math.random()}`);
    if (paid.status !== 'succeeded') throw new Error(paid.status);
    const now = new Date();
    const intent = fake.intent(paid.providerPaymentId)!;
    const late = connector.parseWebhook({ ...fake.event('payment_intent.processing', { ...intent, status: 'processing', latest_charge: null }), now });
    if (late.kind !== 'payment') throw new Error(late.kind);
    expect(late.payment.status).toBe('processing');
    expect(nextPaymentState('succeeded', late.payment)).toBeUndefined();
  });

  it('bad signatures are refused: another secret, a stale timestamp, a v0-only header, a body changed after signing', () => {
    const connector = connectorFor(fake);
    const now = new Date();
    const { rawBody, headers } = fake.event('payment_intent.succeeded', { id: 'pi_x', object: 'payment_intent', status: 'succeeded', latest_charge: 'ch_x' });
    expect(connector.parseWebhook({ rawBody, headers, now })).toMatchObject({ kind: 'payment', payment: { status: 'succeeded', chargeId: 'ch_x' } });
    const t = Math.floor(now.getTime() / 1000);
    const refused = (header: string, body = rawBody, at = now) =>
      expect(() => connector.parseWebhook({ rawBody: body, headers: new Headers({ 'stripe-signature': header }), now: at })).toThrow(WebhookVerificationError);
    refused(fake.sign(rawBody, t, 'whsec_another'));
    refused(fake.sign(rawBody, t - 301));
    // The same signature, received more than five minutes after it was made.
    refused(fake.sign(rawBody, t), rawBody, new Date(now.getTime() + 301_000));
    refused(fake.sign(rawBody, t).replace('v1=', 'v0='));
    refused(fake.sign(rawBody, t), rawBody.replace('ch_x', 'ch_y'));
    refused('garbage');
    expect(() => connector.parseWebhook({ rawBody, headers: new Headers(), now })).toThrow(/no Stripe-Signature/);
    // Signed but not an event: refused too.
    const notEvent = JSON.stringify({ hello: 'world' });
    refused(fake.sign(notEvent, t), notEvent);
  });
});

describe('stripe connector › the wallets the account turns on (Apple Pay, Google Pay, Link)', () => {
  it("asks for cards and Link as allowed types, never the payment_method_types Stripe's API version no longer takes; cards only when the card is kept", async () => {
    const connector = connectorFor(fake);
    const paid = await connector.createPayment({ amountMinor: 2000n, currency: 'USD', reference: 'w1', returnUrl }, { idempotencyKey: `w1:${Math.random()}` });
    // The account turns on card, Link, Klarna and US bank accounts; the intent keeps the two paylink records as card payments.
    expect(fake.intent(paid.providerPaymentId!)).toMatchObject({ allowed_payment_method_types: ['card', 'link'], payment_method_types: ['card', 'link'] });
    const saving = await connector.createPayment(
      { amountMinor: 2000n, currency: 'USD', reference: 'w2', returnUrl, saveCard: true },
      { idempotencyKey: `w2:${Math.random()}` },
    );
    expect(fake.intent(saving.providerPaymentId!)).toMatchObject({ allowed_payment_method_types: ['card'], payment_method_types: ['card'] });
    const setup = await connector.createCardSetup({ reference: 'w3', returnUrl }, { idempotencyKey: `w3:${Math.random()}` });
    expect(setup.setupId).toMatch(/^seti_/);
    // The fake answers the old parameter as Stripe documents for this API version.
    const old = await fetch(`${fake.url}/v1/payment_intents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'amount=2000&currency=usd&payment_method_types[0]=card',
    });
    expect(((await old.json()) as { error: { code: string } }).error.code).toBe('payment_method_types_no_longer_supported');
  });

  it('an account without Link: the intent offers cards alone (Stripe drops what the account does not take, it does not refuse)', async () => {
    const connector = connectorFor(fake);
    fake.setAccountMethods(['card']);
    try {
      const created = await connector.createPayment(
        { amountMinor: 2000n, currency: 'USD', reference: 'w4', returnUrl },
        { idempotencyKey: `w4:${Math.random()}` },
      );
      expect(created.status).toBe('requires_payment_method');
      expect(fake.intent(created.providerPaymentId!)).toMatchObject({ payment_method_types: ['card'] });
      const link = await browserConfirms(
        fake,
        { providerPaymentId: created.providerPaymentId!, clientKey: (created as { clientKey: string }).clientKey },
        'pm_fake_link',
        returnUrl,
      );
      expect(link.status).toBe(400);
      expect(await connector.syncPayment(created.providerPaymentId!)).toMatchObject({ status: 'requires_payment_method' });
    } finally {
      fake.setAccountMethods(['card', 'link', 'klarna', 'us_bank_account']);
    }
  });

  it('a payment by Apple Pay, Google Pay or Link is a card payment that says which wallet, by sync and by webhook', async () => {
    const connector = connectorFor(fake);
    const now = new Date();
    for (const [method, wallet, card] of [
      ['pm_fake_applePay', 'apple_pay', { brand: 'visa', last4: '4242' }],
      ['pm_fake_googlePay', 'google_pay', { brand: 'mastercard', last4: '4444' }],
      ['pm_fake_link', 'link', {}],
    ] as const) {
      const state = await pays(connector, method, `wallet:${method}:${Math.random()}`);
      expect(state).toMatchObject({ status: 'succeeded', method: 'card', wallet, ...card });
      // An event's charge is not expanded: the webhook says succeeded, and the wallet is read by the sync that records it.
      const event = connector.parseWebhook({ ...fake.event('payment_intent.succeeded', fake.intent(state.providerPaymentId!)!), now });
      expect(event).toMatchObject({ kind: 'payment', payment: { status: 'succeeded', method: 'card' } });
    }
    // charge.succeeded names the card and the wallet: when it arrives first, the payment is recorded with them.
    const google = await pays(connector, 'pm_fake_googlePay', `charge-event:${Math.random()}`);
    if (google.status !== 'succeeded') throw new Error(google.status);
    const chargeEvent = connector.parseWebhook({ ...fake.event('charge.succeeded', fake.charge(google.chargeId)!, { eventId: 'evt_ch_ok' }), now });
    expect(chargeEvent).toEqual({
      kind: 'payment',
      eventId: 'evt_ch_ok',
      occurredAt: expect.any(Date),
      payment: {
        status: 'succeeded',
        providerPaymentId: google.providerPaymentId,
        chargeId: google.chargeId,
        method: 'card',
        brand: 'mastercard',
        last4: '4444',
        expMonth: 12,
        expYear: 2034,
        wallet: 'google_pay',
      },
    });
    // A charge that did not succeed, or names no PaymentIntent, is not a payment paylink records from it.
    for (const [type, charge] of [
      ['charge.succeeded', { ...fake.charge(google.chargeId)!, status: 'failed' }],
      ['charge.succeeded', { ...fake.charge(google.chargeId)!, payment_intent: null }],
      ['charge.failed', fake.charge(google.chargeId)!],
    ] as const) {
      expect(connector.parseWebhook({ ...fake.event(type, charge), now })).toMatchObject({ kind: 'ignored', type });
    }
    // A card typed in has no wallet.
    const typed = await pays(connector, 'pm_card_visa', `typed:${Math.random()}`);
    expect(typed).toMatchObject({ status: 'succeeded', method: 'card', brand: 'visa' });
    expect(typed).not.toHaveProperty('wallet');
  });

  it('reads the wallet Stripe names on the charge; a wallet it adds later is still a card payment, with no wallet', () => {
    const charge = (details: Record<string, unknown>) => ({
      id: 'pi_1',
      object: 'payment_intent' as const,
      status: 'succeeded',
      latest_charge: { id: 'ch_1', object: 'charge' as const, payment_method_details: details },
    });
    expect(intentState(charge({ type: 'card', card: { brand: 'visa', last4: '1', wallet: { type: 'apple_pay' } } }))).toMatchObject({ wallet: 'apple_pay' });
    expect(intentState(charge({ type: 'card', card: { brand: 'visa', last4: '1', wallet: { type: 'google_pay' } } }))).toMatchObject({ wallet: 'google_pay' });
    expect(intentState(charge({ type: 'card', card: { brand: 'visa', last4: '1', wallet: { type: 'link' } } }))).toMatchObject({ wallet: 'link' });
    expect(intentState(charge({ type: 'link', link: { country: 'PH' } }))).toMatchObject({ status: 'succeeded', method: 'card', wallet: 'link' });
    for (const unknown of [
      { type: 'card', card: { wallet: { type: 'wallet_of_tomorrow' } } },
      { type: 'card', card: { wallet: { type: 'toString' } } },
    ]) {
      const state = intentState(charge(unknown));
      expect(state).toMatchObject({ status: 'succeeded', method: 'card' });
      expect(state).not.toHaveProperty('wallet');
    }
    // Declines are card declines too.
    expect(
      intentState({ id: 'pi_2', object: 'payment_intent', status: 'requires_payment_method', last_payment_error: { code: 'card_declined' } }),
    ).toMatchObject({ status: 'declined', method: 'card' });
    expect(intentState({ id: 'pi_3', object: 'payment_intent', status: 'canceled' })).toMatchObject({ status: 'declined', method: 'card' });
  });

  it('declares one method, the card, refunded in part or in full without a window of its own', () => {
    expect(connectorFor(fake).capabilities.methods).toEqual([{ method: 'card', refunds: { refundable: true, partial: true, windowDays: null }, requires: [] }]);
  });
});
