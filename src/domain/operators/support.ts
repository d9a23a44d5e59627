import { eq } from 'drizzle-orm';
import { integrators } from '../../db/schema.ts';
import { recordAudit } from '../accounts/audit.ts';
import type { RequestOrigin } from '../accounts/sessions.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, invalidFields, notFound } from '../errors.ts';
import { findTransaction, type TransactionRecord } from '../payments/query.ts';
import { identityOperatorActor, type OperatorIdentity } from './accounts.ts';
import { recordOperatorAudit } from './audit.ts';

/**
 * Support reads one of an integrator's payments (its customer, card, refunds) only for a support
 * task, and says why: the reason (a ticket number and what the integrator asked) is required, and
 * every look-up is audited before anything is shown, in the operator log (`payment.read`, or
 * `payment.read_missing` for an id the integrator has no payment with) and, for a payment read, in
 * the integrator's own activity log, so the merchant sees what support looked at. Aggregate volumes
 * (the integrators list, an integrator's page) are not individual data and need no reason.
 */
export const SUPPORT_REASON_LENGTH = { min: 10, max: 300 } as const;
const PAYMENT_ID_MAX = 100;

export interface SupportLookup {
  payment_id: string;
  reason: string;
}

function parseLookup(input: SupportLookup): SupportLookup {
  const paymentId = input.payment_id.trim();
  const reason = input.reason.trim().replace(/\s+/g, ' ');
  const messages: Record<string, string[]> = {};
  if (!paymentId) messages.payment_id = ['give the payment id the integrator asks about (txn_…)'];
  else if (paymentId.length > PAYMENT_ID_MAX || !/^[\w-]+$/.test(paymentId)) messages.payment_id = ['is not a payment id (txn_… from the API or the console)'];
  if (reason.length < SUPPORT_REASON_LENGTH.min)
    messages.reason = [`say why you need it, at least ${SUPPORT_REASON_LENGTH.min} characters (the ticket and what the integrator asked)`];
  else if (reason.length > SUPPORT_REASON_LENGTH.max) messages.reason = [`at most ${SUPPORT_REASON_LENGTH.max} characters`];
  if (Object.keys(messages).length > 0) throw invalidFields(messages);
  return { payment_id: paymentId, reason };
}

/** One payment of one integrator for a support task: audited (with the reason) before it is returned. */
export async function readPaymentForSupport(
  app: DomainContext,
  identity: OperatorIdentity,
  integratorId: string,
  input: SupportLookup,
  from: RequestOrigin,
): Promise<TransactionRecord> {
  const lookup = parseLookup(input);
  const [integrator] = await app.db.select({ id: integrators.id, name: integrators.name }).from(integrators).where(eq(integrators.id, integratorId));
  if (!integrator) throw notFound('(request)', 'This integrator');
  const record = await findTransaction(app, integrator, lookup.payment_id).catch((error: unknown) => {
    if (error instanceof DomainError && error.httpStatus === 404) return undefined;
    throw error;
  });
  const now = app.now();
  const target = `${lookup.payment_id}: ${lookup.reason}`;
  await app.db.transaction(async (tx) => {
    await recordOperatorAudit(tx, identityOperatorActor(identity, from), record ? 'payment.read' : 'payment.read_missing', { integratorId, target }, now);
    if (record)
      await recordAudit(tx, { integratorId, userId: null, email: `support (${identity.operator.email})`, ...from }, 'payment.read_by_support', target, now);
  });
  if (!record) throw notFound('payment_id', `A payment ${lookup.payment_id} of ${integrator.name}`);
  return record;
}
