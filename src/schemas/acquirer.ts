import { z } from 'zod';

/**
 * An integrator's acquirer, as the seed file and the console's Developers page give it
 * (docs/acquirers.md). Keys are checked for the provider's shape, and both keys must be of the
 * same mode (test or live), so a live secret never pairs with a test public key.
 */
export const defaultApiBaseUrls = { paymongo: 'https://api.paymongo.com', stripe: 'https://api.stripe.com' } as const;

const key = (pattern: RegExp, what: string) => z.string().trim().max(255).regex(pattern, `must be ${what}`);
const mode = (k: string) => (/_live_/.test(k) ? 'live' : 'test');
const apiBaseUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
  .max(2048)
  .optional();

/**
 * How long a QR Ph code lives from its start, in seconds: PayMongo's `expiry_seconds` on the QR Ph
 * payment method (60 to 9000); absent, PayMongo's 30 minutes. The sandbox's codes follow it too.
 */
export const QR_EXPIRY_SECONDS = { min: 60, max: 9000, default: 1800 } as const;
export const qrExpirySecondsSchema = z
  .int({ error: 'must be a whole number of seconds' })
  .min(QR_EXPIRY_SECONDS.min, `must be at least ${QR_EXPIRY_SECONDS.min} seconds (1 minute)`)
  .max(QR_EXPIRY_SECONDS.max, `must be at most ${QR_EXPIRY_SECONDS.max} seconds (150 minutes), PayMongo's limit`);

const paymongo = z
  .object({
    provider: z.literal('paymongo'),
    public_key: key(/^pk_(test|live)_[A-Za-z0-9]{8,}$/, 'a PayMongo public key (pk_test_… or pk_live_…)'),
    secret_key: key(/^sk_(test|live)_[A-Za-z0-9]{8,}$/, 'a PayMongo secret key (sk_test_… or sk_live_…)'),
    webhook_secret: key(/^whsk_[A-Za-z0-9]{8,}$/, "a PayMongo webhook's secret key (whsk_…)"),
    api_base_url: apiBaseUrl,
    /** `hosted`: customers pay on PayMongo's own checkout page; `card_form` (default): the card form on paylink's page. */
    checkout: z.enum(['card_form', 'hosted'], { error: 'must be card_form or hosted' }).optional(),
    qr_expiry_seconds: qrExpirySecondsSchema.optional(),
  })
  .strict();

const stripe = z
  .object({
    provider: z.literal('stripe'),
    public_key: key(/^pk_(test|live)_[A-Za-z0-9]{8,}$/, 'a Stripe publishable key (pk_test_… or pk_live_…)'),
    secret_key: key(/^(sk|rk)_(test|live)_[A-Za-z0-9]{8,}$/, 'a Stripe secret or restricted key (sk_… or rk_…)'),
    webhook_secret: key(/^whsec_[A-Za-z0-9]{8,}$/, 'a Stripe webhook signing secret (whsec_…)'),
    api_base_url: apiBaseUrl,
  })
  .strict();

export const acquirerInputSchema = z
  .discriminatedUnion(
    'provider',
    [z.object({ provider: z.literal('sandbox'), qr_expiry_seconds: qrExpirySecondsSchema.optional() }).strict(), paymongo, stripe],
    {
      error: 'provider must be sandbox, paymongo or stripe',
    },
  )
  .refine((a) => a.provider === 'sandbox' || mode(a.public_key) === mode(a.secret_key), {
    message: 'must be of the same mode as the public key (both test keys or both live keys)',
    path: ['secret_key'],
  });

export type AcquirerInput = z.infer<typeof acquirerInputSchema>;
