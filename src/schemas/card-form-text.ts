import type { AmountMessages } from './amount-rules.ts';
import type { CardBrand, CardMessages } from './card-rules.ts';
import type { FieldMessages } from './checkout-rules.ts';

/**
 * The words the card island shows, in the customer's language. The page passes just these as a
 * prop (built by src/i18n/island.ts), so no catalogue is bundled into the island's JavaScript.
 */
export interface CardFormText {
  legend: string;
  number: string;
  expiry: string;
  expiryHint: string;
  expiryPlaceholder: string;
  cvc: string;
  /** "{digits} digits" */
  cvcPlaceholder: string;
  name: string;
  processing: string;
  choose: string;
  networkError: string;
  genericError: string;
  /** After a decline: "You can try 1 more time…" / "…{count} more times…". */
  attemptsOne: string;
  attemptsOther: string;
  /** After the last attempt: the link is locked. */
  locked: string;
  /** A decline by its `decline_code` (src/acquirer/acquirer.ts). */
  declines: Record<string, string>;
  /** Brand names as written ("Visa", "American Express"), said when the number's brand is detected. */
  brands: Record<CardBrand, string>;
  errors: CardMessages;
  amountErrors: AmountMessages;
  /** Beside the Pay button as the customer types an amount: "You will be charged {amount}". */
  willCharge: string;
  fieldErrors: FieldMessages;
}
