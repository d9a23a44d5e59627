/**
 * The card entry rules as plain functions, with the words the customer reads. The card island
 * imports these (zod, even zod/mini, would not fit the checkout page's 12 KB JS budget: see
 * docs/payment-links.md); the server's zod/mini schema in card.ts is built from these same
 * functions, so browser and server can never disagree. Each rule returns a message or undefined.
 */
export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'jcb' | 'diners' | 'unionpay';

const brandPrefixes: [CardBrand, RegExp][] = [
  ['visa', /^4/],
  ['mastercard', /^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/],
  ['amex', /^3[47]/],
  ['discover', /^(6011|65|64[4-9])/],
  ['jcb', /^35(2[89]|[3-8])/],
  ['diners', /^3(0[0-5]|[689])/],
  ['unionpay', /^62/],
];

export const brandLabels: Record<CardBrand, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  jcb: 'JCB',
  diners: 'Diners Club',
  unionpay: 'UnionPay',
};

/** Other spellings acquirers use for the same brands. */
const brandAliases: Record<string, CardBrand> = { 'american-express': 'amex', american_express: 'amex', 'diners-club': 'diners', diners_club: 'diners' };

/**
 * A card brand as people write it ("Visa", "Mastercard", "American Express"), wherever a brand
 * is shown: receipt, console, e-mails. An unknown brand is capitalised; none at all is "Card".
 */
export function cardBrandName(brand: string | null | undefined): string {
  if (!brand) return 'Card';
  const key = brand.toLowerCase();
  const known = brandLabels[(brandAliases[key] ?? key) as CardBrand];
  return known ?? brand.charAt(0).toUpperCase() + brand.slice(1);
}

export const cardDigits = (value: string) => value.replace(/[\s-]/g, '');

/** The brand a card number (or its first digits) belongs to, from its prefix. */
export function detectBrand(number: string): CardBrand | undefined {
  const digits = cardDigits(number);
  return digits === '' ? undefined : brandPrefixes.find(([, prefix]) => prefix.test(digits))?.[0];
}

export const cvcLength = (brand: CardBrand | undefined) => (brand === 'amex' ? 4 : 3);

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** Groups digits for display as the customer types: 4242 4242 4242 4242 (Amex 4-6-5). */
export function formatCardNumber(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 19);
  const groups = detectBrand(digits) === 'amex' ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const out: string[] = [];
  let at = 0;
  for (const size of groups) {
    if (at >= digits.length) break;
    out.push(digits.slice(at, at + size));
    at += size;
  }
  return out.join(' ');
}

/** MM / YY as typed: inserts the slash, keeps digits only. */
export function formatExpiry(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  if (digits.length === 1 && digits > '1') return `0${digits} / `;
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
}

const EXPIRY = /^(0[1-9]|1[0-2])\s*\/\s*(\d{2}|\d{4})$/;

/** {month, four-digit year} from "MM/YY" or "MM/YYYY". */
export function parseExpiry(value: string): { month: number; year: number } | undefined {
  const match = EXPIRY.exec(value.trim());
  if (!match) return undefined;
  const year = Number(match[2]);
  return { month: Number(match[1]), year: match[2]!.length === 2 ? 2000 + year : year };
}

/** True when the card is still valid at `now` (a card is valid through the end of its month). */
export const expiryInFuture = (expiry: { month: number; year: number }, now: Date) => Date.UTC(expiry.year, expiry.month, 1) > now.getTime();

export type CardField = 'number' | 'expiry' | 'cvc' | 'name';
export type CardValues = Record<CardField, string>;

/** What each card rule says when it fails; the card island passes the customer's language. */
export type CardMessageKey =
  | 'number_missing'
  | 'number_length'
  | 'number_invalid'
  | 'expiry_missing'
  | 'expiry_format'
  | 'expired'
  | 'cvc_missing'
  | 'cvc_length'
  | 'name_missing'
  | 'name_long';
export type CardMessages = Record<CardMessageKey, string>;

/** English, as the server words its refusals (src/i18n/en.ts holds the same words for the pages). */
export const englishCardMessages: CardMessages = {
  number_missing: 'Enter the card number',
  number_length: 'Enter the card number: 12 to 19 digits',
  number_invalid: 'This card number is not valid: check it for typing mistakes',
  expiry_missing: 'Enter the expiry date',
  expiry_format: 'Enter the expiry date as MM/YY',
  expired: 'This card has expired: check the expiry date',
  cvc_missing: 'Enter the security code',
  cvc_length: 'Enter the {digits} digit security code',
  name_missing: 'Enter the name on the card',
  name_long: 'The name on the card must be at most 120 characters',
};

type CardRule = (value: string, card: CardValues) => string | undefined;

/** The rules worded in `m`; with `now`, an expiry date in the past is refused too (the browser's clock). */
export function makeCardRules(m: CardMessages, now?: Date): Record<CardField, CardRule> {
  return {
    number(value) {
      const digits = cardDigits(value);
      if (digits === '') return m.number_missing;
      if (!/^\d{12,19}$/.test(digits)) return m.number_length;
      return luhnValid(digits) ? undefined : m.number_invalid;
    },
    expiry(value) {
      if (value.trim() === '') return m.expiry_missing;
      const parsed = parseExpiry(value);
      if (!parsed) return m.expiry_format;
      return now && !expiryInFuture(parsed, now) ? m.expired : undefined;
    },
    cvc(value, card) {
      const size = cvcLength(detectBrand(card.number));
      if (value.trim() === '') return m.cvc_missing;
      return new RegExp(`^\\d{${size}}$`).test(value.trim()) ? undefined : m.cvc_length.replace('{digits}', String(size));
    },
    name(value) {
      const name = value.trim();
      if (name === '') return m.name_missing;
      return name.length > 120 ? m.name_long : undefined;
    },
  };
}

/** The server's rules (English; the server checks the expiry against its own clock separately). */
export const cardRules = makeCardRules(englishCardMessages);

/** Every card rule at once: field → message, empty when the card looks right. */
export function cardErrors(card: CardValues, rules: Record<CardField, CardRule>): Partial<Record<CardField, string>> {
  const out: Partial<Record<CardField, string>> = {};
  for (const field of ['number', 'expiry', 'cvc', 'name'] as const) {
    const message = rules[field](card[field] ?? '', card);
    if (message) out[field] = message;
  }
  return out;
}
