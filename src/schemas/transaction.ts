import type { RefundStatusName, RefundTypeName } from './refund.ts';

/**
 * GET /transactions/{transaction_id}: a payment with its refunds, as integrators reconcile it.
 * Amounts are exact decimal strings in the payment's currency; times are ISO 8601 UTC.
 */
export type TransactionRefundState = 'not_refunded' | 'partially_refunded' | 'refunded';

export interface RefundView {
  refund_id: string;
  refund_type: RefundTypeName;
  status: RefundStatusName;
  amount: string;
  currency: string;
  reason: string;
  notify_user: boolean;
  acquirer_reference: string | null;
  failure_code: string | null;
  failure_message: string | null;
  created_at: string;
  succeeded_at: string | null;
  failed_at: string | null;
}

export interface TransactionView {
  transaction_id: string;
  status: 'succeeded' | 'failed';
  refund_state: TransactionRefundState;
  amount: string;
  currency: string;
  /** Sum of succeeded refunds. */
  refunded_amount: string;
  /** Held by refunds still waiting for the acquirer. */
  pending_refund_amount: string;
  /** What a new refund may still return: amount − refunded − pending. */
  refundable_amount: string;
  refund_count: number;
  description: string | null;
  merchant_reference_id: string | null;
  other_references: string[];
  card: { brand: string | null; last4: string | null } | null;
  failure_code: string | null;
  failure_message: string | null;
  created_at: string;
  paid_at: string | null;
  failed_at: string | null;
  refunded_at: string | null;
  refunds: RefundView[];
}
