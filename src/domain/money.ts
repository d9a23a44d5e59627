import currencyCodes from 'currency-codes';

/**
 * Money is an integer count of minor units (bigint) with an ISO 4217 code. Decimal input is
 * parsed exactly: more decimals than the currency has is an error, never a rounding.
 */
export interface Money {
  minor: bigint;
  currency: string;
}

export class MoneyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MoneyError';
  }
}

import { MAX_MINOR_UNITS } from '../schemas/amount-rules.ts';

export { MAX_MINOR_UNITS };

/** ISO 4217 codes that are funds, precious metals or testing codes: never card currencies. */
const NOT_PAYABLE = new Set([
  'XAU',
  'XAG',
  'XPD',
  'XPT',
  'XDR',
  'XBA',
  'XBB',
  'XBC',
  'XBD',
  'XSU',
  'XUA',
  'XTS',
  'XXX',
  'BOV',
  'CHE',
  'CHW',
  'CLF',
  'COU',
  'MXV',
  'USN',
  'UYI',
  'UYW',
]);

/** Minor-unit exponent of an active ISO 4217 currency, or undefined when the code is unknown. */
export function currencyExponent(code: string): number | undefined {
  if (!/^[A-Z]{3}$/.test(code)) return undefined;
  const entry = currencyCodes.code(code);
  if (!entry || entry.digits === undefined || entry.digits === null) return undefined;
  if (NOT_PAYABLE.has(code) || Number.isNaN(Number(entry.digits))) return undefined;
  return Number(entry.digits);
}

export const isCurrency = (code: string) => currencyExponent(code) !== undefined;

function requireExponent(currency: string): number {
  const exponent = currencyExponent(currency);
  if (exponent === undefined) throw new MoneyError(`${JSON.stringify(currency)} is not a supported ISO 4217 currency code`);
  return exponent;
}

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * Parses an amount given as a decimal string ("12.50") or a JSON number (12.5) into minor units.
 * Rejects negatives, exponent notation, more decimals than the currency has, and huge values.
 * A JSON number is read through its shortest decimal form, so 0.1 is exactly "0.1".
 */
export function parseAmount(input: unknown, currency: string, opts: { allowZero?: boolean } = {}): Money {
  const exponent = requireExponent(currency);
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) throw new MoneyError('must be a finite number');
    text = String(input);
    if (/e/i.test(text)) throw new MoneyError('must be written as a plain decimal number, without exponent notation');
  } else if (typeof input === 'string') {
    text = input.trim();
  } else {
    throw new MoneyError('must be a decimal number such as "12.50"');
  }
  if (text.startsWith('-')) throw new MoneyError('must not be negative');
  if (/e/i.test(text)) throw new MoneyError('must be written as a plain decimal number, without exponent notation');
  const match = DECIMAL.exec(text);
  if (!match) throw new MoneyError('must be a decimal number such as "12.50"');
  const [, whole, fraction = ''] = match;
  if (fraction.length > exponent) {
    throw new MoneyError(
      exponent === 0
        ? `${currency} has no minor unit: give a whole number`
        : `${currency} allows at most ${exponent} decimal place${exponent === 1 ? '' : 's'}`,
    );
  }
  const minor = BigInt(whole + fraction.padEnd(exponent, '0'));
  if (minor === 0n && !opts.allowZero) throw new MoneyError('must be greater than zero');
  if (minor > MAX_MINOR_UNITS) throw new MoneyError('is larger than paylink accepts');
  return { minor, currency };
}

/** The exact decimal string for minor units: 1250n PHP → "12.50". */
export function formatDecimal(minor: bigint, currency: string): string {
  const exponent = requireExponent(currency);
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(exponent + 1, '0');
  const whole = exponent === 0 ? digits : digits.slice(0, -exponent);
  const fraction = exponent === 0 ? '' : `.${digits.slice(-exponent)}`;
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/** Human display with the currency symbol for a locale: 1250n PHP → "₱12.50". */
export function formatMoney(minor: bigint, currency: string, locale = 'en-US'): string {
  return currencyFormat(locale, currency).format(formatDecimal(minor, currency) as unknown as number);
}

// Building an Intl.NumberFormat costs ~70× formatting with one; pages format several amounts each.
// Keys are validated ISO 4217 codes × supported locales, so the cache is bounded.
const formats = new Map<string, Intl.NumberFormat>();
function currencyFormat(locale: string, currency: string): Intl.NumberFormat {
  const key = `${locale}|${currency}`;
  let format = formats.get(key);
  if (!format) {
    const digits = requireExponent(currency);
    format = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits });
    formats.set(key, format);
  }
  return format;
}
