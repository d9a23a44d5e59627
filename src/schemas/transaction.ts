import { z } from 'zod';

/**
 * GET /transactions/{transaction_id}: a payment with its refunds, as integrators reconcile it.
 * Amounts are exact decimal strings in the payment's currency; times are ISO 8601 UTC.
 */
const decimal = z.string().regex(/^\d+(\.\d+)?$/);
const isoTime = z.string().meta({ format: 'date-time' });

export const transactionRefundStates = ['not_refunded', 'partially_refunded', 'refunded'] as const;
export type TransactionRefundState = (typeof transactionRefundStates)[number];

export const refundViewSchema = z
  .object({
    refund_id: z.string(),
    refund_type: z.enum(['FULL', 'PARTIAL']),
    status: z.enum(['pending', 'succeeded', 'failed']),
    amount: decimal,
    currency: z.string(),
    reason: z.string(),
    notify_user: z.boolean(),
    acquirer_reference: z.string().nullable(),
    failure_code: z.string().nullable(),
    failure_message: z.string().nullable(),
    created_at: isoTime,
    succeeded_at: isoTime.nullable(),
    failed_at: isoTime.nullable(),
  })
  .strict()
  .meta({ id: 'Refund' });
export type RefundView = z.infer<typeof refundViewSchema>;

export const transactionViewSchema = z
  .object({
    transaction_id: z.string(),
    status: z.enum(['succeeded', 'failed']),
    refund_state: z.enum(transactionRefundStates),
    amount: decimal,
    currency: z.string(),
    refunded_amount: decimal.meta({ description: 'Sum of succeeded refunds.' }),
    pending_refund_amount: decimal.meta({ description: 'Held by refunds still waiting for the acquirer.' }),
    refundable_amount: decimal.meta({ description: 'What a new refund may still return: amount − refunded − pending.' }),
    refund_count: z.number().int(),
    description: z.string().nullable(),
    merchant_reference_id: z.string().nullable(),
    other_references: z.array(z.string()),
    card: z.object({ brand: z.string().nullable(), last4: z.string().nullable() }).strict().nullable(),
    failure_code: z.string().nullable(),
    failure_message: z.string().nullable(),
    created_at: isoTime,
    paid_at: isoTime.nullable(),
    failed_at: isoTime.nullable(),
    refunded_at: isoTime.nullable(),
    refunds: z.array(refundViewSchema),
  })
  .strict()
  .meta({ id: 'Transaction' });
export type TransactionView = z.infer<typeof transactionViewSchema>;

export const transactionReplySchema = z.object({ transaction: transactionViewSchema }).strict();
