import type { Integrator, Payment, Refund } from '../../db/schema.ts';
import type { Actor } from '../accounts/audit.ts';
import type { DomainContext } from '../context.ts';
import { beginRefund } from './reserve.ts';
import { completeRefund, current } from './settle.ts';

/**
 * A refund is three steps, so money is never lost or moved twice:
 *   tx1  lock the payment row, apply the rules, insert a `pending` refund and reserve its amount
 *        on the payment (refund_reserved_minor), so a concurrent refund sees the smaller balance;
 *   the acquirer call, outside any transaction, with an idempotency key derived from the refund id;
 *   tx2  mark the refund succeeded (move the amount from reserved to refunded) or failed (release
 *        it, keeping the acquirer's code and message), and write the outbox event, in one transaction.
 * tx1 and tx2 are each one statement in the usual case: a compare-and-set on the payment's
 * refund_version (bumped by every change to its refund columns) written together with the refund
 * row (tx1) or the refund's outcome and its event (tx2). The rules run on the payment as read; if
 * another refund changed it meanwhile, the compare-and-set matches nothing and the step runs
 * again as a transaction holding the payment row lock, where the rules see the latest balance.
 * A refund left `pending` by a crash between tx1 and tx2 is finished by `recoverPendingRefunds`
 * (the worker, and any later refund request on the same payment): it repeats the acquirer call
 * with the same key, which returns the first result, then runs tx2. tx2 only acts on a refund
 * that is still pending, so finishing one twice changes nothing.
 */

export interface RefundRequest {
  transactionId: string;
  notifyUser: boolean;
  reason: string;
  /** Absent: FULL. Present: PARTIAL, in the payment's currency. */
  amount?: string | number;
  /** The client's Idempotency-Key, if any: a retry after an interruption resumes the same refund. */
  idempotencyKey?: string;
  /** A console user asking: the refund is written to the audit log in the transaction that starts it; a staff member's is capped (caps.ts). */
  actor?: Actor;
  /** The amount a console user confirmed: if the refund would now be another amount, it is refused (ER.20.42). */
  confirmedAmountMinor?: bigint;
}

/** A refund as it stands after the request, with its payment's balances (src/api/presenters/refunds.ts words it). */
export interface RefundOutcome {
  refund: Refund;
  payment: Payment;
}

/** A refund through its three steps: tx1 (reserve.ts), the acquirer call and tx2 (settle.ts); recovery.ts finishes what they leave. */
export async function refundPayment(app: DomainContext, integrator: Integrator, request: RefundRequest): Promise<RefundOutcome> {
  const { refund, payment, reserved } = await beginRefund(app, integrator, request);
  if (refund.status !== 'pending') return current(app, refund.id);
  return completeRefund(app, refund, payment, reserved && { payment: reserved, defaultCallbackUrl: integrator.defaultCallbackUrl });
}
