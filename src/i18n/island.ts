import type { StripeFormText } from '../components/StripeCardForm.tsx';
import type { AmountMessages } from '../schemas/amount-rules.ts';
import type { CardFormText } from '../schemas/card-form-text.ts';
import { brandLabels } from '../schemas/card-rules.ts';
import { type Locale, t } from './index.ts';

/** The amount rule's refusals in one language (the island shows them; the server answers with them). */
export function amountMessages(locale: Locale): AmountMessages {
  const tr = (key: Parameters<typeof t>[1]) => t(locale, key);
  return {
    missing: tr('amount.error.missing'),
    negative: tr('amount.error.negative'),
    exponent: tr('amount.error.exponent'),
    format: tr('amount.error.format'),
    ambiguous: tr('amount.error.ambiguous'),
    grouping: tr('amount.error.grouping'),
    no_minor: tr('amount.error.no_minor'),
    decimals_one: tr('amount.error.decimals_one'),
    decimals_other: tr('amount.error.decimals_other'),
    zero: tr('amount.error.zero'),
    too_large: tr('amount.error.too_large'),
    min: tr('amount.error.min'),
    max: tr('amount.error.max'),
  };
}

/** Just the words the card island shows, in one language: passed to it as a prop. */
export function cardFormText(locale: Locale): CardFormText {
  const tr = (key: Parameters<typeof t>[1]) => t(locale, key);
  return {
    legend: tr('card.legend'),
    number: tr('card.number'),
    expiry: tr('card.expiry'),
    expiryHint: tr('card.expiry_hint'),
    expiryPlaceholder: tr('card.expiry_placeholder'),
    cvc: tr('card.cvc'),
    cvcPlaceholder: tr('card.cvc_placeholder'),
    name: tr('card.name'),
    processing: tr('card.processing'),
    choose: tr('card.choose'),
    networkError: tr('card.network_error'),
    genericError: tr('card.generic_error'),
    attemptsOne: tr('card.attempts_left_one'),
    attemptsOther: tr('card.attempts_left_other'),
    locked: tr('card.locked'),
    declines: {
      card_declined: tr('card.decline.card_declined'),
      insufficient_funds: tr('card.decline.insufficient_funds'),
      expired_card: tr('card.decline.expired_card'),
      incorrect_cvc: tr('card.decline.incorrect_cvc'),
      processing_error: tr('card.decline.processing_error'),
      invalid_card: tr('card.decline.invalid_card'),
    },
    brands: brandLabels,
    errors: {
      number_missing: tr('card.error.number_missing'),
      number_length: tr('card.error.number_length'),
      number_invalid: tr('card.error.number_invalid'),
      expiry_missing: tr('card.error.expiry_missing'),
      expiry_format: tr('card.error.expiry_format'),
      expired: tr('card.error.expired'),
      cvc_missing: tr('card.error.cvc_missing'),
      cvc_length: tr('card.error.cvc_length'),
      name_missing: tr('card.error.name_missing'),
      name_long: tr('card.error.name_long'),
    },
    fieldErrors: {
      too_long: tr('field.error.too_long'),
      email: tr('field.error.email'),
      mobile: tr('field.error.mobile'),
      zip: tr('field.error.zip'),
      country: tr('field.error.country'),
    },
    amountErrors: amountMessages(locale),
    willCharge: tr('pay.will_charge'),
  };
}

/** The PayMongo card island's words: the card island's, and the hosted checkout's one sentence. */
export const paymongoFormText = (locale: Locale) => ({ ...cardFormText(locale), hostedHint: t(locale, 'card.paymongo_hosted') });

/** The Stripe card island's own words (its card box is Stripe's, in the page's language too). */
export function stripeFormText(locale: Locale): StripeFormText {
  const tr = (key: Parameters<typeof t>[1]) => t(locale, key);
  return {
    legend: tr('card.legend'),
    note: tr('card.stripe.note'),
    processing: tr('card.processing'),
    load: tr('card.stripe.load'),
    loading: tr('card.stripe.loading'),
    failed: tr('card.stripe.failed'),
    unreachable: tr('card.stripe.unreachable'),
    required: tr('card.stripe.required'),
  };
}
