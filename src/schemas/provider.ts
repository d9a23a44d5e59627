import { z } from 'zod';

/** What the PayMongo card form gets back when it starts a payment (src/components/PaymongoCardForm.tsx). */
export const providerStartSchemas = [
  z.object({
    provider_payment_id: z.string().meta({ description: 'The PayMongo PaymentIntent (pi_…).' }),
    client_key: z.string().meta({ description: 'The intent’s client key: the browser attaches the card with it.' }),
    public_key: z.string().meta({ description: 'The merchant’s PayMongo public key.' }),
    api_base_url: z.string().meta({ description: 'PayMongo’s API origin.' }),
    return_url: z.string().meta({ description: 'Where PayMongo sends the customer back after 3-D Secure.' }),
  }),
  z.object({ redirect_url: z.string().meta({ description: 'The attempt is already settled: the checkout page.' }) }),
  z.object({ next_action_url: z.string().meta({ description: 'The attempt waits for 3-D Secure: the provider’s page.' }) }),
] as const;

/** The form's body: the customer's own fields and the amount (open-amount links); never a card. */
export const providerStartBodySchema = z.object({
  session: z.string().max(200).optional().meta({ description: 'Static links only: the page’s ticket.' }),
  amount: z.string().max(32).optional(),
  fields: z.record(z.string(), z.string().max(1000)).optional(),
  sale: z.string().max(20_000).optional().meta({ description: 'What the page sells, as its sale form would post it (items, tip, code, answers).' }),
});

export const providerWebhookReplySchema = z.object({
  outcome: z
    .enum(['applied', 'duplicate', 'ignored'])
    .meta({ description: 'applied: acted on; duplicate: this event id was handled before; ignored: a type paylink does not act on.' }),
});
