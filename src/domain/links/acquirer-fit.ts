import { amountAccepted, type Connector } from '../../acquirer/connector.ts';
import { formatDecimal } from '../money.ts';

/**
 * Whether the money a link asks for can be taken by the merchant's acquirer: a currency it is
 * offered (Stripe: its table of minimums; PayMongo: PHP) and amounts at or above that currency's
 * minimum. Checked where a link is made or changed (src/domain/links/editor.ts: console, API, seed)
 * and where a dynamic checkout is made, so a customer never meets a form that cannot be paid; a page
 * whose link no longer fits (the merchant changed acquirer since) says so instead of showing the form.
 */
export type LinkAcquirer = Pick<Connector, 'name' | 'capabilities'>;

const ACQUIRER_NAMES: Record<string, string> = { sandbox: 'the sandbox', paymongo: 'PayMongo', stripe: 'Stripe' };
export const acquirerName = (acquirer: Pick<Connector, 'name'>) => ACQUIRER_NAMES[acquirer.name] ?? acquirer.name;

export interface LinkMoney {
  currency: string;
  amountMinor: bigint | null;
  minAmountMinor: bigint | null;
  maxAmountMinor: bigint | null;
}

export type MoneyField = 'currency' | 'amount' | 'minAmount' | 'maxAmount';

/** Each setting the acquirer cannot take, with why (in the merchant's terms); empty when all fit. */
export function acquirerMisfits(acquirer: LinkAcquirer, money: LinkMoney): Partial<Record<MoneyField, string>> {
  const name = acquirerName(acquirer);
  const { currencies } = acquirer.capabilities;
  if (currencies === 'any') return {};
  if (!currencies.some((c) => c.currency === money.currency)) {
    const only = currencies.length === 1 ? `; it takes only ${currencies[0]!.currency}` : '';
    return { currency: `${name} does not take payments in ${money.currency}${only}` };
  }
  const misfits: Partial<Record<MoneyField, string>> = {};
  const amounts: Array<[MoneyField, bigint | null]> = [
    ['amount', money.amountMinor],
    ['minAmount', money.minAmountMinor],
    ['maxAmount', money.maxAmountMinor],
  ];
  for (const [field, minor] of amounts) {
    if (minor === null) continue;
    const accepted = amountAccepted(acquirer.capabilities, minor, money.currency);
    if (!accepted.ok && accepted.minimumMinor !== undefined) {
      misfits[field] = `must be at least ${formatDecimal(accepted.minimumMinor, money.currency)} ${money.currency}, ${name}'s smallest charge`;
    }
  }
  return misfits;
}

/** The smallest amount the acquirer takes in `currency`, when it has one (undefined: no minimum, or the currency is not taken). */
export function acquirerMinimum(acquirer: LinkAcquirer, currency: string): bigint | undefined {
  const { currencies } = acquirer.capabilities;
  if (currencies === 'any') return undefined;
  const minimum = currencies.find((c) => c.currency === currency)?.minimumMinor;
  return minimum !== undefined && minimum > 0n ? minimum : undefined;
}
