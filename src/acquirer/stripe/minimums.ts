import type { CurrencySupport } from '../connector.ts';

/**
 * Stripe's published minimum charge amounts, in minor units (ISO 4217 exponents: JPY has none).
 * Stripe states them per settlement currency; a charge presented in another currency must convert
 * to at least the settlement currency's minimum, which depends on the day's rate. paylink offers
 * Stripe only these currencies, each with its own minimum, so a link below it is refused before
 * any customer reaches the card step (docs/stripe.md).
 */
export const stripeCurrencies: readonly CurrencySupport[] = [
  { currency: 'USD', minimumMinor: 50n },
  { currency: 'AED', minimumMinor: 200n },
  { currency: 'AUD', minimumMinor: 50n },
  { currency: 'BGN', minimumMinor: 100n },
  { currency: 'BRL', minimumMinor: 50n },
  { currency: 'CAD', minimumMinor: 50n },
  { currency: 'CHF', minimumMinor: 50n },
  { currency: 'CZK', minimumMinor: 1500n },
  { currency: 'DKK', minimumMinor: 250n },
  { currency: 'EUR', minimumMinor: 50n },
  { currency: 'GBP', minimumMinor: 30n },
  { currency: 'HKD', minimumMinor: 400n },
  { currency: 'HUF', minimumMinor: 17_500n },
  { currency: 'INR', minimumMinor: 50n },
  { currency: 'JPY', minimumMinor: 50n },
  { currency: 'MXN', minimumMinor: 1000n },
  { currency: 'MYR', minimumMinor: 200n },
  { currency: 'NOK', minimumMinor: 300n },
  { currency: 'NZD', minimumMinor: 50n },
  { currency: 'PLN', minimumMinor: 200n },
  { currency: 'RON', minimumMinor: 200n },
  { currency: 'SEK', minimumMinor: 300n },
  { currency: 'SGD', minimumMinor: 50n },
  { currency: 'THB', minimumMinor: 1000n },
];
