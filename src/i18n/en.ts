/**
 * English: the reference catalogue. Every other locale translates these keys; a key a locale
 * lacks falls back to the English text here. `{name}` placeholders are filled in by t().
 * Keys are grouped by the page that shows them; keep the wording plain and short.
 */
export const en = {
  // Every customer page
  'page.test_mode': 'Test mode',
  'page.test_mode_note': 'no real money moves',
  'page.footer': 'Payments processed securely by paylink',
  'page.language': 'Language',
  'page.support': 'Questions about this payment? Contact {merchant} at {email}.',
  'page.accepted_cards': 'Accepted cards',
  'page.logo_alt': '{merchant} logo',
  'page.order_summary': 'Order summary',

  // The payment form
  'pay.amount_due': 'Amount due',
  'pay.reference': 'Reference: {reference}',
  'pay.button': 'Pay',
  'pay.button_amount': 'Pay {amount}',
  'pay.amount_label': 'Amount',
  'pay.amount_hint': 'In {currency}',
  'pay.amount_hint_bounds': 'In {currency}, {bounds}',
  'pay.at_least': 'at least {amount}',
  'pay.at_most': 'at most {amount}',
  'pay.between': 'at least {min} and at most {max}',
  'pay.cancel': 'Cancel and return to {merchant}',
  'pay.the_merchant': 'the merchant',

  // The card island (passed to it as props: only these keys, see src/i18n/island.ts)
  'card.legend': 'Card details',
  'card.number': 'Card number',
  'card.expiry': 'Expiry date',
  'card.expiry_hint': 'MM/YY',
  'card.expiry_placeholder': 'MM / YY',
  'card.cvc': 'Security code',
  'card.cvc_placeholder': '{digits} digits',
  'card.name': 'Name on card',
  'card.processing': 'Processing…',
  'card.choose': 'Choose…',
  'card.network_error': 'We could not reach the server. Check your connection and try again.',
  'card.generic_error': 'Something went wrong. Please try again.',
  'card.error.number_missing': 'Enter the card number',
  'card.error.number_length': 'Enter the card number: 12 to 19 digits',
  'card.error.number_invalid': 'This card number is not valid: check it for typing mistakes',
  'card.error.expiry_missing': 'Enter the expiry date',
  'card.error.expiry_format': 'Enter the expiry date as MM/YY',
  'card.error.expired': 'This card has expired: check the expiry date',
  'card.error.cvc_missing': 'Enter the security code',
  'card.error.cvc_length': 'Enter the {digits} digit security code',
  'card.error.name_missing': 'Enter the name on the card',
  'card.error.name_long': 'The name on the card must be at most 120 characters',
  'card.attempts_left_one': 'You can try 1 more time with this link.',
  'card.attempts_left_other': 'You can try {count} more times with this link.',

  'amount.error.missing': 'Enter the amount to pay',
  'amount.error.negative': 'The amount must not be negative',
  'amount.error.exponent': 'The amount must be written as a plain decimal number, without exponent notation',
  'amount.error.format': 'The amount must be a decimal number such as "12.50"',
  'amount.error.no_minor': '{currency} has no minor unit: give a whole number in the amount',
  'amount.error.decimals_one': '{currency} allows at most 1 decimal place in the amount',
  'amount.error.decimals_other': '{currency} allows at most {digits} decimal places in the amount',
  'amount.error.zero': 'The amount must be greater than zero',
  'amount.error.too_large': 'The amount is larger than paylink accepts',
  'amount.error.min': 'The amount must be at least {amount}',
  'amount.error.max': 'The amount must be at most {amount}',

  // Customer fields (a link's own labels, set by the merchant, are shown as written)
  'field.customer.first_name': 'First name',
  'field.customer.last_name': 'Last name',
  'field.customer.contact.email': 'Email',
  'field.customer.contact.mobile': 'Mobile number',
  'field.customer.billing_address.line1': 'Address line 1',
  'field.customer.billing_address.line2': 'Address line 2',
  'field.customer.billing_address.city_municipality': 'City or municipality',
  'field.customer.billing_address.state_province_region': 'State, province or region',
  'field.customer.billing_address.zip': 'ZIP or postal code',
  'field.customer.billing_address.country_code': 'Country',
  'field.payment.description': 'Description',
  'field.payment.amount': 'Amount',
  'field.payment.currency': 'Currency',
  'field.payment.merchant_reference_id': 'Reference',

  // Why a link cannot be paid
  'link.not_found.title': 'Payment link not found',
  'link.not_found.body': 'There is no active payment link at this address. Check that the whole link was copied, or ask the merchant for a new one.',
  'link.dynamic_only.title': 'Use the personal payment link you were sent',
  'link.dynamic_only.body':
    '{merchant} creates a personal payment link for each payment of this kind, filled in with your order’s details. Use the link {merchant} sent you, or ask {merchant} for one. This address on its own takes no payments.',
  'link.expired.title': 'This payment link has expired',
  'link.expired.body': 'This link from {merchant} stopped accepting payments on its expiry date. Ask {merchant} for a new link. You have not been charged.',
  'link.used_up.title': 'This payment link has already been paid',
  'link.used_up.body':
    'This link from {merchant} accepts a limited number of payments and has received them all, so it cannot be paid again. If you paid, keep your receipt; otherwise ask {merchant} for a new link. You have not been charged.',

  // A checkout session's page
  'checkout.expired.title': 'This payment link has expired',
  'checkout.expired.body': 'For your security, payment links work for a limited time. Ask {merchant} for a new link. You have not been charged.',
  'checkout.used_up.body':
    'This link accepts a limited number of payments and has received them all, so it cannot be paid again. Ask {merchant} if you need to pay. You have not been charged.',
  'checkout.locked.title': 'This payment link is locked',
  'checkout.locked.body': 'Too many card attempts were made with this link, so it no longer accepts payments. Ask {merchant} for a new link.',
  'checkout.not_found.title': 'Payment not found',
  'checkout.not_found.body': 'There is no payment at this address. Check that the whole link was copied, or ask the merchant for a new one.',

  // The receipt
  'receipt.title': 'Payment received',
  'receipt.thanks': 'Thank you. {merchant} has received your payment. Keep this page or note the transaction ID for your records.',
  'receipt.paid_to': 'Paid to',
  'receipt.description': 'Description',
  'receipt.amount': 'Amount',
  'receipt.date': 'Date',
  'receipt.card': 'Card',
  'receipt.card_ending': '{brand} ending in {last4}',
  'receipt.reference': 'Reference',
  'receipt.transaction_id': 'Transaction ID',
  'receipt.return': 'Return to {merchant}',

  // Hosted card registration
  'register.title': 'Save your card',
  'register.intro': '{merchant} will charge this card for scheduled payments you agreed to. Nothing is charged now.',
  'register.saving_for': 'Saving for {name}.',
  'register.button': 'Save card',
  'register.busy': 'Saving…',
  'register.saved.title': 'Card saved',
  'register.saved.body': 'Your {brand} card ending in {last4} is saved with {merchant}. You can close this page.',
  'register.return': 'Return to {merchant}',
  'register.expired.title': 'This link has expired',
  'register.expired.short': 'Link expired',
  'register.expired.body': 'For your security, card registration links work for a limited time. Ask {merchant} for a new link.',
  'register.locked.title': 'This link is locked',
  'register.locked.short': 'Link locked',
  'register.locked.body': 'Too many card attempts were made with this link. Ask {merchant} for a new link.',
  'register.not_found.title': 'Link not found',
  'register.not_found.body': 'There is no card registration at this address. Check that the whole link was copied, or ask the merchant for a new one.',
} as const;

export type MessageKey = keyof typeof en;
/** A translation: any subset of the English keys (a missing key falls back to English). */
export type Catalogue = Partial<Record<MessageKey, string>>;
