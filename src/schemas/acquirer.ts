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

const paymongo = z
  .object({
    provider: z.literal('paymongo'),
    public_key: key(/^pk_(test|live)_[A-Za-z0-9]{8,}$/, 'a PayMongo public key (pk_test_… or pk_live_…)'),
    secret_key: key(/^sk_(test|live)_[A-Za-z0-9]{8,}$/, 'a PayMongo secret key (sk_test_… or sk_live_…)'),
    webhook_secret: key(/^whsk_[A-Za-z0-9]{8,}$/, "a PayMongo webhook's secret key (whsk_…)"),
    api_base_url: apiBaseUrl,
    /** `hosted`: customers pay on PayMongo's own checkout page; `card_form` (default): the card form on paylink's page. */
    checkout: z.enum(['card_form', 'hosted'], { error: 'must be card_form or hosted' }).optional(),
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
  .discriminatedUnion('provider', [z.object({ provider: z.literal('sandbox') }).strict(), paymongo, stripe], {
    error: 'provider must be sandbox, paymongo or stripe',
  })
  .refine((a) => a.provider === 'sandbox' || mode(a.public_key) === mode(a.secret_key), {
    message: 'must be of the same mode as the public key (both test keys or both live keys)',
    path: ['secret_key'],
  });

export type AcquirerInput = z.infer<typeof acquirerInputSchema>;
