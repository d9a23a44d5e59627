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

/** A subscription link's free trial started instead of a payment (docs/subscriptions.md §2, "Trials"). */
export const trialStartedSchema = z
  .object({
    schedule_reference: z.string().meta({ description: 'The subscription’s schedule.' }),
    first_charge_at: z.string().nullable().meta({ description: 'The first charge: the trial’s end (ISO 8601).' }),
    redirect_url: z.string().meta({ description: 'The confirmation page.' }),
  })
  .strict()
  .meta({ id: 'TrialStarted' });

export const trialDeclinedSchema = z
  .object({
    decline_code: z.string(),
    attempts_left: z.number().int().meta({ description: 'Card attempts left on this checkout before it locks.' }),
  })
  .strict()
  .meta({ id: 'TrialDeclined' });
