import { describe, expect, it } from 'vitest';
import { currencyChoices, withCurrent } from '../../../src/domain/links/currencies.ts';

const acquirer = (currencies: 'any' | { currency: string; minimumMinor: bigint }[]) =>
  ({ capabilities: { currencies } }) as Parameters<typeof currencyChoices>[0];

describe('link currencies › the editor’s list', () => {
  it('lists the currencies an acquirer declares, by name', () => {
    expect(currencyChoices(acquirer([{ currency: 'PHP', minimumMinor: 2000n }]))).toEqual([{ code: 'PHP', name: 'Philippine Peso' }]);
  });

  it('lists every payable ISO 4217 currency for an acquirer that takes any, sorted by name, without funds or metals', () => {
    const list = currencyChoices(acquirer('any'));
    const codes = list.map((c) => c.code);
    expect(codes).toEqual(expect.arrayContaining(['PHP', 'USD', 'EUR', 'JPY']));
    expect(codes).not.toContain('XAU');
    expect(codes).not.toContain('XTS');
    expect(list.map((c) => c.name)).toEqual([...list.map((c) => c.name)].sort((a, b) => a.localeCompare(b, 'en')));
  });

  it('keeps a saved link’s currency on the list when the acquirer no longer takes it', () => {
    const only = currencyChoices(acquirer([{ currency: 'PHP', minimumMinor: 2000n }]));
    expect(withCurrent(only, 'USD').map((c) => c.code)).toEqual(['USD', 'PHP']);
    expect(withCurrent(only, 'PHP')).toBe(only);
  });
});
