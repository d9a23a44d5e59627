import { describe, expect, it } from 'vitest';
import { declineMessages } from '../../../src/acquirer/acquirer.ts';
import { en } from '../../../src/i18n/en.ts';
import { catalogues, intlLocale, type Locale, locales, t } from '../../../src/i18n/index.ts';
import { cardFormText } from '../../../src/i18n/island.ts';
import { englishAmountMessages } from '../../../src/schemas/amount-messages.ts';
import { englishCardMessages } from '../../../src/schemas/card-rules.ts';
import { customerFieldError, englishFieldMessages } from '../../../src/schemas/checkout-rules.ts';
import { customerFieldPaths } from '../../../src/schemas/fields.ts';
import { locales as linkLocales } from '../../../src/schemas/locales.ts';

const keys = Object.keys(en) as (keyof typeof en)[];
const placeholders = (text: string) => [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();

describe('i18n › catalogues', () => {
  it('has a catalogue for every language a link may be set to, and no other', () => {
    expect([...locales].sort()).toEqual([...linkLocales].sort());
  });

  for (const locale of locales) {
    it(`${locale} has every key of the English catalogue, and no key English lacks`, () => {
      const catalogue = catalogues[locale] as Record<string, string>;
      expect(keys.filter((key) => typeof catalogue[key] !== 'string' || catalogue[key].trim() === '')).toEqual([]);
      expect(Object.keys(catalogue).filter((key) => !(key in en))).toEqual([]);
    });

    it(`${locale} keeps the placeholders of each English text`, () => {
      const catalogue = catalogues[locale] as Record<string, string>;
      expect(keys.filter((key) => placeholders(catalogue[key] ?? '').join() !== placeholders(en[key]).join())).toEqual([]);
    });
  }

  it('fil and es are translations, not copies of the English (brand and format words aside)', () => {
    for (const locale of ['fil', 'es'] as const) {
      const same = keys.filter((key) => catalogues[locale][key] === en[key]);
      expect(same.length, `${locale}: ${same.join(', ')}`).toBeLessThan(keys.length / 5);
    }
  });

  it('a key a catalogue lacks falls back to English', () => {
    const fil = catalogues.fil as Record<string, string>;
    const saved = fil['receipt.paid_to'];
    delete fil['receipt.paid_to'];
    try {
      expect(t('fil', 'receipt.paid_to')).toBe('Paid to');
    } finally {
      fil['receipt.paid_to'] = saved!;
    }
  });

  it('fills placeholders and leaves unknown ones as written', () => {
    expect(t('es', 'pay.button_amount', { amount: '₱250.00' })).toBe('Pagar ₱250.00');
    expect(t('fil', 'pay.button_amount', { amount: '₱250.00' })).toBe('Magbayad ng ₱250.00');
    expect(t('en', 'page.support', { merchant: 'Acme' })).toBe('Questions about this payment? Contact Acme at {email}.');
    // A value that looks like a placeholder is not expanded again.
    expect(t('en', 'receipt.return', { merchant: '{merchant}' })).toBe('Return to {merchant}');
  });

  it('the island gets only its own words, and the English card errors are the server’s', () => {
    expect(cardFormText('en').errors).toEqual(englishCardMessages);
    expect(cardFormText('en').amountErrors).toEqual(englishAmountMessages);
    expect(cardFormText('en').fieldErrors).toEqual(englishFieldMessages);
    for (const [code, words] of Object.entries(cardFormText('en').declines)) expect(words).toBe(declineMessages[code as keyof typeof declineMessages]);
    for (const path of customerFieldPaths) expect(t('en', `field.required.${path}`)).toBe(customerFieldError(path, '', true));
    const text = JSON.stringify(cardFormText('fil'));
    expect(text).toContain('Pangalan sa card');
    expect(text).not.toContain('Natanggap ang bayad');
  });

  it.each<[Locale, string]>([
    ['en', '₱1,234.50'],
    ['fil', '₱1,234.50'],
    ['es', '1234,50 PHP'],
  ])('formats money for %s with Intl, in the link’s currency', (locale, shown) => {
    const text = new Intl.NumberFormat(intlLocale(locale), { style: 'currency', currency: 'PHP' }).format(1234.5).replace(/\u00a0/g, ' ');
    expect(text).toBe(shown);
  });
});
