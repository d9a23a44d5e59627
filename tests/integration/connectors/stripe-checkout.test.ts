import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions, outboxEvents, payments, refunds } from '../../../src/db/schema.ts';
import { call, OTHER_TOKEN, type TestApp } from '../../support/app.ts';
import { browserConfirms, type FakeStripe } from '../../support/fakes/stripe.ts';
import { useProviderApp } from '../../support/provider-app.ts';

let t: TestApp;
let fake: FakeStripe;
let server: { url: string; close(): Promise<void> };
let webhookPath = '';
const customer = { 'customer.first_name': 'Juan', 'customer.last_name': 'Dela Cruz', 'customer.contact.email': 'juan@example.com' };

const provider = useProviderApp('stripe', { integrator: 1 });
beforeAll(() => {
  ({ fake, t, server, webhookPath } = provider);
});

/** A dynamic checkout paid through Stripe: start → the browser confirms at Stripe → the return page records it. */
async function payThroughStripe() {
  const link = await call(server.url, 'POST', '/pay/other-shop', { token: null, body: { key: OTHER_TOKEN } });
  expect(link.status, link.text).toBe(200);
  const token = new URL(link.json.link).pathname.split('/')[2]!;
  const res = await call(server.url, 'POST', `/checkout/${token}/provider`, { token: null, body: { fields: customer } });
  expect(res.status, res.text).toBe(200);
  const started = res.json.data as { provider_payment_id: string; client_key: string; public_key: string; return_url: string };
  const confirmed = await browserConfirms(
    fake,
    { providerPaymentId: started.provider_payment_id, clientKey: started.client_key },
    'pm_card_visa',
    started.return_url,
  );
  expect(confirmed.status).toBe(200);
  const back = await fetch(started.return_url, { redirect: 'manual' });
  expect(back.status).toBe(303);
  const [session] = await t.app.db.select().from(checkoutSessions).where(eq(checkoutSessions.providerPaymentId, started.provider_payment_id));
  const rows = await t.app.db.select().from(payments).where(eq(payments.checkoutSessionId, session!.id));
  return { started, session: session!, rows };
}

/** The accepted-cards strip of a page: the names read out and the icons shown. */
const acceptedCards = (html: string) => {
  const block = /<div class="accepted-cards"[^>]*>([\s\S]*?)<\/div>/.exec(html)?.[1] ?? '';
  return { names: /<p[^>]*>[^:]*: ([^<]*)<\/p>/.exec(block)?.[1], icons: [...block.matchAll(/href="#brand-([a-z]+)"/g)].map((m) => m[1]) };
};

describe('stripe checkout', () => {
  it('start → browser confirms → return page records the payment; webhook duplicate changes nothing', async () => {
    const { started, session, rows } = await payThroughStripe();
    expect(started.public_key).toBe(fake.publishableKey);
    expect(started.client_key).toMatch(/_secret_/);
    expect(session.status).toBe('paid');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'succeeded', amountMinor: 1000n, cardLast4: '4242', cardBrand: 'visa' });
    expect(rows[0]!.acquirerReference).toMatch(/^ch_/);
    const event = fake.event('payment_intent.succeeded', fake.intent(started.provider_payment_id)!, { eventId: 'evt_1' });
    const first = await call(server.url, 'POST', webhookPath, { token: null, raw: event.rawBody, headers: Object.fromEntries(event.headers) });
    expect(first.status, first.text).toBe(200);
    const again = await call(server.url, 'POST', webhookPath, { token: null, raw: event.rawBody, headers: Object.fromEntries(event.headers) });
    expect(again.json.data.outcome).toBe('duplicate');
    const forged = await call(server.url, 'POST', webhookPath, {
      token: null,
      raw: event.rawBody.replace('evt_1', 'evt_2'),
      headers: Object.fromEntries(event.headers),
    });
    expect(forged.status).toBe(401);
    expect(await t.app.db.select().from(payments).where(eq(payments.checkoutSessionId, session.id))).toHaveLength(1);
  });

  it('a refund Stripe reported succeeded and later failed is recorded failed, its amount refundable again, once', async () => {
    const { rows } = await payThroughStripe();
    const paymentId = rows[0]!.id;
    const refunded = await call(server.url, 'POST', '/api/v1/refund', {
      token: OTHER_TOKEN,
      body: { transaction_id: paymentId, amount: '4.00', reason: 'returned', notify_user: false },
    });
    expect(refunded.json.data.status_code, refunded.text).toBe('OK.04.01');
    const [pending] = await t.app.db.select().from(refunds).where(eq(refunds.paymentId, paymentId));
    await fake.settle();
    const succeeded = fake.event('refund.updated', fake.refund(pending!.acquirerReference!)!, { eventId: `evt_refund_ok_${paymentId}` });
    expect((await call(server.url, 'POST', webhookPath, { token: null, raw: succeeded.rawBody, headers: Object.fromEntries(succeeded.headers) })).status).toBe(
      200,
    );
    const [recorded] = await t.app.db.select().from(refunds).where(eq(refunds.id, pending!.id));
    expect(recorded!.status).toBe('succeeded');
    expect((await t.app.db.select().from(payments).where(eq(payments.id, paymentId)))[0]!.refundedMinor).toBe(400n);
    const failed = { ...fake.refund(recorded!.acquirerReference!)!, status: 'failed', failure_reason: 'expired_or_canceled_card' };
    const event = fake.event('refund.failed', failed, { eventId: `evt_refund_failed_${paymentId}` });
    const send = () => call(server.url, 'POST', webhookPath, { token: null, raw: event.rawBody, headers: Object.fromEntries(event.headers) });
    expect((await send()).status).toBe(200);
    const [after] = await t.app.db.select().from(refunds).where(eq(refunds.id, recorded!.id));
    expect(after).toMatchObject({ status: 'failed', failureCode: expect.any(String) });
    const [payment] = await t.app.db.select().from(payments).where(eq(payments.id, paymentId));
    expect(payment).toMatchObject({ refundedMinor: 0n, refundReservedMinor: 0n, refundCount: 0, refundedAt: null });
    const events = await t.app.db.select().from(outboxEvents).where(eq(outboxEvents.integratorId, payment!.integratorId));
    expect(events.filter((e) => e.type === 'refund.failed')).toHaveLength(1);
    // The same event again, or a later one saying the same, changes nothing.
    expect((await send()).json.data.outcome).toBe('duplicate');
    const later = fake.event('charge.refund.updated', failed, { eventId: `evt_refund_failed_again_${paymentId}` });
    expect((await call(server.url, 'POST', webhookPath, { token: null, raw: later.rawBody, headers: Object.fromEntries(later.headers) })).status).toBe(200);
    const [still] = await t.app.db.select().from(payments).where(eq(payments.id, paymentId));
    expect(still!.refundedMinor).toBe(0n);
    // The whole amount is refundable again, as the integrator reads it.
    const read = await call(server.url, 'GET', `/api/v1/transactions/${paymentId}`, { token: OTHER_TOKEN });
    expect(read.json.data.transaction, read.text).toMatchObject({ refund_state: 'not_refunded', refunded_amount: '0.00', refundable_amount: '10.00' });
  });

  it("the page mounts the Stripe island with the publishable key; only this merchant's pages allow Stripe's hosts", async () => {
    const link = await call(server.url, 'POST', '/pay/other-shop', { token: null, body: { key: OTHER_TOKEN } });
    const token = new URL(link.json.link).pathname.split('/')[2]!;
    const page = await fetch(`${server.url}/checkout/${token}`);
    const html = await page.text();
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(html).toContain('data-acquirer="stripe"');
    expect(html).toContain(fake.publishableKey);
    expect(acceptedCards(html)).toEqual({
      names: 'Visa, Mastercard, American Express, Discover, JCB',
      icons: ['visa', 'mastercard', 'amex', 'discover', 'jcb'],
    });
    expect(html).not.toContain(fake.secretKey);
    expect(html).not.toContain(fake.webhookSecret);
    expect(csp).toMatch(/script-src[^;]*'self'[^;]*https:\/\/js\.stripe\.com/);
    expect(csp).toMatch(/frame-src[^;]*https:\/\/hooks\.stripe\.com/);
    expect(csp).toMatch(/connect-src[^;]*'self'[^;]*https:\/\/api\.stripe\.com/);
    const sandbox = await fetch(`${server.url}/pay/acme-books`);
    expect(sandbox.headers.get('content-security-policy') ?? '').not.toContain('stripe');
  });
});
