import type { AmountMessages } from './amount-rules.ts';

/**
 * English, as the server words its refusals ({currency}, {digits}, {amount} are filled in;
 * {example} is an amount written the locale's way, {decimal} and {whole} the two readings of
 * ambiguous text).
 */
export const englishAmountMessages: AmountMessages = {
  missing: 'Enter the amount to pay',
  negative: 'The amount must not be negative',
  exponent: 'The amount must be written as a plain decimal number, without exponent notation',
  format: 'The amount must be a number such as {example}',
  ambiguous: 'The amount can be read two ways: write {decimal} or {whole}',
  grouping: 'Separate thousands in groups of 3 digits, such as {example}, or leave them out',
  no_minor: '{currency} has no minor unit: give a whole number in the amount',
  decimals_one: '{currency} allows at most 1 decimal place in the amount',
  decimals_other: '{currency} allows at most {digits} decimal places in the amount',
  zero: 'The amount must be greater than zero',
  too_large: 'The amount is larger than paylink accepts',
  min: 'The amount must be at least {amount}',
  max: 'The amount must be at most {amount}',
};
