import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { links, outboxEvents, payments } from '../../../src/db/schema.ts';
import { renderEmail } from '../../../src/domain/notifications/email/templates.ts';
import { emailContext, storedEmailView } from '../../../src/domain/notifications/mail.ts';
import type { PaymentSale, Question } from '../../../src/schemas/link-sale.ts';
import { CONSOLE_USERS, call, TEST_TOKEN, useServedApp } from '../../support/app.ts';
import { CARD_EXPIRY } from '../../support/cards.ts';
import { ConsoleClient, textOf } from '../../support/console.ts';
import { createPayment } from '../../support/payments.ts';

/**
 * What a payment bought (payments.sale), carried everywhere the payment appears: the transactions
 * API, its payment.succeeded event (the callback body), the console's payment page and CSV, the
 * customer's receipt page and receipt e-mail. Payments are given a sale directly, as the payment
 * page records it. Runs on PGlite and PostgreSQL.
 */
const served = useServedApp();
const db = () => served.t.app.db;

const SALE: PaymentSale = {
  lines: [
    { id: 'pass', name: { en: 'Yoga class pass', fil: 'Pases sa yoga', es: 'Pase de yoga' }, unit_amount_minor: '15000', quantity: 2, amount_minor: '30000' },
    { id: 'mat', name: { en: 'Mat rental' }, unit_amount_minor: '5000', quantity: 1, amount_minor: '5000' },
  ],
  subtotal_minor: '35000',
  discount: { code: 'LAUNCH10', promotion_id: 'promo_1', amount_minor: '3500' },
  tip_minor: '3150',
  answers: { class: 'morning', student_no: 'S-1042', consent: true, old_question: 'kept' },
};
// 350.00 − 35.00 + 31.50
const TOTAL = '346.50';

const QUESTIONS: Question[] = [
  { id: 'student_no', type: 'text', max_length: 20, required: true, label: { en: 'Student number' } },
  {
    id: 'class',
    type: 'dropdown',
    required: true,
    label: { en: 'Which class?', fil: 'Aling klase?' },
    options: [
      { value: 'morning', label: { en: 'Morning flow' } },
      { value: 'evening', label: { en: 'Evening calm' } },
    ],
  },
  { id: 'consent', type: 'checkbox', required: true, label: { en: 'I accept the studio rules' } },
];

const expectedSale = {
  lines: [
    { id: 'pass', name: { en: 'Yoga class pass', fil: 'Pases sa yoga', es: 'Pase de yoga' }, unit_amount: '150.00', quantity: 2, amount: '300.00' },
    { id: 'mat', name: { en: 'Mat rental' }, unit_amount: '50.00', quantity: 1, amount: '50.00' },
  ],
  subtotal: '350.00',
  discount: { code: 'LAUNCH10', amount: '35.00' },
  tip: '31.50',
  answers: { class: 'morning', student_no: 'S-1042', consent: true, old_question: 'kept' },
};

/** A paid payment through acme-books (which now asks QUESTIONS) that bought SALE. */
async function salePayment(opts: { notifyUser?: boolean } = {}) {
  await db().update(links).set({ questions: QUESTIONS }).where(eq(links.slug, 'acme-books'));
  return createPayment(served.t, { amount: TOTAL, linkSlug: 'acme-books', sale: SALE, notifyUser: opts.notifyUser ?? false, customerEmail: 'ana@example.com' });
}

const transaction = (id: string) => call(served.server.url, 'GET', `/api/v1/transactions/${id}`);

async function owner() {
  const c = new ConsoleClient(served.server.url);
  const res = await c.signIn(CONSOLE_USERS.acmeOwner.email, CONSOLE_USERS.acmeOwner.password);
  expect(res.status, textOf(res.html)).toBe(303);
  return c;
}

describe('payment sale › API', () => {
  it('transaction › carries what was bought, amounts as decimal strings; null for a payment of one amount', async () => {
    const p = await salePayment();
    const res = await transaction(p.id);
    expect(res.status).toBe(200);
    expect(res.json.data.transaction).toMatchObject({ amount: TOTAL, sale: expectedSale });
    const plain = await createPayment(served.t, { amount: '120.00' });
    expect((await transaction(plain.id)).json.data.transaction.sale).toBeNull();
  });

  it('transactions list › each transaction with its sale', async () => {
    const p = await salePayment();
    const res = await call(served.server.url, 'GET', `/api/v1/transactions?merchant_reference_id=${p.merchantReferenceId}`);
    expect(res.status).toBe(200);
    expect(res.json.data.items).toHaveLength(1);
    expect(res.json.data.items[0]).toMatchObject({ transaction_id: p.id, sale: expectedSale });
  });

  it('payment.succeeded › its data (the callback body) adds `sale` and keeps every other field as it was', async () => {
    const p = await salePayment();
    const [event] = await db()
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.paymentId, p.id), eq(outboxEvents.type, 'payment.succeeded')));
    const data = event!.data as Record<string, unknown>;
    expect(data.sale).toEqual(expectedSale);
    expect(data).toMatchObject({ transaction_id: p.id, status: 'succeeded', amount: TOTAL, currency: 'PHP', callback_url: p.callbackUrl, notify_user: false });
    const listed = await call(served.server.url, 'GET', `/api/v1/events?type=payment.succeeded&limit=100`);
    expect(listed.json.data.items.find((e: { data: { transaction_id: string } }) => e.data.transaction_id === p.id)?.data.sale).toEqual(expectedSale);
    const plain = await createPayment(served.t, { amount: '99.00' });
    const [plainEvent] = await db().select().from(outboxEvents).where(eq(outboxEvents.paymentId, plain.id));
    expect((plainEvent!.data as Record<string, unknown>).sale).toBeNull();
  });
});

describe('payment sale › console', () => {
  it('payment page › lists the lines, the code and its discount, the tip and the answers under their questions', async () => {
    const p = await salePayment();
    const c = await owner();
    const page = await c.get(`/console/payments/${p.id}`);
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    expect(page.html).toMatch(/<h2[^>]*>Order<\/h2>/);
    expect(text).toContain('Yoga class pass 2 × ₱150.00 ₱300.00');
    expect(text).toContain('Mat rental 1 × ₱50.00 ₱50.00');
    expect(text).toContain('Subtotal ₱350.00');
    expect(text).toContain('Discount LAUNCH10 −₱35.00');
    expect(text).toContain('Tip ₱31.50');
    expect(text).toContain('Total ₱346.50');
    // The link's order; the dropdown's label, not its value; a removed question by its id.
    expect(text).toContain('Student number S-1042 Which class? Morning flow I accept the studio rules Yes old_question (question since removed) kept');
  });

  it('payment page › shows no sale for a payment of one amount', async () => {
    const plain = await createPayment(served.t, { amount: '120.00' });
    const page = await (await owner()).get(`/console/payments/${plain.id}`);
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('data-testid="payment-sale"');
  });

  it('CSV › items, subtotal, discount code, discount, tip and the answers as JSON by question id in the link’s order; empty for one amount', async () => {
    const p = await salePayment();
    const plain = await createPayment(served.t, { amount: '120.00', merchantReferenceId: 'csv-plain' });
    const c = await owner();
    const res = await c.get('/console/payments.csv');
    expect(res.status).toBe(200);
    const [header, ...rows] = res.html.split('\r\n');
    expect(header!.endsWith(',link_title,items,subtotal,discount_code,discount,tip,answers')).toBe(true);
    const row = rows.find((r) => r.startsWith(p.id))!;
    expect(
      row.endsWith(
        ',Acme Books,2 × Yoga class pass @ 150.00; 1 × Mat rental @ 50.00,350.00,LAUNCH10,35.00,31.50,"{""student_no"":""S-1042"",""class"":""morning"",""consent"":true,""old_question"":""kept""}"',
      ),
    ).toBe(true);
    expect(rows.find((r) => r.startsWith(plain.id))!.endsWith(',,,,,,,')).toBe(true);
  });
});

describe('payment sale › customer', () => {
  it('receipt page › lists the items in the customer’s language, the discount with its code, the tip and the total', async () => {
    // Paid through the page, which asks the link's questions: this payment answers none (its sale is set below).
    await db().update(links).set({ questions: [] }).where(eq(links.slug, 'acme-books'));
    const created = await call(served.server.url, 'POST', '/pay/acme-books', { token: null, body: { key: TEST_TOKEN } });
    const path = new URL(created.json.link as string).pathname;
    const customer = { 'customer.first_name': 'Ana', 'customer.last_name': 'Reyes', 'customer.contact.email': 'ana@example.com' };
    const card = { number: '4242424242424242', expiry: CARD_EXPIRY, cvc: '123', name: 'Ana Reyes' };
    const paid = await call(served.server.url, 'POST', `${path}/pay`, { token: null, body: { fields: customer, card } });
    expect(paid.json.data.status_code, JSON.stringify(paid.json)).toBe('OK.03.00');
    await db()
      .update(payments)
      .set({ sale: { ...SALE, subtotal_minor: '35000', tip_minor: '0', discount: { ...SALE.discount!, amount_minor: '10000' } } })
      .where(eq(payments.id, paid.json.data.transaction_id));
    const fil = textOf(await (await fetch(`${served.server.url}${path}?lang=fil`)).text());
    expect(fil).toContain('Mga binili mo');
    expect(fil).toContain('Pases sa yoga 2 × ₱150.00 ₱300.00');
    // A name the merchant wrote only in English is shown in English.
    expect(fil).toContain('Mat rental 1 × ₱50.00 ₱50.00');
    expect(fil).toContain('Subtotal ₱350.00 Diskuwento (LAUNCH10) −₱100.00 Kabuuan ₱250.00');
    expect(fil).not.toContain('Tip');
    const es = textOf(await (await fetch(`${served.server.url}${path}?lang=es`)).text());
    expect(es).toMatch(/Pase de yoga 2 × \S*150,00/);
  });

  it('receipt e-mail › lists quantity × unit = amount, the discount with its code, the tip and the total', async () => {
    const p = await salePayment({ notifyUser: true });
    const [event] = await db()
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.paymentId, p.id), eq(outboxEvents.type, 'payment.succeeded')));
    const view = storedEmailView(event!);
    const { merchant, item } = await emailContext(db(), { integratorId: event!.integratorId, view });
    const mail = renderEmail({ type: event!.type, view, createdAt: event!.createdAt, merchant, item });
    expect(mail.text).toContain(
      [
        'What you bought',
        'Yoga class pass: 2 × ₱150.00 = ₱300.00',
        'Mat rental: 1 × ₱50.00 = ₱50.00',
        'Subtotal: ₱350.00',
        'Discount (LAUNCH10): −₱35.00',
        'Tip: ₱31.50',
        'Total: ₱346.50',
      ].join('\n'),
    );
    expect(mail.html).toContain('Yoga class pass<br><span style="color:#57606a;font-size:13px">2 × ₱150.00</span>');
    expect(mail.html).toContain('Discount (LAUNCH10)');
  });
});
