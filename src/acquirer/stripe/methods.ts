import { z } from 'zod';
import type { CardWallet } from '../acquirer.ts';

/**
 * Which of Stripe's payment method types a paylink payment may use, and how to read back the one
 * used (docs/stripe.md, "Wallets").
 *
 * Stripe's API version pinned by the `stripe` package (2026-10-28.endive) no longer takes
 * `payment_method_types`: the payment methods come from the account's settings in Stripe's
 * Dashboard (dynamic payment methods), and `allowed_payment_method_types` keeps only the listed
 * types among them (incompatible ones are dropped, not refused). paylink lists the card and Link:
 * - Apple Pay and Google Pay are not types of their own but cards in a wallet, so `card` brings
 *   them wherever the account turns them on, the device has one and (Apple Pay) the domain is
 *   registered with Stripe; the charge says which wallet (`card.wallet.type`);
 * - Link is the type `link`;
 * - every other type the account may turn on (bank debits, buy now pay later, vouchers…) has
 *   rules of its own that paylink's card connector does not keep (refunds, delays), so it is not
 *   offered here.
 * A card kept for later off-session charges (a checkout that saves it for a schedule, a card
 * registration) is a card only: a schedule charges a card payment method (Apple Pay's and
 * Google Pay's cards included), never a Link one.
 */
export const stripeCardTypes = ['card'] as const;
export const stripePaymentTypes = ['card', 'link'] as const;

/** The types a payment's PaymentIntent (and the Payment Element in front of it) allows. */
export const stripeAllowedTypes = (saveCard: boolean): readonly ('card' | 'link')[] => (saveCard ? stripeCardTypes : stripePaymentTypes);

/** Stripe's card wallet names (`payment_method_details.card.wallet.type`) paylink keeps. */
const walletTypes: ReadonlySet<string> = new Set<CardWallet>(['apple_pay', 'google_pay', 'link', 'samsung_pay']);

export const chargeMethodDetails = z.looseObject({
  type: z.string().nullish(),
  card: z
    .looseObject({
      brand: z.string().nullish(),
      last4: z.string().nullish(),
      exp_month: z.number().nullish(),
      exp_year: z.number().nullish(),
      wallet: z.looseObject({ type: z.string().nullish() }).nullish(),
    })
    .nullish(),
});

/**
 * The wallet a charge was paid with: the card's wallet (Apple Pay, Google Pay, Link's card, …), or
 * Link itself when the charge is of type `link`. A wallet Stripe adds later, or none, is undefined:
 * the payment stays a card payment either way.
 */
export function walletOf(details: z.infer<typeof chargeMethodDetails> | null | undefined): CardWallet | undefined {
  if (!details) return undefined;
  if (details.type === 'link') return 'link';
  const wallet = details.card?.wallet?.type;
  return wallet && walletTypes.has(wallet) ? (wallet as CardWallet) : undefined;
}
