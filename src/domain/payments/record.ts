import type { ChargeResult } from '../../acquirer/acquirer.ts';
import { newId } from '../../crypto.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Payment } from '../../db/schema.ts';
import { outboxEvents, payments } from '../../db/schema.ts';
import { insertRows } from '../../db/statements.ts';
import type { PaymentSale } from '../../schemas/link-sale.ts';
import type { DomainContext } from '../context.ts';
import { theRow } from '../errors.ts';
import { type CheckoutContext, type DomainEvent, defaultCallbackUrls, presentedEvent, type ScheduleRunContext } from '../notifications/domain-events.ts';
import { outboxRow } from '../notifications/outbox.ts';

export type { Payment };

/**
 * Records the outcome of an acquirer charge as a transaction (the spec's transaction_id) and
 * writes its event to the outbox, in the caller's database transaction. Used by checkout and
 * by the scheduler: a scheduled charge is an ordinary transaction.
 */
export interface RecordChargeInput {
  integratorId: string;
  result: ChargeResult;
  amountMinor: bigint;
  currency: string;
  /** The idempotency key the acquirer was called with: unique, so a recovered charge is recorded once. */
  idempotencyKey: string;
  linkId?: string | null;
  checkoutSessionId?: string | null;
  scheduleRunId?: string | null;
  cardRegistrationReference?: string | null;
  description?: string | null;
  merchantReferenceId?: string | null;
  otherReferences?: string[];
  customer?: Record<string, string>;
  customerEmail?: string | null;
  /** What a payment page sold (items, tip, code, answers); null: one amount. */
  sale?: PaymentSale | null;
  callbackUrl?: string | null;
  notifyUser?: boolean;
  /** A checkout attempt: the event is payment.*, with the link and attempt. */
  checkout?: CheckoutContext;
  /** A scheduled charge: the event is schedule.charge_*, with the run. */
  run?: ScheduleRunContext;
  now: Date;
}

export async function recordCharge(app: Pick<DomainContext, 'presentEvent'>, tx: DbOrTx, input: RecordChargeInput): Promise<Payment> {
  return theRow(await recordCharges(app, tx, [input]), 'the recorded payment');
}

/**
 * Several charges at once (the scheduler records a batch): one multi-row insert of the payments and
 * one of their events, in input order.
 */
export async function recordCharges(app: Pick<DomainContext, 'presentEvent'>, tx: DbOrTx, inputs: RecordChargeInput[]): Promise<Payment[]> {
  if (inputs.length === 0) return [];
  const rows = inputs.map((input) => {
    const succeeded = input.result.status === 'succeeded';
    const declined = input.result.status === 'declined' ? input.result : undefined;
    return {
      id: newId('txn'),
      integratorId: input.integratorId,
      linkId: input.linkId ?? null,
      checkoutSessionId: input.checkoutSessionId ?? null,
      scheduleRunId: input.scheduleRunId ?? null,
      cardRegistrationReference: input.cardRegistrationReference ?? null,
      status: succeeded ? ('succeeded' as const) : ('failed' as const),
      amountMinor: input.amountMinor,
      currency: input.currency,
      description: input.description ?? null,
      merchantReferenceId: input.merchantReferenceId ?? null,
      otherReferences: input.otherReferences ?? [],
      customer: input.customer ?? {},
      customerEmail: input.customerEmail ?? null,
      sale: input.sale ?? null,
      callbackUrl: input.callbackUrl ?? null,
      notifyUser: input.notifyUser ?? false,
      paymentMethod: input.result.method ?? ('card' as const),
      paymentBank: input.result.bank ?? null,
      cardBrand: input.result.brand ?? null,
      cardLast4: input.result.last4 ?? null,
      cardFingerprint: input.result.fingerprint ?? null,
      acquirerReference: input.result.status === 'succeeded' ? input.result.chargeId : null,
      failureCode: declined?.code ?? null,
      failureMessage: declined?.message ?? null,
      idempotencyKey: input.idempotencyKey,
      createdAt: input.now,
      paidAt: succeeded ? input.now : null,
      failedAt: succeeded ? null : input.now,
    };
  });
  const inserted = await insertRows(tx, payments, rows);
  const byId = new Map(inserted.map((p) => [p.id, p]));
  const recorded = rows.map((r) => {
    const payment = byId.get(r.id);
    if (!payment) throw new Error(`payment ${r.id} was not returned by its insert`);
    return payment;
  });
  const defaults = await defaultCallbackUrls(
    tx,
    inputs.filter((i) => !i.callbackUrl).map((i) => i.integratorId),
  );
  await insertRows(
    tx,
    outboxEvents,
    inputs.map((input, n) => {
      const payment = recorded[n]!;
      const succeeded = payment.status === 'succeeded';
      const event: DomainEvent = input.run
        ? { type: succeeded ? 'schedule.charge_succeeded' : 'schedule.charge_failed', payment, run: input.run }
        : { type: succeeded ? 'payment.succeeded' : 'payment.failed', payment, checkout: input.checkout };
      return outboxRow(
        presentedEvent(app.presentEvent, {
          integratorId: input.integratorId,
          event,
          callbackUrl: input.callbackUrl || (defaults.get(input.integratorId) ?? null),
          // The customer paying on a checkout page sees a decline there; a scheduled charge happens
          // while they are away, so they hear about a failed one too.
          emailTo: input.notifyUser && (succeeded || input.run !== undefined) ? input.customerEmail : null,
          now: input.now,
        }),
      );
    }),
    { returning: false },
  );
  return recorded;
}
