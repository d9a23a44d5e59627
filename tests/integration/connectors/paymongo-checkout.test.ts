import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions, integrators, outboxEvents, payments, providerWebhookEvents, refunds } from '../../../src/db/schema.ts';
import { payCheckout } from '../../../src/domain/checkout/pay.ts';
import { reconcileProviderPayments } from '../../../src/domain/checkout/provider-pay.ts';
import { findIntegratorByToken } from '../../../src/domain/integrators/service.ts';
import { recoverPendingRefunds, settleProviderRefund } from '../../../src/domain/refunds/recovery.ts';
import { refundPayment } from '../../../src/domain/refunds/service.ts';
import { t as tr } from '../../../src/i18n/index.ts';
import { call, TEST_TOKEN, type TestApp } from '../../support/app.ts';
import { CARD_EXP, CARD_EXPIRY } from '../../support/cards.ts';
import { CHECKOUT_JS_BUDGET, measurePageScripts } from '../../support/checkout-weight.ts';
import { browserPays, type FakePaymongo } from '../../support/fakes/paymongo.ts';
import { useProviderApp } from '../../support/provider-app.ts';
import { scheduleData, signSchedule } from '../../support/schedules.ts';

/**
 * A merchant on PayMongo, end to end on the server against the fake PayMongo: checkout without
 * the card number reaching paylink, 3-D Secure and the return page, webhooks (verified,
 * duplicate, forged), reconciliation when no webhook comes, and refunds through the connector.
 */
let t: TestApp;
let fake: FakePaymongo;
let server: { url: string; close(): Promise<void> };
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);
let webhookPath = '';

const customer = { 'customer.first_name': 'Juan', 'customer.last_name': 'Dela Cruz', 'customer.contact.email': 'juan@example.com' };
const CARDS = { good: '4343434343434345', threeDs: '4120000000000007', declined: '4111111111111111', refundFailsLater: '5555444444444457' };

const provider = useProviderApp('paymongo', { integrator: 0, now: clock });
beforeAll(() => {
  ({ fake, t, server, webhookPath } = provider);
});

async function dynamicLink() {
  const res = await call(server.url, 'POST', '/pay/acme-books', { token: null, body: { key: TEST_TOKEN } });
  expect(res.status, res.text).toBe(200);
  return new URL(res.json.link).pathname.split('/')[2]!;
}

/** The island's first step: our server creates the PayMongo payment intent. */
async function start(token: string) {
  const res = await call(server.url, 'POST', `/checkout/${token}/provider`, { token: null, body: { fields: customer } });
  expect(res.status, res.text).toBe(200);
  return res.json.data as { provider_payment_id: string; client_key: string; public_key: string; api_base_url: string; return_url: string };
}

/** The island's second step, in the browser: the card goes to PayMongo with the public key. */
const browser = (started: Awaited<ReturnType<typeof start>>, number: string) =>
  browserPays(
    { url: started.api_base_url, publicKey: started.public_key },
    { providerPaymentId: started.provider_payment_id, clientKey: started.client_key },
    { number, cvc: '123', ...CARD_EXP },
    started.return_url,
  ) as Promise<{ data: { attributes: { status: string; next_action?: { redirect?: { url: string } } } } }>;

const returnTo = async (started: { return_url: string }) => {
  const res = await fetch(started.return_url, { redirect: 'manual' });
  expect(res.status).toBe(303);
  return res.headers.get('location');
};

const sessionOf = async (id: string) => (await t.app.db.select().from(checkoutSessions).where(eq(checkoutSessions.providerPaymentId, id)))[0]!;
const paymentOf = async (sessionId: string) => await t.app.db.select().from(payments).where(eq(payments.checkoutSessionId, sessionId));

/** The accepted-cards strip of a page: the names read out and the icons shown. */
const acceptedCards = (html: string) => {
  const block = /<div class="accepted-cards"[^>]*>([\s\S]*?)<\/div>/.exec(html)?.[1] ?? '';
  return { names: /<p[^>]*>[^:]*: ([^<]*)<\/p>/.exec(block)?.[1], icons: [...block.matchAll(/href="#brand-([a-z]+)"/g)].map((m) => m[1]) };
};

describe('paymongo checkout', () => {
  it("the payment page mounts the PayMongo form, allows only PayMongo's API besides itself, keeps the Test mode badge for test keys, and stays within the JS budget", async () => {
    const res = await fetch(`${server.url}/pay/acme-books`);
    const html = await res.text();
    expect(html).toContain('data-acquirer="paymongo"');
    expect(html).toContain('Test mode');
    // PayMongo takes Visa and Mastercard: the strip shows those only; the sandbox merchant's shows every brand.
    expect(acceptedCards(html)).toEqual({ names: 'Visa, Mastercard', icons: ['visa', 'mastercard'] });
    expect(res.headers.get('content-security-policy')).toContain(`connect-src 'self' ${new URL(fake.url).origin}`);
    const other = await fetch(`${server.url}/pay/other-shop`);
    expect(other.status).toBe(200);
    expect(acceptedCards(await other.clone().text())).toEqual({
      names: 'Visa, Mastercard, American Express, Discover, JCB, Diners Club, UnionPay',
      icons: ['visa', 'mastercard', 'amex', 'discover', 'jcb', 'diners', 'unionpay'],
    });
    expect(other.headers.get('content-security-policy')).not.toContain(new URL(fake.url).origin);
    const weight = await measurePageScripts(server.url, html);
    expect(weight.totalGzip, weight.scripts.map((x) => `${x.name} ${x.gzip}`).join(', ')).toBeLessThanOrEqual(CHECKOUT_JS_BUDGET);
  });

  it('the PayMongo form speaks the page’s language (Filipino), the card words included', async () => {
    const token = await dynamicLink();
    const html = await (await fetch(`${server.url}/checkout/${token}?lang=fil`)).text();
    expect(html).toContain('<html lang="fil">');
    expect(html).toContain('data-acquirer="paymongo"');
    expect(html).toContain(`<legend>${tr('fil', 'card.legend')}</legend>`);
    expect(html).toContain(`>${tr('fil', 'card.name')}</label>`);
    expect(html).not.toContain('<legend>Card details</legend>');
  });

  it('the page gives the browser what PayMongo needs; the card never reaches paylink; the return page records the payment', async () => {
    const token = await dynamicLink();
    const started = await start(token);
    expect(started.public_key).toBe(fake.publicKey);
    expect(started.api_base_url).toBe(fake.url);
    expect(started.return_url).toBe(`${t.app.origin()}/checkout/${token}/return`);
    const attached = await browser(started, CARDS.good);
    expect(attached.data.attributes.status).toBe('succeeded');
    expect(await returnTo(started)).toBe(`/checkout/${token}`);
    const session = await sessionOf(started.provider_payment_id);
    expect(session.status).toBe('paid');
    const [payment] = await paymentOf(session.id);
    expect(payment).toMatchObject({ status: 'succeeded', amountMinor: 25_000n, cardLast4: '4345', cardBrand: 'visa' });
    expect(payment!.acquirerReference).toMatch(/^pay_/);
    // Returning again (a reload) changes nothing.
    await returnTo(started);
    expect(await paymentOf(session.id)).toHaveLength(1);
  });

  it('a payment intent PayMongo refuses (HTTP 400) is ER.03.31 with plain words for the customer, no 5xx, no error log; the attempt is free again', async () => {
    const token = await dynamicLink();
    const logsBefore = t.logs.length;
    fake.refuseNextIntent('parameter_invalid', 'The value for payment_method_allowed is not activated for this account.');
    const refused = await call(server.url, 'POST', `/checkout/${token}/provider`, { token: null, body: { fields: customer } });
    expect(refused.status).toBe(422);
    expect(refused.json.data).toMatchObject({ status_code: 'ER.03.31', status_description: 'Payment refused by the acquirer' });
    expect(refused.json.messages).toEqual({
      '(request)': ['The payment provider did not accept this payment. Try another payment method, or ask the merchant for help.'],
    });
    // In the customer's language too.
    fake.refuseNextIntent('parameter_invalid', 'refused');
    const fil = await call(server.url, 'POST', `/checkout/${token}/provider`, {
      token: null,
      body: { fields: customer },
      headers: { 'accept-language': 'fil' },
    });
    expect(fil.json.messages).toEqual({ '(request)': [tr('fil', 'refusal.provider_refused')] });
    const newLogs = t.logs.slice(logsBefore).join('\n');
    expect(newLogs).not.toMatch(/"level":"error"|ER\.99\.00/);
    // Nothing was claimed for good: the customer starts again and pays.
    const started = await start(token);
    expect((await browser(started, CARDS.good)).data.attributes.status).toBe('succeeded');
    await returnTo(started);
    expect((await sessionOf(started.provider_payment_id)).status).toBe('paid');
  });

  it("a card number posted to a PayMongo merchant's page is refused, not sent anywhere", async () => {
    const token = await dynamicLink();
    const res = await call(server.url, 'POST', `/checkout/${token}/pay`, {
      token: null,
      body: { fields: customer, card: { number: CARDS.good, expiry: CARD_EXPIRY, cvc: '123', name: 'Juan' } },
    });
    expect(res.json.data).toMatchObject({ status_code: 'ER.03.26', status_description: 'Card form not available' });
    expect(res.json.messages).toEqual({ '(request)': ['This payment page takes cards another way. Reload the page to pay.'] });
    expect(t.logs.join('\n')).not.toContain(CARDS.good);
    await expect(
      payCheckout(t.app, { token, input: { fields: customer, card: { number: CARDS.good, expiry: CARD_EXPIRY, cvc: '123', name: 'Juan' } } }),
    ).rejects.toMatchObject({ code: 'ER.03.26', message: 'Card form not available' });
  });

  it('3-D Secure: the customer is sent to the redirect, comes back, and the payment is recorded', async () => {
    const token = await dynamicLink();
    const started = await start(token);
    const attached = await browser(started, CARDS.threeDs);
    expect(attached.data.attributes.status).toBe('awaiting_next_action');
    const redirect = attached.data.attributes.next_action!.redirect!.url;
    const authorised = await fetch(`${redirect}?answer=approve`, { redirect: 'manual' });
    expect(authorised.headers.get('location')).toBe(started.return_url);
    await returnTo(started); // PayMongo may still say processing at first: the page says so
    await returnTo(started);
    expect((await sessionOf(started.provider_payment_id)).status).toBe('paid');
  });

  it('a customer who left during 3-D Secure is sent back to the same provider page, never charged twice', async () => {
    const token = await dynamicLink();
    const started = await start(token);
    const attached = await browser(started, CARDS.threeDs);
    const redirect = attached.data.attributes.next_action!.redirect!.url;
    const busy = await call(server.url, 'POST', `/checkout/${token}/provider`, { token: null, body: { fields: customer } });
    expect(busy.json.data.status_code).toBe('ER.03.24');
    offsetMs += 130_000; // past the attempt's lease
    const again = await call(server.url, 'POST', `/checkout/${token}/provider`, { token: null, body: { fields: customer } });
    expect(again.json.data.next_action_url, JSON.stringify(again.json)).toBe(redirect);
    expect((await sessionOf(started.provider_payment_id)).attempts).toBe(1);
  });

  it('a decline is recorded as a failed payment and the customer may try again', async () => {
    const token = await dynamicLink();
    const started = await start(token);
    await browser(started, CARDS.declined);
    await returnTo(started);
    const session = await sessionOf(started.provider_payment_id);
    expect(session).toMatchObject({ status: 'open', processingAt: null, attempts: 1 });
    expect(await paymentOf(session.id)).toMatchObject([{ status: 'failed', failureCode: 'card_declined' }]);
    const again = await start(token);
    expect(again.provider_payment_id).not.toBe(started.provider_payment_id);
  });

  it('webhooks: a verified payment.paid records the payment; a duplicate changes nothing; a forged one is 401', async () => {
    fake.webhookUrl = `${server.url}${webhookPath}`;
    try {
      const token = await dynamicLink();
      const started = await start(token);
      await browser(started, CARDS.good); // the fake delivers payment.paid to the webhook address
      await expect.poll(async () => (await sessionOf(started.provider_payment_id)).status).toBe('paid');
      const session = await sessionOf(started.provider_payment_id);
      const [payment] = await paymentOf(session.id);
      const event = fake.event('payment.paid', fake.paymentResource(payment!.acquirerReference!)!, { eventId: 'evt_dup_1' });
      const first = await call(server.url, 'POST', webhookPath, { token: null, raw: event.rawBody, headers: Object.fromEntries(event.headers) });
      expect(first.json.data).toMatchObject({ status_code: 'OK.00.00', outcome: 'applied' });
      const again = await call(server.url, 'POST', webhookPath, { token: null, raw: event.rawBody, headers: Object.fromEntries(event.headers) });
      expect(again.json.data.outcome).toBe('duplicate');
      expect(await paymentOf(session.id)).toHaveLength(1);
      const forged = await call(server.url, 'POST', webhookPath, {
        token: null,
        raw: event.rawBody.replace('evt_dup_1', 'evt_forged'),
        headers: Object.fromEntries(event.headers),
      });
      expect(forged.status).toBe(401);
      expect(forged.json.data.status_code).toBe('ER.01.20');
      const unknown = await call(server.url, 'POST', '/webhooks/paymongo/wh_nobody', {
        token: null,
        raw: event.rawBody,
        headers: Object.fromEntries(event.headers),
      });
      expect(unknown.status).toBe(404);
      expect(await t.app.db.select().from(providerWebhookEvents).where(eq(providerWebhookEvents.eventId, 'evt_forged'))).toHaveLength(0);
    } finally {
      fake.webhookUrl = undefined;
    }
  });

  it('a late payment.failed for an attempt already paid never moves it backwards', async () => {
    const token = await dynamicLink();
    const started = await start(token);
    await browser(started, CARDS.good);
    await returnTo(started);
    const late = fake.event('payment.failed', {
      id: 'pay_old',
      type: 'payment',
      attributes: { status: 'failed', payment_intent_id: started.provider_payment_id, failed_code: 'generic_decline' },
    });
    const res = await call(server.url, 'POST', webhookPath, { token: null, raw: late.rawBody, headers: Object.fromEntries(late.headers) });
    expect(res.json.data.outcome).toBe('applied');
    const session = await sessionOf(started.provider_payment_id);
    expect(session.status).toBe('paid');
    expect(await paymentOf(session.id)).toMatchObject([{ status: 'succeeded' }]);
  });

  it('reconciliation: an attempt whose webhook never came and whose customer never returned is recorded by sync', async () => {
    const token = await dynamicLink();
    const started = await start(token);
    await browser(started, CARDS.good);
    expect((await sessionOf(started.provider_payment_id)).status).toBe('open');
    expect(await reconcileProviderPayments(t.app, { olderThanSeconds: 60 })).toBe(0);
    offsetMs += 120_000;
    expect(await reconcileProviderPayments(t.app, { olderThanSeconds: 60 })).toBeGreaterThanOrEqual(1);
    expect((await sessionOf(started.provider_payment_id)).status).toBe('paid');
  });
});

describe('paymongo refunds', () => {
  async function paidPayment(card = CARDS.good) {
    const token = await dynamicLink();
    const started = await start(token);
    await browser(started, card);
    await returnTo(started);
    return (await paymentOf((await sessionOf(started.provider_payment_id)).id))[0]!;
  }
  /** A payment paid 61 days ago: past PayMongo's 60-day refund window. */
  async function paidPastRefundWindow() {
    const payment = await paidPayment();
    await t.app.db
      .update(payments)
      .set({ paidAt: new Date(clock().getTime() - 61 * 86_400_000) })
      .where(eq(payments.id, payment.id));
    return payment;
  }
  const refund = (transactionId: string, amount?: string) =>
    call(server.url, 'POST', '/api/v1/refund', {
      body: { transaction_id: transactionId, notify_user: false, reason: 'Customer request', ...(amount ? { amount } : {}) },
    });

  it('a refund accepted by PayMongo answers pending (OK.04.01 / OK.02.01), holds the amount, and settles by webhook', async () => {
    fake.webhookUrl = `${server.url}${webhookPath}`;
    try {
      const payment = await paidPayment();
      const partial = await refund(payment.id, '50.00');
      expect(partial.json.data).toMatchObject({ status_code: 'OK.04.01', refund_status: 'pending', refundable_amount: '200.00' });
      const full = await refund(payment.id);
      expect(full.json.data).toMatchObject({ status_code: 'OK.02.01', refund_status: 'pending', refundable_amount: '0.00' });
      await fake.settle(); // PayMongo settles; its payment.refund.updated events reach the webhook
      await expect
        .poll(async () => (await t.app.db.select().from(refunds).where(eq(refunds.paymentId, payment.id))).map((r) => r.status).sort())
        .toEqual(['succeeded', 'succeeded']);
      const [after] = await t.app.db.select().from(payments).where(eq(payments.id, payment.id));
      expect(after).toMatchObject({ refundedMinor: 25_000n, refundReservedMinor: 0n });
    } finally {
      fake.webhookUrl = undefined;
    }
  });

  it('payment.refunded alone (the payment with its refunds) settles a pending refund; payment.refund.updated after it changes nothing', async () => {
    fake.webhookUrl = `${server.url}${webhookPath}`;
    fake.subscribedEvents = new Set(['payment.refunded']);
    try {
      const payment = await paidPayment();
      const partial = await refund(payment.id, '40.00');
      expect(partial.json.data).toMatchObject({ refund_status: 'pending' });
      await fake.settle(); // only payment.refunded reaches paylink
      await expect
        .poll(async () => (await t.app.db.select().from(refunds).where(eq(refunds.paymentId, payment.id))).map((r) => r.status))
        .toEqual(['succeeded']);
      const [after] = await t.app.db.select().from(payments).where(eq(payments.id, payment.id));
      expect(after).toMatchObject({ refundedMinor: 4_000n, refundReservedMinor: 0n, refundCount: 1 });
      // The other event for the same outcome, later: a duplicate in effect.
      const [row] = await t.app.db.select().from(refunds).where(eq(refunds.paymentId, payment.id));
      const late = fake.event('payment.refund.updated', {
        id: row!.acquirerReference!,
        type: 'refund',
        attributes: { status: 'succeeded', amount: 4_000, payment_id: payment.acquirerReference },
      });
      const res = await call(server.url, 'POST', webhookPath, { token: null, raw: late.rawBody, headers: Object.fromEntries(late.headers) });
      expect(res.json.data.outcome).toBe('applied');
      const [unchanged] = await t.app.db.select().from(payments).where(eq(payments.id, payment.id));
      expect(unchanged).toMatchObject({ refundedMinor: 4_000n, refundCount: 1 });
    } finally {
      fake.webhookUrl = undefined;
      fake.subscribedEvents = undefined;
    }
  });

  it('a refund that fails later at PayMongo releases its amount when the recovery pass syncs it', async () => {
    const payment = await paidPayment(CARDS.refundFailsLater);
    const res = await refund(payment.id, '100.00');
    expect(res.json.data.refund_status).toBe('pending');
    await fake.settle(); // no webhook address: only a sync finds out
    offsetMs += 10 * 60_000;
    await recoverPendingRefunds(t.app, { paymentId: payment.id });
    const [row] = await t.app.db.select().from(refunds).where(eq(refunds.paymentId, payment.id));
    expect(row).toMatchObject({ status: 'failed', failureCode: 'refund_failed' });
    const [after] = await t.app.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(after).toMatchObject({ refundedMinor: 0n, refundReservedMinor: 0n });
  });

  // The refund service called directly (as the API route and the workers call it), through the PayMongo connector.
  const direct = async (transactionId: string, amount?: string) =>
    refundPayment(t.app, (await findIntegratorByToken(t.app.db, TEST_TOKEN))!, {
      transactionId,
      notifyUser: false,
      reason: 'Customer request',
      ...(amount ? { amount } : {}),
    });
  const refundEvents = (paymentId: string) =>
    t.app.db.select().from(outboxEvents).where(sql`${outboxEvents.type} like 'refund.%' and ${outboxEvents.data}->>'transaction_id' = ${paymentId}`);

  it("refund service › PayMongo's pending answer keeps the refund pending with its id and the amount held; a sync that is still pending changes nothing; its final word settles it once", async () => {
    const payment = await paidPayment();
    const integratorId = payment.integratorId;
    const { refund, payment: held } = await direct(payment.id, '50.00');
    expect(refund).toMatchObject({ status: 'pending', amountMinor: 5_000n, succeededAt: null, failedAt: null, failureCode: null });
    expect(refund.acquirerReference).toMatch(/^ref_/);
    expect(await t.app.db.select().from(refunds).where(eq(refunds.paymentId, payment.id))).toEqual([refund]);
    expect(held).toMatchObject({ refundedMinor: 0n, refundReservedMinor: 5_000n, refundCount: 1 });
    expect(await refundEvents(payment.id)).toEqual([]);
    const refundCalls = () => fake.requests.filter((r) => r.path.startsWith('/v1/refunds'));
    const before = refundCalls().length;
    expect(refundCalls().at(-1)).toEqual({ method: 'POST', path: '/v1/refunds', idempotencyKey: `paylink-refund:${refund.id}` });

    // The recovery pass syncs it (PayMongo already has it: no second POST); still pending, it stays as it is.
    offsetMs += 61_000;
    expect(await recoverPendingRefunds(t.app, { paymentId: payment.id })).toBe(1);
    expect(refundCalls().slice(before)).toEqual([{ method: 'GET', path: `/v1/refunds/${refund.acquirerReference}` }]);
    expect(await t.app.db.select().from(refunds).where(eq(refunds.paymentId, payment.id))).toEqual([refund]);
    expect(await settleProviderRefund(t.app, integratorId, { status: 'pending', refundId: refund.acquirerReference! })).toBe('unchanged');

    await fake.settle(); // no webhook address: the test hands PayMongo's word to the service
    expect(await settleProviderRefund(t.app, integratorId, { status: 'succeeded', refundId: refund.acquirerReference! })).toBe('settled');
    const [settled] = await t.app.db.select().from(refunds).where(eq(refunds.paymentId, payment.id));
    expect(settled).toEqual({ ...refund, status: 'succeeded', succeededAt: expect.any(Date) });
    expect(settled!.succeededAt!.getTime()).toBeGreaterThan(refund.createdAt.getTime() + 60_000);
    const [after] = await t.app.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(after).toMatchObject({ refundedMinor: 5_000n, refundReservedMinor: 0n, refundCount: 1, refundedAt: null, refundVersion: held.refundVersion + 1 });
    expect((await refundEvents(payment.id)).map((e) => e.type)).toEqual(['refund.succeeded']);
    expect(await settleProviderRefund(t.app, integratorId, { status: 'succeeded', refundId: refund.acquirerReference! })).toBe('unchanged');
    expect(await refundEvents(payment.id)).toHaveLength(1);
  });

  it('refund service › a PayMongo refund that fails when it settles keeps its PayMongo id and gives its amount and place back', async () => {
    const payment = await paidPayment(CARDS.refundFailsLater);
    const { refund } = await direct(payment.id);
    expect(refund).toMatchObject({ status: 'pending', type: 'full', amountMinor: 25_000n });
    await fake.settle();
    offsetMs += 61_000;
    expect(await recoverPendingRefunds(t.app, { paymentId: payment.id })).toBe(1);
    const [row] = await t.app.db.select().from(refunds).where(eq(refunds.paymentId, payment.id));
    expect(row).toMatchObject({
      status: 'failed',
      acquirerReference: refund.acquirerReference,
      failureCode: 'refund_failed',
      failedAt: expect.any(Date),
      succeededAt: null,
    });
    const [after] = await t.app.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(after).toMatchObject({ refundedMinor: 0n, refundReservedMinor: 0n, refundCount: 0 });
    expect((await refundEvents(payment.id)).map((e) => e.type)).toEqual(['refund.failed']);
  });

  it("refund service › PayMongo's word that a pending refund failed records it failed once and releases its amount", async () => {
    const payment = await paidPayment(CARDS.refundFailsLater);
    const { refund } = await direct(payment.id, '40.00');
    const failed = { status: 'failed' as const, refundId: refund.acquirerReference!, code: 'refund_failed', message: 'PayMongo could not return the money.' };
    expect(await settleProviderRefund(t.app, payment.integratorId, failed)).toBe('settled');
    const [row] = await t.app.db.select().from(refunds).where(eq(refunds.paymentId, payment.id));
    expect(row).toEqual({
      ...refund,
      status: 'failed',
      failureCode: 'refund_failed',
      failureMessage: 'PayMongo could not return the money.',
      failedAt: expect.any(Date),
    });
    const [after] = await t.app.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(after).toMatchObject({ refundedMinor: 0n, refundReservedMinor: 0n, refundCount: 0 });
    expect(await settleProviderRefund(t.app, payment.integratorId, failed)).toBe('unchanged');
    expect((await refundEvents(payment.id)).map((e) => e.type)).toEqual(['refund.failed']);
  });

  it("refund service › past PayMongo's window a refund is refused with the acquirer's reason and nothing is reserved (ER.20.27)", async () => {
    const payment = await paidPastRefundWindow();
    for (const amount of [undefined, '1.00']) {
      await expect(direct(payment.id, amount)).rejects.toMatchObject({
        code: 'ER.20.27',
        messages: { transaction_id: ['This acquirer refunds card payments only within 60 days of the payment.'] },
      });
    }
    expect(await t.app.db.select().from(refunds).where(eq(refunds.paymentId, payment.id))).toHaveLength(0);
    const [after] = await t.app.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(after).toMatchObject({ refundReservedMinor: 0n, refundCount: 0, refundVersion: payment.refundVersion });
  });

  it('refund service › a declined PayMongo payment is refused as not paid (ER.20.22), before any PayMongo call', async () => {
    const token = await dynamicLink();
    const started = await start(token);
    await browser(started, CARDS.declined);
    await returnTo(started);
    const [failed] = await paymentOf((await sessionOf(started.provider_payment_id)).id);
    expect(failed).toMatchObject({ status: 'failed', paidAt: null });
    await expect(direct(failed!.id)).rejects.toMatchObject({
      code: 'ER.20.22',
      messages: { transaction_id: ['was not paid (the payment failed), so there is nothing to refund'] },
    });
  });

  it("a refund past PayMongo's 60-day window is refused before anything is reserved (ER.20.27)", async () => {
    const payment = await paidPastRefundWindow();
    const res = await refund(payment.id);
    expect(res.json.data.status_code).toBe('ER.20.27');
    expect(await t.app.db.select().from(refunds).where(eq(refunds.paymentId, payment.id))).toHaveLength(0);
  });

  it('card registrations keep no card with PayMongo: they are pay-by-link and need the customer’s e-mail (tests/integration/connectors/paymongo-schedules.test.ts)', async () => {
    const registration = await call(server.url, 'POST', '/api/v1/card-registrations', { body: {} });
    expect(registration.status).toBe(422);
    expect(registration.json.data.status_code).toBe('ER.02.30');
    expect(Object.keys(registration.json.messages)).toEqual(['customer.email']);
    // A saved card of this integrator (seeded while it was on the sandbox) cannot be charged off-session by PayMongo.
    const schedule = await call(server.url, 'POST', '/api/v1/schedule', { body: { payload: await signSchedule(scheduleData()) } });
    expect(schedule.status).toBe(409);
    expect(schedule.json.data.status_code).toBe('ER.12.35');
    expect(schedule.json.messages.reference[0]).toContain('pay-by-link registration');
  });

  it('the other integrator stays on the sandbox', async () => {
    const [other] = await t.app.db.select().from(integrators).where(eq(integrators.name, 'Other Shop'));
    expect((await t.app.connectors.forIntegrator(other!.id)).name).toBe('sandbox');
  });
});
