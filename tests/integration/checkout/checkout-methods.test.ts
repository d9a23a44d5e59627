import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions, integrators, links, payments, refunds, sandboxCharges, sandboxOperations } from '../../../src/db/schema.ts';
import { createDynamicLink } from '../../../src/domain/checkout/dynamic.ts';
import { type MethodStarted, startMethodAttempt } from '../../../src/domain/checkout/method-pay.ts';
import { checkoutStatus, returnFromProvider } from '../../../src/domain/checkout/method-status.ts';
import { payCheckout } from '../../../src/domain/checkout/pay.ts';
import { reconcileProviderPayments } from '../../../src/domain/checkout/provider-pay.ts';
import { findSessionByToken } from '../../../src/domain/checkout/sessions.ts';
import { answerSimulatedPayment, simulatedPayment } from '../../../src/domain/checkout/simulated.ts';
import { findActiveLink } from '../../../src/domain/links/service.ts';
import { refundPayment } from '../../../src/domain/refunds/service.ts';
import { createTestApp, defaultSeed, provision, TEST_TOKEN, type TestApp } from '../../support/app.ts';
import { CARD_EXPIRY } from '../../support/cards.ts';

/**
 * Paying by QR Ph, e-wallets, online banking and BillEase on the sandbox, through the domain
 * (PGlite, and PostgreSQL with PAYLINK_TEST_DB=postgres): each journey, the refusals, and money
 * never doubled under concurrency.
 */
let t: TestApp;
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);

const seed = defaultSeed();
seed.integrators[0]!.links.push(
  { slug: 'acme-cheap', title: 'Sticker', currency: 'PHP', amount: '15.00', labels: {}, fields: {}, active: true },
  { slug: 'acme-cards', title: 'Cards only', currency: 'PHP', amount: '100.00', labels: {}, fields: {}, active: true },
);

beforeAll(async () => {
  t = await createTestApp({ now: clock });
  await provision(t, seed);
  const [cards] = await t.app.db.select().from(links).where(eq(links.slug, 'acme-cards'));
  // The links' own choice (links.payment_methods) until the links editor writes it.
  await t.app.db
    .update(links)
    .set({ paymentMethods: ['card', 'gcash'] })
    .where(eq(links.id, cards!.id));
});
afterAll(async () => {
  await t?.close();
});

async function checkout(slug = 'acme-books') {
  const created = await createDynamicLink(t.app, (await findActiveLink(t.app.db, slug))!, { key: TEST_TOKEN });
  return new URL(created.url).pathname.split('/')[2]!;
}

const customer = { 'customer.first_name': 'Juan', 'customer.last_name': 'Dela Cruz', 'customer.contact.email': 'juan@example.com' };
const start = (token: string, input: Record<string, unknown>) =>
  startMethodAttempt(t.app, { token, input: { ...input, fields: { ...customer, ...(input.fields as object) } }, clientIp: '203.0.113.9' });
const idOf = (started: MethodStarted) =>
  started.kind === 'qr' ? started.qr.content.split('/').pop()! : started.kind === 'redirect' ? started.url.split('/').pop()! : '';
const sessionOf = async (token: string) => (await findSessionByToken(t.app.db, token))!;
const paymentsOf = async (token: string) =>
  t.app.db
    .select()
    .from(payments)
    .where(eq(payments.checkoutSessionId, (await sessionOf(token)).id));
const chargesOf = async (providerPaymentId: string) =>
  t.app.db
    .select()
    .from(sandboxOperations)
    .where(like(sandboxOperations.idempotencyKey, `payment-state:${providerPaymentId}:authorised`));

describe('checkout by QR Ph', () => {
  it('starts with a code that opens the sandbox scan page, kept on the session until it expires', async () => {
    const token = await checkout();
    const started = await start(token, { method: 'qrph' });
    expect(started.kind).toBe('qr');
    if (started.kind !== 'qr') return;
    expect(started.qr.content).toMatch(new RegExp(`^${t.app.origin()}/sandbox/scan/sbp_[0-9a-f]{24}$`));
    expect(started.qr.expiresAt.getTime() - clock().getTime()).toBeGreaterThan(1790_000);
    const session = await sessionOf(token);
    expect(session.providerAttempt).toMatchObject({ method: 'qrph', qr: { content: started.qr.content, expiresAt: started.qr.expiresAt.toISOString() } });
    expect(await checkoutStatus(t.app, token)).toEqual({ status: 'awaiting_scan', method: 'qrph', qr: started.qr });
  });

  it('pays when the code is approved: the transaction records qrph, the session is paid, the status says succeeded', async () => {
    const token = await checkout();
    const started = await start(token, { method: 'qrph' });
    const view = await answerSimulatedPayment(t.app, idOf(started), 'approve', '203.0.113.9');
    expect(view?.payment).toMatchObject({ status: 'succeeded', method: 'qrph', amountMinor: 25000n, currency: 'PHP' });
    expect(view?.merchantName).toBe('Acme Books');
    const [paid] = await paymentsOf(token);
    expect(paid).toMatchObject({ status: 'succeeded', paymentMethod: 'qrph', amountMinor: 25000n, cardBrand: null });
    expect(await checkoutStatus(t.app, token)).toMatchObject({ status: 'succeeded', method: 'qrph', receiptPath: `/checkout/${token}` });
    const [charge] = await t.app.db.select().from(sandboxCharges).where(eq(sandboxCharges.id, paid!.acquirerReference!));
    expect(charge?.amountMinor).toBe(25000n);
  });

  it('a second start while the code is open answers the same code, never a second payment', async () => {
    const token = await checkout();
    const first = await start(token, { method: 'qrph' });
    const again = await start(token, { method: 'qrph' });
    expect(again).toEqual(first);
    expect((await sessionOf(token)).attempts).toBe(1);
  });

  it('an expired code ends the attempt as a declined transaction (expired); a new start makes a new code, and the old one can no longer be paid', async () => {
    const token = await checkout();
    const first = await start(token, { method: 'qrph' });
    if (first.kind !== 'qr') throw new Error('expected a QR');
    offsetMs += 1801_000;
    try {
      expect(await checkoutStatus(t.app, token)).toEqual({ status: 'declined', method: 'qrph', declineCode: 'expired' });
      const [ended] = await paymentsOf(token);
      expect(ended).toMatchObject({ status: 'failed', paymentMethod: 'qrph', failureCode: 'expired' });
      const second = await start(token, { method: 'qrph' });
      if (second.kind !== 'qr') throw new Error('expected a QR');
      expect(second.qr.content).not.toBe(first.qr.content);
      expect((await answerSimulatedPayment(t.app, idOf(first), 'approve', '203.0.113.9'))?.payment.status).toBe('declined');
      expect(await chargesOf(idOf(first))).toHaveLength(0);
      expect((await sessionOf(token)).status).toBe('open');
      await answerSimulatedPayment(t.app, idOf(second), 'approve', '203.0.113.9');
      expect((await sessionOf(token)).status).toBe('paid');
    } finally {
      offsetMs -= 1801_000;
    }
  });

  it('declined on the scan page: the attempt ends (cancelled) and the session is open to choose again', async () => {
    const token = await checkout();
    const started = await start(token, { method: 'qrph' });
    await answerSimulatedPayment(t.app, idOf(started), 'decline', '203.0.113.9');
    expect(await checkoutStatus(t.app, token)).toEqual({ status: 'declined', method: 'qrph', declineCode: 'cancelled' });
    expect((await start(token, { method: 'gcash' })).kind).toBe('redirect');
  });

  it('the reconciliation pass ends a code left to expire', async () => {
    const token = await checkout();
    await start(token, { method: 'qrph' });
    offsetMs += 1900_000;
    try {
      await reconcileProviderPayments(t.app, { olderThanSeconds: 60 });
      expect((await sessionOf(token)).processingAt).toBeNull();
      expect((await paymentsOf(token))[0]).toMatchObject({ status: 'failed', failureCode: 'expired' });
    } finally {
      offsetMs -= 1900_000;
    }
  });
});

describe('checkout by e-wallet, online banking and BillEase', () => {
  it('gcash › sends the customer to the sandbox authorisation page; authorised, the return records the payment', async () => {
    const token = await checkout();
    const started = await start(token, { method: 'gcash' });
    expect(started).toMatchObject({ kind: 'redirect', method: 'gcash' });
    if (started.kind !== 'redirect') return;
    expect(started.url).toMatch(new RegExp(`^${t.app.origin()}/sandbox/authorise/sbp_[0-9a-f]{24}$`));
    expect((await sessionOf(token)).providerAttempt).toMatchObject({ method: 'gcash', redirectUrl: started.url });
    const view = await simulatedPayment(t.app, idOf(started));
    expect(view?.payment).toMatchObject({ status: 'waiting', returnUrl: `${t.app.origin()}/checkout/${token}/return` });
    await t.app.connectors.forSettings('', { provider: 'sandbox' }).simulator!.answer(idOf(started), 'approve');
    expect(await returnFromProvider(t.app, token)).toBe(`/checkout/${token}`);
    expect((await paymentsOf(token))[0]).toMatchObject({ status: 'succeeded', paymentMethod: 'gcash' });
  });

  it('gcash › a second start sends the customer to the same authorisation page', async () => {
    const token = await checkout();
    expect(await start(token, { method: 'gcash' })).toEqual(await start(token, { method: 'gcash' }));
  });

  it('declined or let expire on the authorisation page: back on the page with the reason, open to pay again', async () => {
    for (const [answer, code] of [
      ['decline', 'cancelled'],
      ['expire', 'expired'],
    ] as const) {
      const token = await checkout();
      const started = await start(token, { method: 'paymaya' });
      await t.app.connectors.forSettings('', { provider: 'sandbox' }).simulator!.answer(idOf(started), answer);
      expect(await returnFromProvider(t.app, token)).toBe(`/checkout/${token}?payment=${code}`);
      expect((await paymentsOf(token))[0]).toMatchObject({ status: 'failed', paymentMethod: 'paymaya', failureCode: code });
      expect((await sessionOf(token)).status).toBe('open');
    }
  });

  it('coming back without paying ends the attempt (cancelled): the authorisation page can no longer pay it', async () => {
    const token = await checkout();
    const started = await start(token, { method: 'grab_pay' });
    expect(await returnFromProvider(t.app, token)).toBe(`/checkout/${token}?payment=cancelled`);
    expect((await answerSimulatedPayment(t.app, idOf(started), 'approve', '203.0.113.9'))?.payment.status).toBe('declined');
    expect(await chargesOf(idOf(started))).toHaveLength(0);
    expect(await checkoutStatus(t.app, token)).toEqual({ status: 'declined', method: 'grab_pay', declineCode: 'cancelled' });
  });

  it('another method chosen while one waits ends the waiting one first: only the new one can be paid', async () => {
    const token = await checkout();
    const wallet = await start(token, { method: 'shopeepay' });
    const qr = await start(token, { method: 'qrph' });
    expect(qr.kind).toBe('qr');
    expect((await answerSimulatedPayment(t.app, idOf(wallet), 'approve', '203.0.113.9'))?.payment.status).toBe('declined');
    await answerSimulatedPayment(t.app, idOf(qr), 'approve', '203.0.113.9');
    const all = await paymentsOf(token);
    expect(all.map((p) => [p.paymentMethod, p.status]).sort()).toEqual([
      ['qrph', 'succeeded'],
      ['shopeepay', 'failed'],
    ]);
  });

  it('a card paid while a QR code waits ends the code first', async () => {
    const token = await checkout();
    const qr = await start(token, { method: 'qrph' });
    const outcome = await payCheckout(t.app, {
      token,
      input: { card: { number: '4242424242424242', expiry: CARD_EXPIRY, cvc: '123', name: 'Juan Dela Cruz' }, fields: customer },
    });
    expect(outcome.status).toBe('succeeded');
    expect((await answerSimulatedPayment(t.app, idOf(qr), 'approve', '203.0.113.9'))?.payment.status).toBe('declined');
    expect((await paymentsOf(token)).filter((p) => p.status === 'succeeded')).toHaveLength(1);
  });

  it('online banking › takes a bank of the method and refuses one missing or of another method', async () => {
    const token = await checkout();
    await expect(start(token, { method: 'dob' })).rejects.toMatchObject({ code: 'ER.02.30', messages: { bank: ['Choose your bank'] } });
    await expect(start(token, { method: 'dob', bank: 'bdo' })).rejects.toMatchObject({ code: 'ER.02.30', messages: { bank: ['must be one of bpi, ubp'] } });
    await expect(start(token, { method: 'gcash', bank: 'bpi' })).rejects.toMatchObject({ code: 'ER.02.30', messages: { bank: ['GCash takes no bank'] } });
    // Online banking also needs the customer's phone (PayMongo's rule, which the sandbox keeps).
    await expect(start(token, { method: 'brankas', bank: 'metrobank' })).rejects.toMatchObject({
      code: 'ER.02.30',
      messages: { 'customer.contact.mobile': [expect.any(String)] },
    });
    const started = await start(token, { method: 'brankas', bank: 'metrobank', fields: { 'customer.contact.mobile': '+639171234567' } });
    expect((await simulatedPayment(t.app, idOf(started)))?.payment).toMatchObject({ method: 'brankas', bank: 'metrobank' });
    expect((await sessionOf(token)).providerAttempt).toMatchObject({ method: 'brankas', bank: 'metrobank' });
  });

  it('online banking › the payment keeps its bank; a UnionBank one is refused a refund before anything is reserved, a BPI one is refunded', async () => {
    const [integrator] = await t.app.db.select().from(integrators).where(eq(integrators.name, 'Acme Books'));
    const paidThrough = async (bank: string) => {
      const token = await checkout();
      const started = await start(token, { method: 'dob', bank, fields: { 'customer.contact.mobile': '+639171234567' } });
      await t.app.connectors.forSettings('', { provider: 'sandbox' }).simulator!.answer(idOf(started), 'approve');
      expect(await returnFromProvider(t.app, token)).toBe(`/checkout/${token}`);
      const [paid] = await paymentsOf(token);
      expect(paid).toMatchObject({ status: 'succeeded', paymentMethod: 'dob', paymentBank: bank });
      return paid!;
    };
    const unionBank = await paidThrough('ubp');
    for (const amount of [undefined, '10.00']) {
      await expect(refundPayment(t.app, integrator!, { transactionId: unionBank.id, notifyUser: false, reason: 'Returned', amount })).rejects.toMatchObject({
        code: 'ER.20.28',
        messages: { transaction_id: ['This acquirer cannot refund payments made by Online banking through UnionBank.'] },
        data: { payment_method: 'dob', bank: 'ubp', refusal_reason: 'method' },
      });
    }
    expect(await t.app.db.select().from(refunds).where(eq(refunds.paymentId, unionBank.id))).toEqual([]);
    const [after] = await t.app.db.select().from(payments).where(eq(payments.id, unionBank.id));
    expect(after).toMatchObject({ refundedMinor: 0n, refundReservedMinor: 0n, refundCount: 0, refundVersion: unionBank.refundVersion });
    // The same method through BPI keeps its own rule: refundable within 30 days.
    const bpi = await paidThrough('bpi');
    const refunded = await refundPayment(t.app, integrator!, { transactionId: bpi.id, notifyUser: false, reason: 'Returned' });
    expect(refunded.refund).toMatchObject({ status: 'succeeded', amountMinor: bpi.amountMinor });
  });

  it('BillEase › asks for the e-mail and phone it requires, and keeps them with the payment', async () => {
    const token = await checkout();
    const refused = start(token, { method: 'billease', fields: { 'customer.contact.email': 'not-an-email' } });
    await expect(refused).rejects.toMatchObject({ code: 'ER.02.30' });
    const messages = (await refused.catch((e) => e)).messages;
    expect(Object.keys(messages).sort()).toEqual(['customer.contact.email', 'customer.contact.mobile']);
    expect(messages['customer.contact.mobile']).toHaveLength(1);
    expect((await sessionOf(token)).attempts).toBe(0);
    const started = await start(token, {
      method: 'billease',
      fields: { 'customer.contact.email': 'juan@example.com', 'customer.contact.mobile': '+639171234567' },
    });
    await t.app.connectors.forSettings('', { provider: 'sandbox' }).simulator!.answer(idOf(started), 'approve');
    await returnFromProvider(t.app, token);
    expect((await paymentsOf(token))[0]).toMatchObject({ paymentMethod: 'billease', customerEmail: 'juan@example.com' });
  });
});

describe('checkout by a local method › refusals', () => {
  it('refuses an unknown method, and cards (the card form pays those)', async () => {
    const token = await checkout();
    await expect(start(token, { method: 'cash' })).rejects.toMatchObject({ code: 'ER.02.30', messages: { method: [expect.stringContaining('qrph')] } });
    await expect(start(token, { method: 'card' })).rejects.toMatchObject({ code: 'ER.03.40' });
  });

  it("refuses a method the link does not offer, and one outside the method's currency", async () => {
    await expect(start(await checkout('acme-cards'), { method: 'qrph' })).rejects.toMatchObject({
      code: 'ER.03.40',
      messages: { method: [expect.stringContaining('QR Ph')] },
    });
    expect((await start(await checkout('acme-cards'), { method: 'gcash' })).kind).toBe('redirect');
    const usd = await createDynamicLink(t.app, (await findActiveLink(t.app.db, 'other-shop'))!, { key: seed.integrators[1]!.token });
    await expect(start(new URL(usd.url).pathname.split('/')[2]!, { method: 'gcash' })).rejects.toMatchObject({
      code: 'ER.03.40',
      messages: { method: ['GCash takes only PHP. Choose another way to pay.'] },
    });
  });

  it("refuses an amount under the method's minimum (PHP 20.00) before anything starts", async () => {
    const token = await checkout('acme-cheap');
    await expect(start(token, { method: 'gcash' })).rejects.toMatchObject({
      code: 'ER.02.30',
      messages: { amount: ['must be at least 20.00 PHP to pay by GCash'] },
    });
    expect((await sessionOf(token)).attempts).toBe(0);
  });

  it('refuses a paid session with the receipt, never a second payment', async () => {
    const token = await checkout();
    const started = await start(token, { method: 'qrph' });
    await answerSimulatedPayment(t.app, idOf(started), 'approve', '203.0.113.9');
    await expect(start(token, { method: 'gcash' })).rejects.toMatchObject({ code: 'ER.03.22' });
  });
});

describe('checkout by a local method › concurrency', () => {
  it('parallel starts answer one attempt: one code, one sandbox payment', async () => {
    const token = await checkout();
    const all = await Promise.allSettled(Array.from({ length: 6 }, () => start(token, { method: 'qrph' })));
    const answered = all.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(answered.length).toBeGreaterThanOrEqual(1);
    expect(new Set(answered.map(idOf)).size).toBe(1);
    for (const r of all) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'ER.03.24' });
    expect((await sessionOf(token)).attempts).toBe(1);
  });

  it('approve racing expiry and cancel: one outcome, charged at most once, recorded once', async () => {
    const sandbox = t.app.connectors.forSettings('', { provider: 'sandbox' });
    for (let round = 0; round < 5; round++) {
      const token = await checkout();
      const started = await start(token, { method: 'qrph' });
      const id = idOf(started);
      await Promise.allSettled([
        answerSimulatedPayment(t.app, id, 'approve', '203.0.113.9'),
        sandbox.cancelPayment!(id),
        answerSimulatedPayment(t.app, id, 'approve', '203.0.113.9'),
        returnFromProvider(t.app, token),
      ]);
      await checkoutStatus(t.app, token);
      const final = await sandbox.syncPayment(id);
      const recorded = await paymentsOf(token);
      expect(recorded).toHaveLength(1);
      expect(recorded[0]!.status).toBe(final.status === 'succeeded' ? 'succeeded' : 'failed');
      expect((await chargesOf(id)).length).toBe(final.status === 'succeeded' ? 1 : 0);
      const session = await sessionOf(token);
      expect(session.status).toBe(final.status === 'succeeded' ? 'paid' : 'open');
      expect(
        await t.app.db
          .select()
          .from(payments)
          .where(and(eq(payments.checkoutSessionId, session.id), eq(payments.status, 'succeeded'))),
      ).toHaveLength(final.status === 'succeeded' ? 1 : 0);
    }
  });
});

describe('checkout status', () => {
  it('answers undefined for an unknown token, open for a fresh checkout', async () => {
    expect(await checkoutStatus(t.app, 'nope')).toBeUndefined();
    expect(await checkoutStatus(t.app, await checkout())).toEqual({ status: 'open' });
  });

  it('asks the acquirer about a session at most every few seconds', async () => {
    const token = await checkout();
    const started = await start(token, { method: 'qrph' });
    await checkoutStatus(t.app, token);
    // Paid at the sandbox without telling paylink: the next poll inside the interval does not ask.
    await t.app.connectors.forSettings('', { provider: 'sandbox' }).simulator!.answer(idOf(started), 'approve');
    expect((await checkoutStatus(t.app, token))?.status).toBe('awaiting_scan');
    await new Promise((r) => setTimeout(r, 3100));
    expect((await checkoutStatus(t.app, token))?.status).toBe('succeeded');
  });

  it('says nothing of a closed session but that it is closed', async () => {
    const token = await checkout();
    await t.app.db
      .update(checkoutSessions)
      .set({ expiresAt: new Date(0) })
      .where(eq(checkoutSessions.id, (await sessionOf(token)).id));
    expect(await checkoutStatus(t.app, token)).toEqual({ status: 'expired' });
  });
});
