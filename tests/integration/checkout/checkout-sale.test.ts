import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions, integrators, links, payments, promotionRedemptions, promotions } from '../../../src/db/schema.ts';
import { type MethodStarted, startMethodAttempt } from '../../../src/domain/checkout/method-pay.ts';
import { payCheckout } from '../../../src/domain/checkout/pay.ts';
import { quoteSale } from '../../../src/domain/checkout/quote.ts';
import { releaseAbandonedCodes } from '../../../src/domain/checkout/sale.ts';
import { findSessionByToken, issueStaticTicket } from '../../../src/domain/checkout/sessions.ts';
import { answerSimulatedPayment } from '../../../src/domain/checkout/simulated.ts';
import { DomainError } from '../../../src/domain/errors.ts';
import { createPromotion } from '../../../src/domain/promotions/service.ts';
import { refundPayment } from '../../../src/domain/refunds/service.ts';
import { promotionCreateSchema } from '../../../src/schemas/promotion.ts';
import { createTestApp, defaultSeed, provision, type TestApp } from '../../support/app.ts';
import { CARD_EXPIRY } from '../../support/cards.ts';
import { recordStatusCode } from '../../support/status-codes-seen.ts';

/**
 * A link that sells items, takes a tip and a promotion code and asks questions, paid on PGlite
 * and PostgreSQL (PAYLINK_TEST_DB=postgres): the server's total on every pay path, the sale stored
 * on the payment, every wrong field refused with nothing stored, and the code's redemptions held
 * by attempts, given back when they end unpaid, never more than the code's maximum.
 */
let t: TestApp;
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);

const seed = defaultSeed();
seed.integrators[0]!.links.push(
  { slug: 'acme-yoga', title: 'Yoga passes', currency: 'PHP', amount: '1.00', labels: {}, fields: {}, active: true },
  { slug: 'acme-race', title: 'Race passes', currency: 'PHP', amount: '1.00', labels: {}, fields: {}, active: true },
);
let integratorId: string;

const sale = {
  items: [
    { id: 'pass', name: { en: 'Class pass', fil: 'Pass sa klase' }, unit_amount_minor: '50000', quantity: { min: 0, max: 4, default: 1 } },
    { id: 'mat', name: { en: 'Mat rental' }, unit_amount_minor: '15000', quantity: { min: 0, max: 2, default: 0 } },
  ],
  tip: { presets: { kind: 'percent' as const, values: [10, 15] }, custom: true },
  questions: [
    {
      id: 'class',
      type: 'dropdown' as const,
      label: { en: 'Which class?', fil: 'Aling klase?' },
      required: true,
      options: [
        { value: 'vinyasa', label: { en: 'Vinyasa' } },
        { value: 'yin', label: { en: 'Yin' } },
      ],
    },
    { id: 'student_no', type: 'text' as const, label: { en: 'Student number' }, required: false, max_length: 10 },
  ],
};

beforeAll(async () => {
  t = await createTestApp({ now: clock });
  await provision(t, seed);
  integratorId = (await t.app.db.select().from(integrators).where(eq(integrators.name, 'Acme Books')))[0]!.id;
  await t.app.db
    .update(links)
    .set({ amountMinor: null, items: sale.items, tip: sale.tip, questions: sale.questions, promotionCodes: true })
    .where(eq(links.integratorId, integratorId));
});
afterAll(() => t?.close());

const customer = { 'customer.first_name': 'Juan', 'customer.last_name': 'Dela Cruz', 'customer.contact.email': 'juan@example.com' };
const card = (number = '4242424242424242') => ({ number, expiry: CARD_EXPIRY, cvc: '123', name: 'Juan Dela Cruz' });
const linkId = async (slug: string) => (await t.app.db.select().from(links).where(eq(links.slug, slug)))[0]!.id;
const promo = (body: Record<string, unknown>) => createPromotion(t.app, integratorId, promotionCreateSchema.parse(body));
const choice = (more: Record<string, unknown> = {}) => ({
  fields: customer,
  quantity: { pass: '2' },
  tip: '0',
  promo_code: 'launch10',
  answers: { class: 'vinyasa', student_no: 'S-123' },
  ...more,
});
const payByCard = async (slug: string, more: Record<string, unknown> = {}, number?: string, clientIp = '203.0.113.9') => {
  const ticket = issueStaticTicket(t.app, await linkId(slug));
  const outcome = await payCheckout(t.app, { slug, input: { session: ticket, card: card(number), ...choice(more) }, clientIp });
  return { outcome, token: ticket.split('.')[0]! };
};
const idOf = (started: MethodStarted) => (started.kind === 'qr' ? started.qr.content.split('/').pop()! : '');
const codeOf = (error: unknown) => {
  if (error instanceof DomainError) recordStatusCode({ data: { status_code: error.code } });
  return error;
};
const redeemedOf = async (id: string) => (await t.app.db.select().from(promotions).where(eq(promotions.id, id)))[0]!.redeemed;
const heldBy = async (promotionId: string) =>
  t.app.db
    .select()
    .from(promotionRedemptions)
    .where(and(eq(promotionRedemptions.promotionId, promotionId), isNull(promotionRedemptions.releasedAt)));
const paymentsOfLink = async (slug: string) =>
  t.app.db
    .select()
    .from(payments)
    .where(eq(payments.linkId, await linkId(slug)));

// 2 passes × ₱500.00 = ₱1,000.00; 10 % off = ₱100.00; a 10 % tip of ₱900.00 = ₱90.00; total ₱990.00.
const expectedSale = {
  lines: [{ id: 'pass', name: { en: 'Class pass', fil: 'Pass sa klase' }, unit_amount_minor: '50000', quantity: 2, amount_minor: '100000' }],
  subtotal_minor: '100000',
  discount: { code: 'LAUNCH10', amount_minor: '10000' },
  tip_minor: '9000',
  answers: { class: 'vinyasa', student_no: 'S-123' },
};

describe('checkout › a link that sells items, a tip and a code', () => {
  it('paid by sandbox card: charges the server total and stores the sale; the code is held by the attempt', async () => {
    const code = await promo({ code: 'LAUNCH10', discount: { kind: 'percent', percent: 10 }, max_redemptions: 100 });
    const { outcome } = await payByCard('acme-yoga', { amount: '1.00' });
    expect(outcome).toMatchObject({ status: 'succeeded', payment: { amountMinor: 99000n, currency: 'PHP' } });
    const [paid] = await t.app.db.select().from(payments).where(eq(payments.id, outcome.payment.id));
    expect(paid!.sale).toMatchObject({ ...expectedSale, discount: { ...expectedSale.discount, promotion_id: code.id } });
    expect(await redeemedOf(code.id)).toBe(1);
    expect(await heldBy(code.id)).toMatchObject([{ discountMinor: 10000n, currency: 'PHP' }]);
  });

  it('paid by QR Ph: the code holds the amount the customer scans, and the webhook-less approval records the sale', async () => {
    const ticket = issueStaticTicket(t.app, await linkId('acme-yoga'));
    const started = await startMethodAttempt(t.app, { slug: 'acme-yoga', input: { session: ticket, method: 'qrph', ...choice() }, clientIp: '203.0.113.9' });
    expect(started.kind).toBe('qr');
    const session = await findSessionByToken(t.app.db, ticket.split('.')[0]!);
    expect(session!.providerAttempt).toMatchObject({ amountMinor: '99000', sale: expectedSale });
    await answerSimulatedPayment(t.app, idOf(started), 'approve', '203.0.113.9');
    const [paid] = await t.app.db.select().from(payments).where(eq(payments.checkoutSessionId, session!.id));
    expect(paid).toMatchObject({ status: 'succeeded', paymentMethod: 'qrph', amountMinor: 99000n, sale: expectedSale });
  });

  it('refuses wrong quantities, answers and tips by field, and stores nothing', async () => {
    const [code] = await t.app.db.select().from(promotions).where(eq(promotions.code, 'LAUNCH10'));
    const before = { payments: (await paymentsOfLink('acme-yoga')).length, redeemed: await redeemedOf(code!.id) };
    const error = await payByCard('acme-yoga', {
      quantity: { pass: '5', mat: 'x', towel: '1' },
      tip: 'custom',
      tip_amount: '1.234',
      answers: { class: 'hot', student_no: 'S-123456789012', shoe: '42' },
    }).catch(codeOf);
    expect(error).toMatchObject({
      code: 'ER.02.30',
      messages: {
        'quantity.pass': ['Class pass: Choose a quantity from 0 to 4'],
        'quantity.mat': ['Mat rental: Choose a quantity from 0 to 2'],
        'quantity.towel': ['This item is not sold on this page'],
        tip_amount: ['Type the tip as an amount in PHP'],
        'answers.class': ['Which class?: Choose one of the options'],
        'answers.student_no': ['Student number: At most 10 characters'],
        'answers.shoe': ['This page does not ask this'],
      },
    });
    const nothing = await payByCard('acme-yoga', { quantity: { pass: '0' }, answers: {} }).catch(codeOf);
    expect(nothing).toMatchObject({
      code: 'ER.02.30',
      messages: { quantity: ['Choose at least one item'], 'answers.class': ['Which class?: Answer this question'] },
    });
    const tipTooBig = await payByCard('acme-yoga', { tip: 'custom', tip_amount: '5000' }).catch(codeOf);
    expect(tipTooBig).toMatchObject({ code: 'ER.02.30', messages: { tip: ['The tip is more than what you buy: check the amount'] } });
    expect({ payments: (await paymentsOfLink('acme-yoga')).length, redeemed: await redeemedOf(code!.id) }).toEqual(before);
  });

  it('refuses a code that does not apply with ER.06.03, in the page language, and charges nothing', async () => {
    await promo({ code: 'LATER', discount: { kind: 'percent', percent: 10 }, valid_from: new Date(Date.now() + 86_400_000).toISOString() });
    await promo({ code: 'ALLFREE', discount: { kind: 'percent', percent: 100 } });
    const before = (await paymentsOfLink('acme-yoga')).length;
    const cases: [string, string, string][] = [
      ['NOPE-NOPE', 'en', 'There is no such code: check how it is written'],
      ['later', 'en', 'This code is not valid yet'],
      ['ALLFREE', 'fil-PH', 'Gagawing libre ng code na ito ang bayad, kaya hindi ito magagamit dito'],
    ];
    for (const [typed, locale, message] of cases) {
      const error = await payByCard('acme-yoga', { promo_code: typed, amount_locale: locale }).catch(codeOf);
      expect(error).toMatchObject({ code: 'ER.06.03', messages: { promo_code: [message] } });
    }
    expect((await paymentsOfLink('acme-yoga')).length).toBe(before);
  });

  it('gives the code back when the attempt fails (a declined card, a declined QR Ph code)', async () => {
    const code = await promo({ code: 'ONCE', discount: { kind: 'fixed', minor: '5000', currency: 'PHP' }, max_redemptions: 1 });
    const { outcome } = await payByCard('acme-yoga', { promo_code: 'once' }, '4000000000000002');
    expect(outcome).toMatchObject({ status: 'declined', payment: { amountMinor: 104500n } });
    expect(await redeemedOf(code.id)).toBe(0);
    expect(await heldBy(code.id)).toEqual([]);

    const ticket = issueStaticTicket(t.app, await linkId('acme-yoga'));
    const started = await startMethodAttempt(t.app, {
      slug: 'acme-yoga',
      input: { session: ticket, method: 'qrph', ...choice({ promo_code: 'ONCE' }) },
      clientIp: '203.0.113.9',
    });
    expect(await redeemedOf(code.id)).toBe(1);
    await answerSimulatedPayment(t.app, idOf(started), 'decline', '203.0.113.9');
    expect(await redeemedOf(code.id)).toBe(0);
    // Paid with it at last: the place is taken, the next customer is told it is used up.
    expect((await payByCard('acme-yoga', { promo_code: 'ONCE' })).outcome.status).toBe('succeeded');
    expect(await payByCard('acme-yoga', { promo_code: 'ONCE' }).catch(codeOf)).toMatchObject({
      code: 'ER.06.01',
      messages: { promo_code: ['This code is used up'] },
    });
  });

  it('gives back a code held by an attempt abandoned on a session that expired unpaid', async () => {
    const code = await promo({ code: 'LEFT', discount: { kind: 'percent', percent: 5 }, max_redemptions: 3 });
    const ticket = issueStaticTicket(t.app, await linkId('acme-yoga'));
    await startMethodAttempt(t.app, {
      slug: 'acme-yoga',
      input: { session: ticket, method: 'qrph', ...choice({ promo_code: 'LEFT' }) },
      clientIp: '203.0.113.9',
    });
    expect(await redeemedOf(code.id)).toBe(1);
    expect(await releaseAbandonedCodes(t.app)).toBe(0);
    // An attempt a provider still settles is the reconciler's to end; one whose answer was lost
    // (no provider payment) is given back a day after its session expired.
    const session = (await findSessionByToken(t.app.db, ticket.split('.')[0]!))!;
    await t.app.db.update(checkoutSessions).set({ providerPaymentId: null }).where(eq(checkoutSessions.id, session.id));
    expect(await releaseAbandonedCodes(t.app)).toBe(0);
    offsetMs += 3 * 86_400_000;
    try {
      expect(await releaseAbandonedCodes(t.app)).toBe(1);
      expect(await redeemedOf(code.id)).toBe(0);
    } finally {
      offsetMs -= 3 * 86_400_000;
    }
  });

  it('20 payments at once with a code that has 5 places left: 5 discounted, 15 refused with ER.06.01 and not charged', async () => {
    const code = await promo({ code: 'RACE5', discount: { kind: 'percent', percent: 10 }, max_redemptions: 8 });
    for (let i = 0; i < 3; i++) expect((await payByCard('acme-race', { promo_code: 'RACE5' })).outcome.status).toBe('succeeded');
    const before = (await paymentsOfLink('acme-race')).length;
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => payByCard('acme-race', { promo_code: 'RACE5' }, undefined, `198.51.100.${i + 1}`)),
    );
    const tally: Record<string, number> = {};
    for (const r of results) {
      const key = r.status === 'fulfilled' ? r.value.outcome.status : ((codeOf(r.reason) as DomainError).code ?? String(r.reason));
      tally[key] = (tally[key] ?? 0) + 1;
    }
    expect(tally).toEqual({ succeeded: 5, 'ER.06.01': 15 });
    const made = (await paymentsOfLink('acme-race')).slice(before);
    expect(made.map((p) => [p.status, p.amountMinor, p.sale?.discount?.code])).toEqual(Array(5).fill(['succeeded', 99000n, 'RACE5']));
    expect(await redeemedOf(code.id)).toBe(8);
  });

  it('a discounted payment refunds only what was paid', async () => {
    const [integrator] = await t.app.db.select().from(integrators).where(eq(integrators.id, integratorId));
    const { outcome } = await payByCard('acme-yoga', { promo_code: '' });
    expect(outcome.payment.amountMinor).toBe(110000n);
    const paid = (await payByCard('acme-yoga')).outcome.payment;
    expect(paid.amountMinor).toBe(99000n);
    const over = await refundPayment(t.app, integrator!, { transactionId: paid.id, notifyUser: false, reason: 'Returned', amount: '1000.00' }).catch(codeOf);
    expect(over).toMatchObject({ code: expect.stringMatching(/^ER\./) });
    const full = await refundPayment(t.app, integrator!, { transactionId: paid.id, notifyUser: false, reason: 'Returned' });
    expect(full.refund).toMatchObject({ status: 'succeeded', amountMinor: 99000n });
  });
});

describe('checkout › promotion codes guessed one after another', () => {
  it('refuses a client network that typed too many codes that do not exist with ER.06.04, even a right code', async () => {
    const limited = await createTestApp({ env: { PAYLINK_LIMIT_CARD_ATTEMPTS_PER_IP: '2/3600' } });
    try {
      await provision(limited, seed);
      const [link] = await limited.app.db.select().from(links).where(eq(links.slug, 'acme-yoga'));
      await limited.app.db.update(links).set({ amountMinor: null, items: sale.items, promotionCodes: true }).where(eq(links.id, link!.id));
      await createPromotion(limited.app, link!.integratorId, promotionCreateSchema.parse({ code: 'REAL10', discount: { kind: 'percent', percent: 10 } }));
      const tryCode = (code: string) =>
        startMethodAttempt(limited.app, {
          slug: 'acme-yoga',
          input: { session: issueStaticTicket(limited.app, link!.id), method: 'qrph', fields: customer, promo_code: code },
          clientIp: '192.0.2.7',
        }).catch(codeOf);
      expect(await tryCode('GUESS-1')).toMatchObject({ code: 'ER.06.03' });
      expect(await tryCode('GUESS-2')).toMatchObject({ code: 'ER.06.03' });
      expect(await tryCode('REAL10')).toMatchObject({ code: 'ER.06.04', messages: { promo_code: [expect.stringContaining('Too many promotion codes')] } });
    } finally {
      await limited.close();
    }
  });
});

describe('checkout › the page running total (quoteSale)', () => {
  it('words the lines in the page language, with the code applied, before the questions are answered', async () => {
    const quote = await quoteSale(t.app, { slug: 'acme-yoga', input: { quantity: { pass: '2' }, tip: '0', promo_code: 'launch10' }, locale: 'fil' });
    expect(quote.say).toEqual({
      'sum.subtotal': '₱1,000.00',
      'sum.discount_label': 'Diskwento (LAUNCH10)',
      'sum.discount': '−₱100.00',
      'sum.applied': 'Nagamit ang code na LAUNCH10: bawas na ₱100.00',
      'sum.tip_label': 'Tip',
      'sum.tip': '₱90.00',
      'sum.total': '₱990.00',
    });
    const wrong = await quoteSale(t.app, { slug: 'acme-yoga', input: { quantity: { pass: '9' }, promo_code: 'NOPE-NOPE' }, locale: 'es' });
    expect(wrong.say).toEqual({ 'quantity.pass': 'Class pass: Elige una cantidad de 0 a 4', promo_code: 'No existe ese código: revisa cómo está escrito' });
  });
});
