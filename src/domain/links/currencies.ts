import currencyCodes from 'currency-codes';
import type { Connector } from '../../acquirer/connector.ts';
import { isCurrency } from '../money.ts';

/** One entry of the editor's currency list: the ISO 4217 code and its name in words. */
export interface CurrencyChoice {
  code: string;
  name: string;
}

/**
 * The currencies a link of this acquirer can be priced in, by name: the ones it declares, or
 * (an acquirer that takes every card currency) every payable ISO 4217 currency. Names come from
 * the ISO 4217 data paylink already reads amounts with (`currency-codes`).
 */
export function currencyChoices(acquirer: Pick<Connector, 'capabilities'>): CurrencyChoice[] {
  const { currencies } = acquirer.capabilities;
  const codes = currencies === 'any' ? currencyCodes.codes().filter(isCurrency) : currencies.map((c) => c.currency);
  return codes.map((code) => ({ code, name: currencyCodes.code(code)?.currency ?? code })).sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

/** The list with `current` in it even when the acquirer no longer takes it (a saved link keeps its currency on show). */
export function withCurrent(choices: CurrencyChoice[], current: string): CurrencyChoice[] {
  if (current === '' || choices.some((c) => c.code === current)) return choices;
  return [{ code: current, name: currencyCodes.code(current)?.currency ?? current }, ...choices];
}
