import { z } from 'zod';

/**
 * What the payment forms' JSON endpoints answer (POST /checkout/{token}/pay, /pay/{slug}/pay):
 * kept apart from checkout.ts, which the card island loads (zod classic would not fit its budget).
 */
export const paymentSucceededSchema = z
  .object({ transaction_id: z.string(), redirect_url: z.string().meta({ description: 'The receipt page.' }) })
  .strict()
  .meta({ id: 'PaymentSucceeded' });

export const paymentDeclinedSchema = z
  .object({
    transaction_id: z.string(),
    decline_code: z.string(),
    attempts_left: z.number().int().meta({ description: 'Card attempts left on this checkout before it locks.' }),
  })
  .strict()
  .meta({ id: 'PaymentDeclined' });
