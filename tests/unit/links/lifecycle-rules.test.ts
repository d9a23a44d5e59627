import { describe, expect, it } from 'vitest';
import { linkDateState } from '../../../src/domain/links/lifecycle.ts';
import { pageTitle } from '../../../src/domain/links/page-title.ts';
import { cancelReturnUrl, httpUrl, successReturnUrl } from '../../../src/domain/links/return-urls.ts';
import { cardBrandName } from '../../../src/schemas/card-rules.ts';

const now = new Date('2026-11-23T02:00:00Z');

describe('link lifecycle › dates', () => {
  it('an inactive link is inactive whatever its expiry', () => {
    expect(linkDateState({ active: false, expiresAt: null }, now)).toBe('inactive');
  });
  it('a link is expired from its expires_at instant on, open before it and without one', () => {
    expect(linkDateState({ active: true, expiresAt: new Date(now.getTime() - 1) }, now)).toBe('expired');
    expect(linkDateState({ active: true, expiresAt: now }, now)).toBe('expired');
    expect(linkDateState({ active: true, expiresAt: new Date(now.getTime() + 1) }, now)).toBe('open');
    expect(linkDateState({ active: true, expiresAt: null }, now)).toBe('open');
  });
});

describe('return addresses', () => {
  it('appends transaction_id to success_url and keeps its own parameters', () => {
    expect(successReturnUrl('https://shop.example/thanks?order=7', 'txn_1')).toBe('https://shop.example/thanks?order=7&transaction_id=txn_1');
    expect(successReturnUrl('http://shop.example/', 'txn_2')).toBe('http://shop.example/?transaction_id=txn_2');
  });
  it('renders only http(s) addresses', () => {
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', 'ftp://shop.example/', 'not a url', '', null, undefined]) {
      expect(httpUrl(bad)).toBeUndefined();
      expect(successReturnUrl(bad, 'txn_1')).toBeUndefined();
      expect(cancelReturnUrl(bad)).toBeUndefined();
    }
    expect(cancelReturnUrl('https://shop.example/cart')).toBe('https://shop.example/cart');
  });
});

describe('page titles', () => {
  it('never repeat a link named after its merchant', () => {
    expect(pageTitle('Acme Books', 'Acme Books')).toBe('Acme Books');
    expect(pageTitle('acme books ', 'Acme Books')).toBe('acme books ');
    expect(pageTitle('Pottery workshop', 'Acme Books')).toBe('Pottery workshop · Acme Books');
    expect(pageTitle('Payment not found', undefined)).toBe('Payment not found · paylink');
  });
});

describe('card brand names', () => {
  it('writes brands as brands', () => {
    expect(cardBrandName('visa')).toBe('Visa');
    expect(cardBrandName('mastercard')).toBe('Mastercard');
    expect(cardBrandName('amex')).toBe('American Express');
    expect(cardBrandName('american-express')).toBe('American Express');
    expect(cardBrandName('VISA')).toBe('Visa');
    expect(cardBrandName('elo')).toBe('Elo');
    expect(cardBrandName(null)).toBe('Card');
  });
});
