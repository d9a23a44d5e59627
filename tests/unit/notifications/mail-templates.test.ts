import { describe, expect, it } from 'vitest';
import { displayAmount, maskedCard, renderEmail } from '../../../src/domain/notifications/email/templates.ts';
import { EMPTY_EMAIL_VIEW, type EmailView } from '../../../src/domain/notifications/email/view.ts';
import { locales } from '../../../src/i18n/index.ts';

const createdAt = new Date('2025-06-01T10:00:00Z');
const merchant = { name: 'Acme <Books> & Co' };
const view = (says: Partial<EmailView>): EmailView => ({ ...EMPTY_EMAIL_VIEW, ...says });

describe('mail › templates', () => {
  it('formats amounts for the currency, exactly', () => {
    expect(displayAmount('250.00', 'PHP')).toBe('₱250.00');
    expect(displayAmount('1000', 'JPY')).toBe('¥1,000');
    expect(displayAmount('12.345', 'KWD')).toMatch(/^KWD\s12\.345$/);
    expect(displayAmount('9999999999999.99', 'USD')).toBe('$9,999,999,999,999.99');
    expect(displayAmount(undefined, 'PHP')).toBeUndefined();
  });

  it('shows only the brand and last four digits of a card', () => {
    expect(maskedCard({ brand: 'visa', last4: '4242' })).toBe('Visa •••• 4242');
    expect(maskedCard({ brand: 'mastercard', last4: '4444' })).toBe('Mastercard •••• 4444');
    expect(maskedCard({ brand: 'visa', last4: '4242424242424242' })).toBeUndefined();
    expect(maskedCard(null)).toBeUndefined();
  });

  it('escapes every interpolated value in the HTML part', () => {
    const mail = renderEmail({
      type: 'payment.succeeded',
      createdAt,
      merchant,
      view: view({ amount: '250.00', currency: 'PHP', transactionId: 'txn_1', description: '"><img src=x onerror=alert(1)>', merchantReferenceId: "o'1" }),
    });
    expect(mail.subject).toBe('Payment received: ₱250.00 — Acme <Books> & Co');
    expect(mail.html).not.toContain('<img src=x');
    expect(mail.html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(mail.html).toContain('Acme &lt;Books&gt; &amp; Co');
    expect(mail.html).toContain('o&#39;1');
    expect(mail.text).toContain('Transaction ID:');
    expect(mail.attachments).toEqual([]);
  });

  it('an occurrence’s payment link: a button to our own checkout address, the pay-by date, and the address as text', () => {
    const url = `https://pay.example/checkout/${'A'.repeat(43)}`;
    const link = { url, expiresAt: '2025-06-02T01:00:00.000Z', reason: 'pay_by_link' as const };
    const sent = view({ amount: '150.00', currency: 'PHP', scheduleReference: 'sch_1', payLink: link });
    const mail = renderEmail({ type: 'schedule.payment_link_sent', createdAt, merchant, view: sent });
    expect(mail.subject).toBe('Payment due: ₱150.00 — Acme <Books> & Co');
    expect(mail.html).toContain(`<a href="${url}"`);
    expect(mail.html).toContain('>Pay ₱150.00</a>');
    expect(mail.text).toContain(`Your scheduled payment is ready. Pay Acme <Books> & Co securely`);
    expect(mail.text).toContain(`Pay here: ${url}`);
    expect(mail.text).toMatch(/Pay by:\s+Jun 2, 2025, 1:00\sAM UTC/);
    const sca = renderEmail({
      type: 'schedule.payment_link_sent',
      createdAt,
      merchant,
      view: { ...sent, payLink: { ...link, reason: 'authentication_required' }, failureMessage: 'off_session was set' },
    });
    expect(sca.text).toContain('Your bank wants you to confirm this payment yourself.');
    expect(sca.text).not.toContain('off_session');
    // Only a checkout address of ours becomes a link: anything else in the event is not a button.
    const odd = renderEmail({
      type: 'schedule.payment_link_sent',
      createdAt,
      merchant,
      view: { ...sent, payLink: { ...link, url: 'javascript:alert(1)//checkout/x' } },
    });
    expect(odd.html).not.toContain('javascript:');
    expect(odd.html).not.toContain('<a href');
  });

  it('says how the customer paid, in the customer’s language: the method’s name, or the card’s brand and last four', () => {
    const paid = (paymentMethod: EmailView['paymentMethod'], locale: 'en' | 'fil' | 'es', card: EmailView['card'] = null) =>
      renderEmail({
        type: 'payment.succeeded',
        createdAt,
        merchant: { name: 'Acme Books', locale },
        view: view({ amount: '250.00', currency: 'PHP', transactionId: 'txn_1', paymentMethod, card }),
      });
    expect(paid('gcash', 'en').text).toMatch(/Paid with: +GCash\n/);
    expect(paid('gcash', 'en').html).toMatch(/>Paid with<\/th><td[^>]*>GCash<\/td>/);
    expect(paid('card', 'en', { brand: 'visa', last4: '4242' }).text).toMatch(/Paid with: +Visa •••• 4242\n/);
    expect(paid('qrph', 'fil').text).toMatch(/Binayaran gamit ang: +QR Ph\n/);
    expect(paid('dob', 'es').text).toMatch(/Pagado con: +Banca en línea\n/);
    expect(paid('card', 'es', { brand: 'mastercard', last4: '4444' }).text).toMatch(/Pagado con: +Mastercard •••• 4444\n/);
    // A payment by another method has no card row: nothing about a card it never had.
    expect(paid('gcash', 'en').text).not.toMatch(/^Card:/m);
    // A refund says how the refunded payment was paid (the money goes back the same way).
    const refunded = renderEmail({
      type: 'refund.succeeded',
      createdAt,
      merchant: { name: 'Acme Books', locale: 'fil' },
      view: view({ amount: '50.00', currency: 'PHP', refundId: 'rfd_1', transactionId: 'txn_1', paymentMethod: 'paymaya' }),
    });
    expect(refunded.text).toMatch(/Binayaran gamit ang: +Maya\n/);
  });

  it('an e-mail written before methods were recorded still names its card, as before', () => {
    const { paymentMethod: _none, ...older } = view({ amount: '250.00', currency: 'PHP', card: { brand: 'visa', last4: '4242' } });
    const mail = renderEmail({ type: 'payment.succeeded', createdAt, merchant: { name: 'Acme Books' }, view: older as EmailView });
    expect(mail.text).toMatch(/Card: +Visa •••• 4242\n/);
    expect(mail.text).not.toContain('Paid with');
  });

  it('names a refund by its amount', () => {
    const mail = renderEmail({
      type: 'refund.succeeded',
      createdAt,
      merchant: { name: 'Acme Books' },
      view: view({ amount: '50.00', currency: 'PHP', refundId: 'rfd_1', transactionId: 'txn_1' }),
    });
    expect(mail.subject).toBe('Refund of ₱50.00 — Acme Books');
    expect(mail.text).toMatch(/Refund amount: +₱50\.00/);
    expect(mail.text).toMatch(/Refund ID: +rfd_1/);
  });

  it('attaches the logo inline when the merchant has one', () => {
    const logo = { contentType: 'image/png', bytes: Buffer.from('png') };
    const mail = renderEmail({ type: 'payment.succeeded', createdAt, merchant: { name: 'Acme', logo }, view: view({ amount: '1.00', currency: 'USD' }) });
    expect(mail.html).toContain('src="cid:merchant-logo@paylink"');
    expect(mail.attachments).toEqual([{ filename: 'logo.png', content: logo.bytes, contentType: 'image/png', cid: 'merchant-logo@paylink' }]);
  });
});

describe('mail templates › languages', () => {
  const types = [
    'payment.succeeded',
    'schedule.charge_succeeded',
    'payment.failed',
    'schedule.charge_failed',
    'refund.succeeded',
    'refund.failed',
    'schedule.suspended',
    'schedule.cancelled',
    'something.new',
  ];
  const said = view({ amount: '1234.50', currency: 'PHP', transactionId: 'txn_1', card: { brand: 'visa', last4: '4242' } });
  for (const locale of locales) {
    it(`every e-mail type is fully worded in ${locale}, with no placeholder left`, () => {
      for (const type of types) {
        const mail = renderEmail({ type, view: said, createdAt: new Date('2025-06-01T10:00:00Z'), merchant: { name: 'Acme', locale } });
        expect(`${mail.subject}\n${mail.text}`, type).not.toMatch(/\{\w+\}/);
        expect(mail.html).toContain(`<html lang="${locale}">`);
      }
    });
  }

  it('uses the link colour only when it is a #rrggbb colour', () => {
    const at = new Date('2025-06-01T10:00:00Z');
    expect(renderEmail({ type: 'payment.succeeded', view: EMPTY_EMAIL_VIEW, createdAt: at, merchant: { name: 'A', color: '#0f766e' } }).html).toContain(
      'solid #0f766e',
    );
    const hostile = renderEmail({
      type: 'payment.succeeded',
      view: EMPTY_EMAIL_VIEW,
      createdAt: at,
      merchant: { name: 'A', color: 'red;background:url(x)' },
    }).html;
    expect(hostile).toContain('solid #1d4ed8');
    expect(hostile).not.toContain('url(x)');
  });
});
