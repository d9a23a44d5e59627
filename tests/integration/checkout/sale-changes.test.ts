import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions, integrators, links, payments, promotionRedemptions, promotions } from '../../../src/db/schema.ts';
import { type MethodStarted, startMethodAttempt } from '../../../src/domain/checkout/method-pay.ts';
import { payCheckout } from '../../../src/domain/checkout/pay.ts';
import { quoteSale } from '../../../src/domain/checkout/quote.ts';
import { findSessionByToken, issueStaticTicket } from '../../../src/domain/checkout/sessions.ts';
import { answerSimulatedPayment } from '../../../src/domain/checkout/simulated.ts';
import { DomainError } from '../../../src/domain/errors.ts';
import { createPromotion } from '../../../src/domain/promotions/service.ts';
import { promotionCreateSchema } from '../../../src/schemas/promotion.ts';
import { createTestApp, defaultSeed, provision, startTestServer, type TestApp } from '../../support/app.ts';
import { CARD_EXPIRY } from '../../support/cards.ts';
import { recordStatusCode } from '../../support/status-codes-seen.ts';

/**
 * The sale's loose ends on the sandbox, on PGlite and PostgreSQL: a computed total held to the
 * smallest payment of the way to pay (QR Ph's ₱20.00; the sandbox's card has none), said in the
 * customer's language by the quote and the pay paths before any attempt; and a customer who comes
 * back to an attempt and changes the order pays what the page now shows, never the first total,
 * with the first code given back and the new one redeemed once, even when the form is sent many
 * times at once.
 */
let t: TestApp;
const seed = defaultSeed();
seed.integrators[0]!.links.push({ slug: 'acme-shop', title: 'Shop', currency: 'PHP', amount: '1.00', labels: {}, fields: {}, active: true });
let integratorId: string;
let linkId: string;

const items = [
  { id: 'sticker', name: { en: 'Sticker', fil: 'Istiker' }, unit_amount_minor: '500', quantity: { min: 0, max: 10, default: 1 } },
  { id: 'shirt', name: { en: 'Shirt' }, unit_amount_minor: '50000', quantity: { min: 0, max: 5, default: 0 } },
];

beforeAll(async () => {
  t = await createTestApp();
  await provision(t, seed);
  integratorId = (await t.app.db.select().from(integrators).where(eq(integrators.name, 'Acme Books')))[0]!.id;
  const [link] = await t.app.db
    .update(links)
    .set({ amountMinor: null, items, tip: null, questions: [], promotionCodes: true })
    .where(eq(links.slug, 'acme-shop'))
    .returning();
  linkId = link!.id;
  for (const [code, percent] of [
    ['NINETY', 90],
    ['TEN', 10],
    ['TWENTY', 20],
  ] as const) {
    await createPromotion(t.app, integratorId, promotionCreateSchema.parse({ code, discount: { kind: 'percent', percent } }));
  }
});
afterAll(() => t?.close());

const customer = { 'customer.first_name': 'Ana', 'customer.last_name': 'Reyes', 'customer.contact.email': 'ana@example.com' };
const codeOf = (error: unknown) => {
  if (error instanceof DomainError) recordStatusCode({ data: { status_code: error.code } });
  return error;
};
const qr = (ticket: string, more: Record<string, unknown>, clientIp = '203.0.113.20') =>
  startMethodAttempt(t.app, { slug: 'acme-shop', input: { session: ticket, method: 'qrph', fields: customer, ...more }, clientIp });
const promotionOf = async (code: string) => (await t.app.db.select().from(promotions).where(eq(promotions.code, code)))[0]!;
const held = async (code: string) =>
  t.app.db
    .select()
    .from(promotionRedemptions)
    .where(and(eq(promotionRedemptions.promotionId, (await promotionOf(code)).id), isNull(promotionRedemptions.releasedAt)));
const idOf = (started: MethodStarted) => (started.kind === 'qr' ? started.qr.content.split('/').pop()! : '');
const paymentsNow = async () => (await t.app.db.select().from(payments).where(eq(payments.linkId, linkId))).length;

describe('sale › the smallest payment of the way to pay', () => {
  it('a basket below QR Ph’s ₱20.00 is refused with ER.06.09 in the page language, and no attempt is made', async () => {
    const before = await paymentsNow();
    const ticket = issueStaticTicket(t.app, linkId);
    const error = await qr(ticket, { quantity: { sticker: '1' }, amount_locale: 'fil-PH' }).catch(codeOf);
    expect(error).toMatchObject({
      code: 'ER.06.09',
      httpStatus: 422,
      messages: { total: ['₱20.00 ang pinakamaliit na bayad na tinatanggap dito: dagdagan ang iyong order'] },
    });
    expect(await findSessionByToken(t.app.db, ticket.split('.')[0]!)).toBeUndefined();
    expect(await paymentsNow()).toBe(before);
    // Four stickers reach it.
    expect((await qr(issueStaticTicket(t.app, linkId), { quantity: { sticker: '4' } })).kind).toBe('qr');
  });

  it('a code that brings the total below the minimum is refused with ER.06.08 and redeems nothing; without it the order pays', async () => {
    const ticket = issueStaticTicket(t.app, linkId);
    // 10 stickers: ₱50.00; NINETY leaves ₱5.00.
    const order = { quantity: { sticker: '10' }, promo_code: 'ninety', amount_locale: 'es' };
    const error = await qr(ticket, order).catch(codeOf);
    expect(error).toMatchObject({
      code: 'ER.06.08',
      messages: { promo_code: [expect.stringMatching(/^Con este código el total quedaría por debajo de .*20[.,]00/)] },
    });
    expect(await held('NINETY')).toEqual([]);
    expect((await qr(ticket, { ...order, promo_code: '' })).kind).toBe('qr');
  });

  it('the quote says it as the customer changes a quantity or applies a code, for the method the page shows', async () => {
    const small = await quoteSale(t.app, { slug: 'acme-shop', input: { method: 'qrph', quantity: { sticker: '2' } }, locale: 'en' });
    expect(small.say).toEqual({ total: 'The smallest payment taken here is ₱20.00: add to your order' });
    const code = await quoteSale(t.app, { slug: 'acme-shop', input: { method: 'qrph', quantity: { sticker: '10' }, promo_code: 'NINETY' }, locale: 'en' });
    // The order's lines stay in view without the code.
    expect(code.say).toEqual({
      promo_code: 'With this code the total would be below ₱20.00, the smallest payment taken here',
      'sum.subtotal': '₱50.00',
      'sum.total': '₱50.00',
    });
    // The sandbox's card has no minimum: the same basket is quoted, and paid, by card.
    const card = await quoteSale(t.app, { slug: 'acme-shop', input: { quantity: { sticker: '2' } }, locale: 'en' });
    expect(card.say['sum.total']).toBe('₱10.00');
    const outcome = await payCheckout(t.app, {
      slug: 'acme-shop',
      input: {
        session: issueStaticTicket(t.app, linkId),
        fields: customer,
        quantity: { sticker: '2' },
        card: { number: '4242424242424242', expiry: CARD_EXPIRY, cvc: '123', name: 'Ana Reyes' },
      },
      clientIp: '203.0.113.21',
    });
    expect(outcome).toMatchObject({ status: 'succeeded', payment: { amountMinor: 1000n } });
  });

  it('a 100 % code is still refused as making the payment free (ER.06.03)', async () => {
    await createPromotion(t.app, integratorId, promotionCreateSchema.parse({ code: 'ALLOFF', discount: { kind: 'percent', percent: 100 } }));
    const error = await qr(issueStaticTicket(t.app, linkId), { quantity: { shirt: '1' }, promo_code: 'ALLOFF' }).catch(codeOf);
    expect(error).toMatchObject({ code: 'ER.06.03', messages: { promo_code: ['This code would make the payment free, so it cannot be used here'] } });
  });
});

describe('sale › coming back to an attempt with another order', () => {
  it('the same order answers the same QR code; a changed code ends it, gives the first code back and pays the new total', async () => {
    const ticket = issueStaticTicket(t.app, linkId);
    // 2 shirts: ₱1,000.00; TEN: ₱900.00; TWENTY: ₱800.00.
    const first = await qr(ticket, { quantity: { sticker: '0', shirt: '2' }, promo_code: 'TEN' });
    const again = await qr(ticket, { quantity: { sticker: '0', shirt: '2' }, promo_code: 'ten' });
    expect(idOf(again)).toBe(idOf(first));
    expect(await held('TEN')).toHaveLength(1);

    const changed = await qr(ticket, { quantity: { sticker: '0', shirt: '2' }, promo_code: 'TWENTY' });
    expect(idOf(changed)).not.toBe(idOf(first));
    expect(await held('TEN')).toEqual([]);
    expect(await held('TWENTY')).toHaveLength(1);
    const session = (await findSessionByToken(t.app.db, ticket.split('.')[0]!))!;
    expect(session.providerAttempt).toMatchObject({ amountMinor: '80000', sale: { discount: { code: 'TWENTY', amount_minor: '20000' } } });
    // The first code can no longer be paid; the new one pays what the page showed.
    expect(await answerSimulatedPayment(t.app, idOf(first), 'approve', '203.0.113.20')).toMatchObject({
      payment: { status: 'declined', declineCode: 'cancelled' },
    });
    await answerSimulatedPayment(t.app, idOf(changed), 'approve', '203.0.113.20');
    const paid = await t.app.db.select().from(payments).where(eq(payments.checkoutSessionId, session.id));
    expect(paid.map((p) => [p.status, p.amountMinor, p.sale?.discount?.code ?? null])).toEqual([
      ['failed', 90000n, 'TEN'],
      ['succeeded', 80000n, 'TWENTY'],
    ]);
  });

  it('a changed quantity on a code kept: a new attempt for the new total, the code held once', async () => {
    const ticket = issueStaticTicket(t.app, linkId);
    const before = (await promotionOf('TEN')).redeemed;
    const first = await qr(ticket, { quantity: { sticker: '0', shirt: '1' }, promo_code: 'TEN' });
    const more = await qr(ticket, { quantity: { sticker: '0', shirt: '3' }, promo_code: 'TEN' });
    expect(idOf(more)).not.toBe(idOf(first));
    expect((await promotionOf('TEN')).redeemed).toBe(before + 1);
    const session = (await findSessionByToken(t.app.db, ticket.split('.')[0]!))!;
    expect(session.providerAttempt).toMatchObject({ amountMinor: '135000' });
    expect(await held('TEN')).toEqual([expect.objectContaining({ reference: `checkout:${session.id}:${session.attempts}`, discountMinor: 15000n })]);
  });

  it('the changed order sent 8 times at once: one new attempt, the first code released once, the new one redeemed once', async () => {
    const ticket = issueStaticTicket(t.app, linkId);
    const order = { quantity: { sticker: '0', shirt: '1' } };
    const first = await qr(ticket, { ...order, promo_code: 'TEN' });
    const counts = { ten: (await promotionOf('TEN')).redeemed, twenty: (await promotionOf('TWENTY')).redeemed };
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => qr(ticket, { ...order, promo_code: 'TWENTY' }, `198.51.100.${40 + i}`)));
    const started = results.flatMap((r) => (r.status === 'fulfilled' ? [idOf(r.value)] : []));
    for (const r of results) if (r.status === 'rejected') expect(codeOf(r.reason)).toMatchObject({ code: 'ER.03.24' });
    expect(started.length).toBeGreaterThan(0);
    expect(new Set(started).size).toBe(1);
    expect(started[0]).not.toBe(idOf(first));
    expect((await promotionOf('TEN')).redeemed).toBe(counts.ten - 1);
    expect((await promotionOf('TWENTY')).redeemed).toBe(counts.twenty + 1);
    await answerSimulatedPayment(t.app, started[0]!, 'approve', '203.0.113.20');
    const session = (await findSessionByToken(t.app.db, ticket.split('.')[0]!))!;
    const paid = await t.app.db
      .select()
      .from(payments)
      .where(and(eq(payments.checkoutSessionId, session.id), eq(payments.status, 'succeeded')));
    expect(paid.map((p) => [p.amountMinor, p.sale?.discount?.code])).toEqual([[40000n, 'TWENTY']]);
  });

  it('an interrupted card attempt is resumed only with the code it holds', async () => {
    const ticket = issueStaticTicket(t.app, linkId);
    const token = ticket.split('.')[0]!;
    const card = { number: '4242424242424242', expiry: CARD_EXPIRY, cvc: '123', name: 'Ana Reyes' };
    const pay = (code: string) =>
      payCheckout(t.app, {
        slug: 'acme-shop',
        input: { session: ticket, fields: customer, quantity: { sticker: '0', shirt: '1' }, promo_code: code, card },
        clientIp: '203.0.113.22',
      });
    // A QR attempt with TEN, then the session's attempt left interrupted (its answer unknown).
    await qr(ticket, { quantity: { sticker: '0', shirt: '1' }, promo_code: 'TEN' });
    const session = (await findSessionByToken(t.app.db, token))!;
    await t.app.db
      .update(checkoutSessions)
      .set({ providerAttempt: null, providerPaymentId: null, processingAt: new Date(0) })
      .where(eq(checkoutSessions.id, session.id));
    const before = (await promotionOf('TWENTY')).redeemed;
    expect(await pay('TWENTY').catch(codeOf)).toMatchObject({ code: 'ER.03.24', messages: { '(request)': [expect.stringContaining('same choices')] } });
    expect((await promotionOf('TWENTY')).redeemed).toBe(before);
    expect(await pay('TEN')).toMatchObject({ status: 'succeeded', payment: { amountMinor: 45000n, sale: { discount: { code: 'TEN' } } } });
  });

  it('an expired QR code of an order offers no new code for the first choices: the customer chooses again on the page', async () => {
    const ticket = issueStaticTicket(t.app, linkId);
    const token = ticket.split('.')[0]!;
    await qr(ticket, { quantity: { sticker: '0', shirt: '1' }, promo_code: 'TEN' });
    const session = (await findSessionByToken(t.app.db, token))!;
    const attempt = session.providerAttempt!;
    await t.app.db
      .update(checkoutSessions)
      .set({ providerAttempt: { ...attempt, qr: { ...attempt.qr!, expiresAt: new Date(Date.now() - 60_000).toISOString() } } })
      .where(eq(checkoutSessions.id, session.id));
    const server = await startTestServer(t.app);
    try {
      const html = await (await fetch(`${server.url}/checkout/${token}`)).text();
      expect(html).toContain('data-testid="qr-expired"');
      expect(html).not.toContain(`action="/checkout/${token}/method"`);
      expect(html).toContain(`href="/checkout/${token}?choose=1"`);
    } finally {
      await server.close();
    }
  });
});
