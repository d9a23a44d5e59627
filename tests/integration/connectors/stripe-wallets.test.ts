import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions, payments } from '../../../src/db/schema.ts';
import { call, createTestApp, OTHER_TOKEN, startTestServer, type TestApp } from '../../support/app.ts';
import { CHECKOUT_JS_BUDGET, measurePageScripts } from '../../support/checkout-weight.ts';
import { browserConfirms, type FakeStripe } from '../../support/fakes/stripe.ts';
import { useProviderApp } from '../../support/provider-app.ts';

/**
 * Stripe's wallets on paylink's pages: what the page of a merchant on Stripe lets the Payment
 * Element's wallets do (and no other page), and Apple Pay's domain association file.
 */
const ASSOCIATION = '/.well-known/apple-developer-merchantid-domain-association';

const provider = useProviderApp('stripe', { integrator: 1 });
let fake: FakeStripe;
let server: { url: string; close(): Promise<void> };
let t: TestApp;
let webhookPath = '';
beforeAll(() => {
  ({ fake, server, t, webhookPath } = provider);
});

describe('stripe wallets › the payment page', () => {
  it("of a merchant on Stripe lets Stripe's frames use the Payment Request API and keeps wallet pop-ups connected; other pages do not", async () => {
    const link = await call(server.url, 'POST', '/pay/other-shop', { token: null, body: { key: OTHER_TOKEN } });
    expect(link.status, link.text).toBe(200);
    const page = await fetch(link.json.link);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('data-acquirer="stripe"');
    expect(html).toContain(fake.publishableKey);
    // The Element is asked for the types the PaymentIntent will allow.
    expect(html).toMatch(/methodTypes[^>]*card[^>]*link/);
    expect(page.headers.get('permissions-policy')).toBe(
      'camera=(), microphone=(), geolocation=(), payment=(self "https://js.stripe.com" "https://*.js.stripe.com")',
    );
    expect(page.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
    expect(page.headers.get('content-security-policy') ?? '').toMatch(/frame-src[^;]*https:\/\/js\.stripe\.com/);
    // The wallets add no script of paylink's own: the page stays within the checkout's JS budget.
    const weight = await measurePageScripts(server.url, html);
    expect(weight.scripts.some((s) => s.name.includes('StripeCardForm'))).toBe(true);
    expect(weight.totalGzip, `Stripe payment page JS: ${weight.totalGzip} B gzip in ${weight.scripts.length} scripts`).toBeLessThanOrEqual(CHECKOUT_JS_BUDGET);
    // A reload answered from the kept rendering carries the same headers.
    const again = await fetch(link.json.link);
    expect(again.headers.get('permissions-policy')).toBe(page.headers.get('permissions-policy'));
    expect(again.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
    // The sandbox merchant's page keeps paylink's strict policy.
    const sandbox = await fetch(`${server.url}/pay/acme-books`);
    expect(sandbox.status).toBe(200);
    expect(sandbox.headers.get('permissions-policy')).toBe('camera=(), microphone=(), geolocation=(), payment=(self)');
    expect(sandbox.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  });
});

describe('stripe wallets › recording', () => {
  it('a Google Pay payment whose charge.succeeded arrives first is recorded as a card payment with its card; the later events change nothing', async () => {
    const link = await call(server.url, 'POST', '/pay/other-shop', { token: null, body: { key: OTHER_TOKEN } });
    const token = new URL(link.json.link).pathname.split('/')[2]!;
    const customer = { 'customer.first_name': 'Juan', 'customer.last_name': 'Dela Cruz', 'customer.contact.email': 'juan@example.com' };
    const res = await call(server.url, 'POST', `/checkout/${token}/provider`, { token: null, body: { fields: customer } });
    expect(res.status, res.text).toBe(200);
    const started = res.json.data as { provider_payment_id: string; client_key: string; return_url: string };
    const confirmed = await browserConfirms(
      fake,
      { providerPaymentId: started.provider_payment_id, clientKey: started.client_key },
      'pm_fake_googlePay',
      started.return_url,
    );
    expect(confirmed.status).toBe(200);
    const intent = fake.intent(started.provider_payment_id)!;
    const send = async (type: string, object: Record<string, unknown>, eventId: string) => {
      const event = fake.event(type, object, { eventId });
      const answer = await call(server.url, 'POST', webhookPath, { token: null, raw: event.rawBody, headers: Object.fromEntries(event.headers) });
      expect(answer.status, answer.text).toBe(200);
    };
    await send('charge.succeeded', fake.charge(intent.latest_charge as string)!, `evt_wallet_charge_${token}`);
    await send('payment_intent.succeeded', intent, `evt_wallet_pi_${token}`);
    const [session] = await t.app.db.select().from(checkoutSessions).where(eq(checkoutSessions.providerPaymentId, started.provider_payment_id));
    expect(session!.status).toBe('paid');
    const rows = await t.app.db.select().from(payments).where(eq(payments.checkoutSessionId, session!.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: 'succeeded',
      paymentMethod: 'card',
      cardBrand: 'mastercard',
      cardLast4: '4444',
      acquirerReference: intent.latest_charge,
    });
    // The return page after both: still the one payment.
    expect((await fetch(started.return_url, { redirect: 'manual' })).status).toBe(303);
    expect(await t.app.db.select().from(payments).where(eq(payments.checkoutSessionId, session!.id))).toHaveLength(1);
  });
});

describe('stripe wallets › Apple Pay domain association', () => {
  it('is not there unless the operator names the file', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await fetch(`${server.url}${ASSOCIATION}`, { method });
      expect(res.status, method).toBe(404);
    }
  });

  describe('with PAYLINK_APPLE_PAY_DOMAIN_ASSOCIATION', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paylink-apple-pay-'));
    const file = join(dir, 'apple-developer-merchantid-domain-association');
    // What Stripe gives is a long hexadecimal line; its exact bytes are served.
    const contents = `7B227073704964223A2239373943394538343346343131343044463144313834343232393232313734313034353044314339464446394437384337313531303944334643463542433731222C2276657273696F6E223A312C22637265617465644F6E223A313535323932333638393630327D\n`;
    let t: TestApp;
    let own: { url: string; close(): Promise<void> };
    beforeAll(async () => {
      writeFileSync(file, contents);
      t = await createTestApp({ env: { PAYLINK_APPLE_PAY_DOMAIN_ASSOCIATION: file } });
      own = await startTestServer(t.app);
    });
    afterAll(async () => {
      await own?.close();
      await t?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('serves the file as plain text, cacheable, exactly as given', async () => {
      const res = await fetch(`${own.url}${ASSOCIATION}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
      expect(await res.text()).toBe(contents);
      const head = await fetch(`${own.url}${ASSOCIATION}`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      // Other methods change nothing and get no 5xx.
      const post = await fetch(`${own.url}${ASSOCIATION}`, { method: 'POST', body: 'x' });
      expect(post.status).toBe(405);
      expect(post.headers.get('allow')).toContain('GET');
    });

    it('is read once at start: changing the file later does not change what is served', async () => {
      writeFileSync(file, 'changed');
      expect(await (await fetch(`${own.url}${ASSOCIATION}`)).text()).toBe(contents);
    });
  });
});
