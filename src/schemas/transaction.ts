import { z } from 'zod';
import { customerViewSchema } from './customer.ts';
import { localizedTextSchema } from './link-sale.ts';
import { emailFilter, listQuerySchema, pageSchema, referenceFilter } from './pagination.ts';
import { paymentMethodSchema, paymentMethods } from './payment-method.ts';

/**
 * GET /transactions/{transaction_id} and GET /transactions: a payment with its refunds, as
 * integrators reconcile it. Amounts are exact decimal strings in the payment's currency; times
 * are ISO 8601 UTC.
 */
const decimal = z.string().regex(/^\d+(\.\d+)?$/);
const isoTime = z.string().meta({ format: 'date-time' });

/** How the customer paid, on every transaction and refund view (the ids of src/schemas/payment-method.ts). */
export const paymentMethodField = paymentMethodSchema.describe(
  `How the customer paid: ${paymentMethods.join(', ')}. For \`card\`, \`card\` holds the brand and last four; for the others it is null.`,
);

/** The `payment_method` filter of the transaction and refund lists: one known method, else a field error. */
const paymentMethodFilter = z
  .enum(paymentMethods, { error: `must be one of ${paymentMethods.join(', ')}` })
  .optional()
  .describe('Only those paid by this method.');

export const transactionRefundStates = ['not_refunded', 'partially_refunded', 'refunded'] as const;
export type TransactionRefundState = (typeof transactionRefundStates)[number];

export const cardViewSchema = z
  .object({
    brand: z.string().nullable().describe('Card brand, e.g. visa.'),
    last4: z.string().nullable().describe('Last four digits of the card number.'),
    exp_month: z.number().int().nullable().describe('Expiry month (1–12), when known.'),
    exp_year: z.number().int().nullable().describe('Expiry year, when known.'),
  })
  .strict()
  .describe('The card: brand, last 4 and expiry only, never the number.');

export const refundViewSchema = z
  .object({
    refund_id: z.string().describe('The refund id (rfd_…).'),
    refund_type: z.enum(['FULL', 'PARTIAL']).describe('FULL or PARTIAL.'),
    status: z.enum(['pending', 'succeeded', 'failed']).describe('pending while the acquirer answers; then succeeded or failed.'),
    amount: decimal.describe('Refunded amount, decimal string.'),
    currency: z.string().describe('ISO 4217 code.'),
    reason: z.string().describe('Why it was refunded, as given.'),
    notify_user: z.boolean().describe('Whether the customer is e-mailed.'),
    acquirer_reference: z.string().nullable().describe('The acquirer’s id for the refund.'),
    failure_code: z.string().nullable().describe('Why it failed, when it did.'),
    failure_message: z.string().nullable().describe('Why it failed, in words.'),
    created_at: isoTime.describe('When it was requested (ISO 8601).'),
    succeeded_at: isoTime.nullable().describe('When it succeeded.'),
    failed_at: isoTime.nullable().describe('When it failed.'),
  })
  .strict()
  .meta({ id: 'Refund' });
export type RefundView = z.infer<typeof refundViewSchema>;

/** What a payment bought, when its link sold items, took a tip or a promotion code, or asked questions. */
export const saleViewSchema = z
  .object({
    lines: z
      .array(
        z
          .object({
            id: z.string().describe('The item’s id on the link.'),
            name: localizedTextSchema(120).describe('The item’s name as the merchant wrote it: English, with Filipino and Spanish where written.'),
            unit_amount: decimal.describe('Price of one, decimal string.'),
            quantity: z.number().int().describe('How many were bought.'),
            amount: decimal.describe('unit_amount × quantity.'),
          })
          .strict(),
      )
      .describe('The items bought; empty when the link sells one amount.'),
    subtotal: decimal.describe('What was bought, before the discount and the tip.'),
    discount: z
      .object({ code: z.string().describe('The promotion code, as the merchant wrote it.'), amount: decimal.describe('What the code took off.') })
      .strict()
      .nullable()
      .describe('The promotion code used; null when none.'),
    tip: decimal.describe('The tip; "0.00" when none.'),
    answers: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
      .describe(
        'Answers to the link’s questions, by question id: text, dropdown values and dates (YYYY-MM-DD) as strings, numbers as numbers, checkboxes as booleans; an unanswered question is absent.',
      ),
  })
  .strict()
  .meta({ id: 'Sale' });
export type SaleView = z.infer<typeof saleViewSchema>;

export const transactionViewSchema = z
  .object({
    transaction_id: z.string().describe('The transaction id (txn_…), the spec’s transaction_id.'),
    status: z.enum(['succeeded', 'failed']).describe('Whether the charge succeeded.'),
    refund_state: z.enum(transactionRefundStates).describe('not_refunded, partially_refunded or refunded.'),
    amount: decimal.describe('Charged amount, decimal string.'),
    currency: z.string().describe('ISO 4217 code.'),
    refunded_amount: decimal.describe('Sum of succeeded refunds.'),
    pending_refund_amount: decimal.describe('Held by refunds still waiting for the acquirer.'),
    refundable_amount: decimal.describe('What a new refund may still return: amount − refunded − pending.'),
    refund_count: z.number().int().describe('How many refunds were requested.'),
    description: z.string().nullable().describe('Payment description.'),
    merchant_reference_id: z.string().nullable().describe('The integrator’s own reference.'),
    other_references: z.array(z.string()).describe('Additional references, as given.'),
    link: z.string().nullable().describe('Slug of the payment link it was paid through; null for scheduled charges.'),
    schedule_reference: z.string().nullable().describe('The schedule it was charged by (sch_…); null for link payments.'),
    customer: customerViewSchema.nullable().describe('Who paid, as given; null when nothing was given.'),
    payment_method: paymentMethodField,
    card: cardViewSchema.nullable().describe('The card, for `payment_method: card`; null for every other method.'),
    failure_code: z.string().nullable().describe('Why the charge failed, when it did.'),
    failure_message: z.string().nullable().describe('Why the charge failed, in words.'),
    created_at: isoTime.describe('When it was recorded (ISO 8601).'),
    paid_at: isoTime.nullable().describe('When it succeeded.'),
    failed_at: isoTime.nullable().describe('When it failed.'),
    refunded_at: isoTime.nullable().describe('When it became wholly refunded.'),
    refunds: z.array(refundViewSchema).describe('Its refunds, oldest first.'),
    sale: saleViewSchema
      .nullable()
      .describe(
        'What the payment bought (items, promotion code, tip, answers to the link’s questions); null for a payment of one amount with nothing asked. `amount` is the total: subtotal − discount + tip.',
      ),
  })
  .strict()
  .meta({ id: 'Transaction' });
export type TransactionView = z.infer<typeof transactionViewSchema>;

export const transactionReplySchema = z.object({ transaction: transactionViewSchema }).strict();
/** GET /api/v1/transactions. */
export const transactionsQuerySchema = listQuerySchema({
  status: z.enum(['succeeded', 'failed'], { error: 'must be succeeded or failed' }).optional().describe('Only transactions in this state.'),
  refund_state: z
    .enum(['not_refunded', 'partially_refunded', 'refunded'], { error: 'must be not_refunded, partially_refunded or refunded' })
    .optional()
    .describe('Only transactions with this refund_state (a failed transaction is not_refunded).'),
  link: z
    .string()
    .regex(/^[a-z0-9-]{1,64}$/, 'must be a link slug (a-z, 0-9 and -)')
    .optional()
    .describe('Only transactions paid through the link with this slug.'),
  merchant_reference_id: referenceFilter.optional().describe('Only transactions with exactly this merchant_reference_id.'),
  customer_email: emailFilter.optional(),
  payment_method: paymentMethodFilter,
});
export type TransactionsQuery = z.infer<typeof transactionsQuerySchema>;
export const transactionPageSchema = pageSchema(transactionViewSchema);

/** A refund as listed (GET /api/v1/refunds): the refund, its transaction and who paid. */
export const refundListItemSchema = refundViewSchema.extend({
  transaction_id: z.string().describe('The refunded transaction.'),
  merchant_reference_id: z.string().nullable().describe('The transaction’s merchant_reference_id.'),
  other_references: z.array(z.string()).describe('The transaction’s other_references.'),
  description: z.string().nullable().describe('The transaction’s description.'),
  link: z.string().nullable().describe('Slug of the link the transaction was paid through.'),
  customer: customerViewSchema.nullable(),
  payment_method: paymentMethodField.describe('How the refunded transaction was paid; the refund goes back the same way.'),
});
export type RefundListItem = z.infer<typeof refundListItemSchema>;

/** GET /api/v1/refunds. */
export const refundsQuerySchema = listQuerySchema({
  status: z.enum(['pending', 'succeeded', 'failed'], { error: 'must be pending, succeeded or failed' }).optional().describe('Only refunds in this state.'),
  transaction_id: z
    .string()
    .regex(/^txn_[0-9a-f]{32}$/, 'must be a transaction id (txn_…)')
    .optional()
    .describe('Only refunds of this transaction.'),
  payment_method: paymentMethodFilter.describe('Only refunds of transactions paid by this method.'),
});
export type RefundsQuery = z.infer<typeof refundsQuerySchema>;
export const refundPageSchema = pageSchema(refundListItemSchema);
