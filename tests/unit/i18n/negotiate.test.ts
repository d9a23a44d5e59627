import { describe, expect, it } from 'vitest';
import { matchLocale, negotiateLocale, parseAcceptLanguage, resolveLocale } from '../../../src/i18n/negotiate.ts';

describe('i18n › Accept-Language negotiation', () => {
  it('orders ranges by q-value, ties in header order, and drops q=0 and malformed entries', () => {
    expect(parseAcceptLanguage('de;q=0.5, es-MX, fil;q=0.9, en;q=0, x!y, fr;q=2').map((r) => [r.tag, r.q])).toEqual([
      ['es-mx', 1],
      ['fil', 0.9],
      ['de', 0.5],
    ]);
    expect(parseAcceptLanguage('')).toEqual([]);
    expect(parseAcceptLanguage(undefined)).toEqual([]);
  });

  it('picks the highest-q language we have, matching regional tags to their language', () => {
    expect(negotiateLocale('de-DE, es-419;q=0.8, en;q=0.5')).toBe('es');
    expect(negotiateLocale('en-US,en;q=0.9')).toBe('en');
    expect(negotiateLocale('fil-PH, en;q=0.8')).toBe('fil');
    expect(negotiateLocale('en;q=0.4, fil;q=0.6')).toBe('fil');
  });

  it('treats Tagalog (tl) as Filipino', () => {
    expect(matchLocale('tl-PH')).toBe('fil');
    expect(negotiateLocale('tl,en;q=0.5')).toBe('fil');
  });

  it('chooses nothing for languages we lack, a bare * or a refused language', () => {
    expect(negotiateLocale('de, fr;q=0.8')).toBeUndefined();
    expect(negotiateLocale('*')).toBeUndefined();
    expect(negotiateLocale('es;q=0, de')).toBeUndefined();
  });

  it('survives a hostile header (long, many entries, odd characters)', () => {
    expect(negotiateLocale(`${'xx-yy, '.repeat(5000)}es`)).toBeUndefined();
    expect(negotiateLocale('es;q=abc, fil')).toBe('fil');
    expect(negotiateLocale('\u0000\n;;,,;q=')).toBeUndefined();
  });
});

describe('i18n › the page language', () => {
  it('?lang= beats the cookie, the cookie beats Accept-Language, which beats the link setting', () => {
    const all = { query: 'es', cookie: 'fil', acceptLanguage: 'en', linkLocale: 'fil' };
    expect(resolveLocale(all)).toBe('es');
    expect(resolveLocale({ ...all, query: null })).toBe('fil');
    expect(resolveLocale({ ...all, query: null, cookie: null })).toBe('en');
    expect(resolveLocale({ query: null, cookie: null, acceptLanguage: 'de', linkLocale: 'fil' })).toBe('fil');
    expect(resolveLocale({})).toBe('en');
  });

  it('ignores values that are not our languages', () => {
    expect(resolveLocale({ query: 'xx', cookie: '<script>', acceptLanguage: 'de', linkLocale: 'es' })).toBe('es');
    expect(resolveLocale({ query: 'constructor', linkLocale: 'nope' })).toBe('en');
  });
});
