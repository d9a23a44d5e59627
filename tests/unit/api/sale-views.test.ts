import { describe, expect, it } from 'vitest';
import { consoleSale } from '../../../src/api/presenters/console-payments.ts';
import { saleView } from '../../../src/api/presenters/sale.ts';
import type { Payment } from '../../../src/db/schema.ts';
import { renderEmail } from '../../../src/domain/notifications/email/templates.ts';
import { EMPTY_EMAIL_VIEW, type EmailView } from '../../../src/domain/notifications/email/view.ts';
import { inLocale, saleSummary } from '../../../src/domain/payments/sale-summary.ts';
import type { PaymentSale, Question } from '../../../src/schemas/link-sale.ts';

const sale = (over: Partial<PaymentSale> = {}): PaymentSale => ({
  lines: [{ id: 'coffee', name: { en: 'Coffee', fil: 'Kape' }, unit_amount_minor: '12050', quantity: 3, amount_minor: '36150' }],
  subtotal_minor: '36150',
  discount: { code: 'LAUNCH10', promotion_id: 'promo_1', amount_minor: '3615' },
  tip_minor: '500',
  answers: { table: 7, pickup: '2026-12-01' },
  ...over,
});

describe('sale › the API view', () => {
  it('turns minor units into decimal strings of the currency and keeps ids, names, quantities and answers', () => {
    expect(saleView(sale(), 'PHP')).toEqual({
      lines: [{ id: 'coffee', name: { en: 'Coffee', fil: 'Kape' }, unit_amount: '120.50', quantity: 3, amount: '361.50' }],
      subtotal: '361.50',
      discount: { code: 'LAUNCH10', amount: '36.15' },
      tip: '5.00',
      answers: { table: 7, pickup: '2026-12-01' },
    });
  });

  it('follows the currency’s exponent: no decimals for JPY, three for KWD', () => {
    const s = sale({ lines: [], subtotal_minor: '1500', discount: null, tip_minor: '0', answers: {} });
    expect(saleView(s, 'JPY')).toMatchObject({ subtotal: '1500', tip: '0', discount: null });
    expect(saleView(s, 'KWD')).toMatchObject({ subtotal: '1.500', tip: '0.000' });
  });

  it('is null for a payment of one amount with nothing asked', () => {
    expect(saleView(null, 'PHP')).toBeNull();
  });
});

describe('sale › the customer’s receipt summary', () => {
  it('names each item in the customer’s language, English where the merchant wrote none in it', () => {
    expect(inLocale({ en: 'Coffee', fil: 'Kape' }, 'fil')).toBe('Kape');
    expect(inLocale({ en: 'Coffee', fil: '  ' }, 'fil')).toBe('Coffee');
    expect(inLocale({ en: 'Coffee' }, 'es')).toBe('Coffee');
  });

  it('formats the amounts for the customer’s language and shows the discount as taken off', () => {
    expect(saleSummary(sale(), 'PHP', 'fil')).toEqual({
      lines: [{ name: 'Kape', quantity: 3, unit: '₱120.50', amount: '₱361.50' }],
      subtotal: '₱361.50',
      discount: { code: 'LAUNCH10', amount: '−₱36.15' },
      tip: '₱5.00',
    });
  });

  it('leaves out a zero tip, no discount and then the subtotal too', () => {
    expect(saleSummary(sale({ discount: null, tip_minor: '0' }), 'PHP', 'en')).toMatchObject({ subtotal: null, discount: null, tip: null });
  });
});

describe('sale › the console’s payment page', () => {
  const questions: Question[] = [
    { id: 'size', type: 'dropdown', required: true, label: { en: 'Size' }, options: [{ value: 'large', label: { en: 'Large (16 oz)' } }] },
    { id: 'terms', type: 'checkbox', required: false, label: { en: 'Accept terms' } },
    { id: 'table', type: 'number', required: false, label: { en: 'Table number' } },
  ];
  const record = (s: PaymentSale | null) => ({ payment: { sale: s, currency: 'PHP' } as Payment, linkQuestions: questions });

  it('puts answers in the link’s question order with their labels; a dropdown by its option’s label, a box as Yes or No', () => {
    const view = consoleSale(record(sale({ answers: { terms: false, size: 'large', table: 7 } })));
    expect(view?.answers).toEqual([
      { id: 'size', label: 'Size', value: 'Large (16 oz)', removed: false },
      { id: 'terms', label: 'Accept terms', value: 'No', removed: false },
      { id: 'table', label: 'Table number', value: '7', removed: false },
    ]);
  });

  it('names a question since removed from the link by its id, after the others', () => {
    const view = consoleSale(record(sale({ answers: { pickup: '2026-12-01', table: 3 } })));
    expect(view?.answers).toEqual([
      { id: 'table', label: 'Table number', value: '3', removed: false },
      { id: 'pickup', label: 'pickup', value: '2026-12-01', removed: true },
    ]);
  });

  it('words each line as quantity × unit price, the discount as taken off, and no tip when there is none', () => {
    expect(consoleSale(record(sale({ tip_minor: '0' })))).toMatchObject({
      lines: [{ name: 'Coffee', detail: '3 × ₱120.50', amount: '₱361.50' }],
      subtotal: '₱361.50',
      discount: { code: 'LAUNCH10', amount: '−₱36.15' },
      tip: null,
    });
  });

  it('is null for a payment without a sale', () => {
    expect(consoleSale(record(null))).toBeNull();
  });
});

describe('sale › the receipt e-mail', () => {
  const view: EmailView = { ...EMPTY_EMAIL_VIEW, amount: '330.35', currency: 'PHP', transactionId: 'txn_1', paymentMethod: 'card', sale: sale() };
  const render = (type: string, v = view, locale: 'en' | 'es' = 'en') =>
    renderEmail({ type, view: v, createdAt: new Date('2026-11-26T10:00:00Z'), merchant: { name: 'Café Uno', locale } });

  it('lists the lines, the discount with its code, the tip and the total in the text and the HTML', () => {
    const mail = render('payment.succeeded');
    expect(mail.text).toContain(
      'What you bought\nCoffee: 3 × ₱120.50 = ₱361.50\nSubtotal: ₱361.50\nDiscount (LAUNCH10): −₱36.15\nTip: ₱5.00\nTotal: ₱330.35\n',
    );
    expect(mail.html).toContain('<h2 style="font-size:16px;margin:0 0 4px">What you bought</h2>');
    expect(mail.html).toContain('>Total</th>');
  });

  it('speaks the e-mail’s language', () => {
    const mail = render('payment.succeeded', view, 'es');
    expect(mail.text).toContain('Lo que compraste');
    expect(mail.text).toContain('Descuento (LAUNCH10)');
    expect(mail.text).toContain('Propina');
  });

  it('escapes what the merchant wrote', () => {
    const hostile = { ...view, sale: sale({ lines: [{ ...sale().lines[0]!, name: { en: '<b>Coffee</b>' } }] }) };
    expect(render('payment.succeeded', hostile).html).toContain('&lt;b&gt;Coffee&lt;/b&gt;');
  });

  it('lists nothing on a refund’s e-mail, a payment without a sale, or a view written before sales were recorded', () => {
    expect(render('refund.succeeded').text).not.toContain('What you bought');
    expect(render('payment.succeeded', { ...view, sale: null }).text).not.toContain('What you bought');
    const { sale: _sale, ...older } = view;
    expect(render('payment.succeeded', older).text).not.toContain('What you bought');
  });
});
