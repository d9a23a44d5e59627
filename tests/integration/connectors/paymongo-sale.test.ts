import { and, eq, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions, links, payments, promotionRedemptions, promotions } from '../../../src/db/schema.ts';
import { type ProviderAttempt, settleProviderPayment, startProviderAttempt } from '../../../src/domain/checkout/provider-pay.ts';
import { quoteSale } from '../../../src/domain/checkout/quote.ts';
import { findSessionByToken, issueStaticTicket } from '../../../src/domain/checkout/sessions.ts';
import { DomainError } from '../../../src/domain/errors.ts';
import { createPromotion } from '../../../src/domain/promotions/service.ts';
import { promotionCreateSchema } from '../../../src/schemas/promotion.ts';
import type { TestApp } from '../../support/app.ts';
import { CARD_EXP } from '../../support/cards.ts';
import { browserPays, type FakePaymongo } from '../../support/fakes/paymongo.ts';
import { useProviderApp } from '../../support/provider-app.ts';
import { recordStatusCode } from '../../support/status-codes-seen.ts';

/**
 * A link selling items on a merchant on PayMongo (the fake), on PGlite and PostgreSQL: PayMongo's
 * ₱20.00 smallest card payment holds the server's total before any payment intent is made, and a
 * customer who leaves the card step, comes back and changes the code pays a new intent for the new
 * total (the first intent left unpaid, its code given back), never the first total.
 */
let t: TestApp;
let fake: FakePaymongo;
let linkId: string;
let offsetMs = 0;
const provider = useProviderApp('paymongo', { integrator: 0, now: () => new Date(Date.now() + offsetMs) });

const customer = { 'customer.first_name': 'Juan', 'customer.last_name': 'Dela Cruz', 'customer.contact.email': 'juan@example.com' };
const items = [
  { id: 'sticker', name: { en: 'Sticker', fil: 'Istiker' }, unit_amount_minor: '500', quantity: { min: 0, max: 10, default: 1 } },
  { id: 'shirt', name: { en: 'Shirt' }, unit_amount_minor: '50000', quantity: { min: 0, max: 5, default: 0 } },
];

beforeAll(async () => {
  ({ fake, t } = provider);
  const [link] = await t.app.db.update(links).set({ amountMinor: null, items, promotionCodes: true }).where(eq(links.slug, 'acme-books')).returning();
  linkId = link!.id;
  for (const [code, percent] of [
    ['TEN', 10],
    ['TWENTY', 20],
    ['NINETY', 90],
  ] as const) {
    await createPromotion(t.app, link!.integratorId, promotionCreateSchema.parse({ code, discount: { kind: 'percent', percent } }));
  }
});

const codeOf = (error: unknown) => {
  if (error instanceof DomainError) recordStatusCode({ data: { status_code: error.code } });
  return error;
};
const start = (ticket: string, more: Record<string, unknown>) =>
  startProviderAttempt(t.app, { slug: 'acme-books', input: { session: ticket, fields: customer, ...more }, clientIp: '203.0.113.30' });
const redeemed = async (code: string) => (await t.app.db.select().from(promotions).where(eq(promotions.code, code)))[0]!.redeemed;

describe('paymongo › a sale held to the smallest card payment', () => {
  it('a ₱5.00 basket and a code leaving ₱5.00 are refused before any intent, in the page language', async () => {
    const intents = fake.requests.filter((r) => r.path === '/v1/payment_intents').length;
    const basket = await start(issueStaticTicket(t.app, linkId), { quantity: { sticker: '1' }, amount_locale: 'fil-PH' }).catch(codeOf);
    expect(basket).toMatchObject({ code: 'ER.06.09', messages: { total: ['₱20.00 ang pinakamaliit na bayad na tinatanggap dito: dagdagan ang iyong order'] } });
    const code = await start(issueStaticTicket(t.app, linkId), { quantity: { sticker: '10' }, promo_code: 'NINETY' }).catch(codeOf);
    expect(code).toMatchObject({
      code: 'ER.06.08',
      messages: { promo_code: ['With this code the total would be below ₱20.00, the smallest payment taken here'] },
    });
    expect(await redeemed('NINETY')).toBe(0);
    expect(fake.requests.filter((r) => r.path === '/v1/payment_intents').length).toBe(intents);
    // The card page's quote says it too (PayMongo's card: ₱20.00).
    const quote = await quoteSale(t.app, { slug: 'acme-books', input: { quantity: { sticker: '3' } }, locale: 'en' });
    expect(quote.say).toEqual({ total: 'The smallest payment taken here is ₱20.00: add to your order' });
  });
});

describe('paymongo › coming back to the card step with another code', () => {
  it('the first intent is left unpaid and its code given back; the new intent is for the new total and pays it', async () => {
    const ticket = issueStaticTicket(t.app, linkId);
    const order = { quantity: { sticker: '0', shirt: '2' } };
    const first = (await start(ticket, { ...order, promo_code: 'TEN' })) as ProviderAttempt;
    expect(await redeemed('TEN')).toBe(1);
    // At once, another order is refused: the browser may be paying the first intent right now.
    expect(await start(ticket, { ...order, promo_code: 'TWENTY' }).catch(codeOf)).toMatchObject({ code: 'ER.03.24' });
    // Past the attempt's lease, the same order resumes the same intent; another ends it.
    offsetMs += 150_000;
    expect(((await start(ticket, { ...order, promo_code: 'ten' })) as ProviderAttempt).providerPaymentId).toBe(first.providerPaymentId);
    offsetMs += 150_000;
    const changed = (await start(ticket, { ...order, promo_code: 'TWENTY' })) as ProviderAttempt;
    expect(changed.providerPaymentId).not.toBe(first.providerPaymentId);
    expect({ ten: await redeemed('TEN'), twenty: await redeemed('TWENTY') }).toEqual({ ten: 0, twenty: 1 });
    const session = (await findSessionByToken(t.app.db, ticket.split('.')[0]!))!;
    expect(session.providerAttempt).toMatchObject({ amountMinor: '80000', sale: { discount: { code: 'TWENTY' } } });
    const held = await t.app.db.select().from(promotionRedemptions).where(isNull(promotionRedemptions.releasedAt));
    expect(held.map((r) => r.reference)).toEqual([`checkout:${session.id}:${session.attempts}`]);

    await browserPays(fake, changed, { number: '4343434343434345', cvc: '123', ...CARD_EXP }, changed.returnUrl);
    const res = await fetch(changed.returnUrl, { redirect: 'manual' });
    expect(res.status).toBe(303);
    const paid = await t.app.db
      .select()
      .from(payments)
      .where(and(eq(payments.checkoutSessionId, session.id), eq(payments.status, 'succeeded')));
    expect(paid.map((p) => [p.amountMinor, p.sale?.discount?.code])).toEqual([[80000n, 'TWENTY']]);
    // The first intent, were it ever paid, is not this session's attempt: nothing is recorded twice.
    expect(await settleProviderPayment(t.app, session.integratorId, { status: 'requires_payment_method', providerPaymentId: first.providerPaymentId })).toBe(
      'unchanged',
    );
    const [after] = await t.app.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, session.id));
    expect(after!.status).toBe('paid');
  });
});
