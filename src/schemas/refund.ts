import { z } from 'zod';
import { paymentMethodSchema } from './payment-method.ts';

/**
 * POST /refund body (spec §2.3). Lenient where the spec's own samples are: `notify_user` is a
 * boolean or the text "true"/"false"; `amount` is a JSON number or a decimal string. A request
 * without `amount` is a FULL refund, with it a PARTIAL one. The amount is parsed exactly against
 * the payment's currency by the refund service, so here it is only checked for its JSON type.
 */
export const REFUND_REASON_MAX_LENGTH = 500;
export const TRANSACTION_ID_MAX_LENGTH = 100;

export const transactionIdSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .trim()
  .min(1, 'must not be empty')
  .max(TRANSACTION_ID_MAX_LENGTH, `must be at most ${TRANSACTION_ID_MAX_LENGTH} characters`);

export const notifyUserSchema = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')], {
  error: (issue) => (issue.input === undefined ? 'is required' : 'must be true or false (a boolean, or the text "true" or "false")'),
});

export const refundRequestSchema = z
  .object({
    transaction_id: transactionIdSchema,
    notify_user: notifyUserSchema,
    reason: z
      .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
      .trim()
      .min(1, 'must not be empty: say why the transaction is refunded')
      .max(REFUND_REASON_MAX_LENGTH, `must be at most ${REFUND_REASON_MAX_LENGTH} characters`),
    amount: z
      .union([z.string(), z.number()], {
        error: 'must be a decimal amount such as "12.50" or 12.5; omit it for a FULL refund',
      })
      .optional(),
  })
  .strict();

const decimal = z.string().regex(/^\d+(\.\d+)?$/);
const refundCommon = {
  refund_id: z.string(),
  refund_type: z.enum(['FULL', 'PARTIAL']),
  refund_status: z.enum(['pending', 'succeeded', 'failed']),
  amount: decimal.meta({ description: 'What this refund returns.' }),
  refunded_amount: decimal.meta({ description: 'Sum of the payment’s succeeded refunds.' }),
  refundable_amount: decimal.meta({ description: 'What a later refund may still return.' }),
  currency: z.string(),
  payment_method: paymentMethodSchema.meta({ description: 'How the refunded payment was paid (card, qrph, gcash, …): the refund goes back the same way.' }),
};

/** POST /refund's data on OK.02.00 (FULL) and OK.04.00 (PARTIAL). */
export const refundReplySchema = z
  .object({ transaction_id: z.string(), ...refundCommon })
  .strict()
  .meta({ id: 'RefundResult' });
export type RefundReplyData = z.infer<typeof refundReplySchema>;

/** POST /refund's data on ER.20.26 (HTTP 200): the acquirer refused; the refund is recorded as failed. */
export const refundDeclinedSchema = z
  .object({ ...refundCommon, failure_code: z.string().nullable(), failure_message: z.string().nullable() })
  .strict()
  .meta({ id: 'RefundDeclined' });
export type RefundDeclinedData = z.infer<typeof refundDeclinedSchema>;
