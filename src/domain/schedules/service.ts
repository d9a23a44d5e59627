import { and, desc, eq } from 'drizzle-orm';
import type { PaylinkApp } from '../../app.ts';
import { newId, sha256Hex } from '../../crypto.ts';
import type { Integrator, Payment, Schedule, ScheduleRun } from '../../db/schema.ts';
import { cardRegistrations, payments, scheduleRuns, schedules } from '../../db/schema.ts';
import { parseWith } from '../../schemas/parse.ts';
import { scheduleDataSchema } from '../../schemas/schedule.ts';
import { isUuid } from '../cards/service.ts';
import { invalidFields, type Messages, notFound } from '../errors.ts';
import { isCurrency, MoneyError, parseAmount } from '../money.ts';
import { recordEvent } from '../notifications/domain-events.ts';
import { cancelSchedulesTx } from './cancel.ts';
import { verifySchedulePayload } from './jwt.ts';
import { nextOccurrence, parseRecurrence, type Recurrence } from './recurrence.ts';

/** Spec rule 1: an unknown, inactive or foreign card reference reads the same: it does not exist. */
export const CARD_REFERENCE_MISSING = 'Card registration reference does not exist';

/** Schedule references carry a readable prefix; card registration references are UUIDs. */
export const isScheduleReference = (value: string) => /^sch_[0-9a-f]{32}$/.test(value);

const payloadHash = (token: string) => sha256Hex(`paylink-schedule-jwt:${token}`);

/**
 * POST /schedule. The same JWT presented again (by the same integrator) replies with the
 * schedule it created first: the JWT's hash is unique per integrator. The reply carries only
 * the reference so a replay is byte-for-byte the first reply's data.
 */
export async function createSchedule(app: PaylinkApp, integrator: Integrator, token: string): Promise<{ reference: string; replayed: boolean }> {
  const hash = payloadHash(token);
  const [seen] = await app.db
    .select({ id: schedules.id })
    .from(schedules)
    .where(and(eq(schedules.integratorId, integrator.id), eq(schedules.payloadHash, hash)));
  if (seen) return { reference: seen.id, replayed: true };

  const now = app.now();
  const claims = await verifySchedulePayload(token, app.secrets.open(integrator.secretEnc), now);
  if (claims.data === undefined || claims.data === null || typeof claims.data !== 'object') {
    throw invalidFields({ data: ['is required: the JWT must carry the schedule as its `data` claim (spec §2.2)'] });
  }
  const parsed = parseWith(scheduleDataSchema, claims.data, 'data');
  const messages: Messages = parsed.ok ? {} : { ...parsed.messages };
  // Spec rule 1 (and the 422 sample): a card reference that is not usable is `messages.reference`.
  const rawReference = (claims.data as { credit_card?: { reference?: unknown } }).credit_card?.reference;
  if (typeof rawReference === 'string' && !isUuid(rawReference)) messages.reference = [CARD_REFERENCE_MISSING];
  if (!parsed.ok) throw invalidFields(messages);
  const data = parsed.value;

  let amountMinor: bigint | undefined;
  if (!isCurrency(data.payment.currency)) messages['data.payment.currency'] = ['is not a supported ISO 4217 currency code'];
  else {
    try {
      amountMinor = parseAmount(data.payment.amount, data.payment.currency).minor;
    } catch (error) {
      if (!(error instanceof MoneyError)) throw error;
      messages['data.payment.amount'] = [error.message];
    }
  }
  const recurrence: Recurrence = data.schedule;
  const parsedRecurrence = parseRecurrence(recurrence, data.time_offset, {
    minIntervalSeconds: app.config.scheduleMinIntervalSeconds,
    now,
    prefix: { schedule: 'data.schedule.', timeOffset: 'data.time_offset' },
  });
  if (!parsedRecurrence.ok) Object.assign(messages, parsedRecurrence.messages);
  if (Object.keys(messages).length > 0) throw invalidFields(messages);
  const rec = parsedRecurrence.ok ? parsedRecurrence.value : undefined;
  const nextRunAt = nextOccurrence(rec!, now);

  return app.db.transaction(async (tx) => {
    // FOR SHARE: a concurrent deletion of the card waits, then cancels this schedule too.
    const [card] = await tx
      .select({ reference: cardRegistrations.reference, status: cardRegistrations.status })
      .from(cardRegistrations)
      .where(and(eq(cardRegistrations.reference, data.credit_card.reference.toLowerCase()), eq(cardRegistrations.integratorId, integrator.id)))
      .for('share');
    if (card?.status !== 'active') throw invalidFields({ reference: [CARD_REFERENCE_MISSING] });
    const id = newId('sch');
    const inserted = await tx
      .insert(schedules)
      .values({
        id,
        integratorId: integrator.id,
        cardRegistrationReference: card.reference,
        status: 'active',
        recurrence: data.schedule,
        cronPattern: rec!.cronPattern,
        timeOffset: data.time_offset,
        amountMinor: amountMinor!,
        currency: data.payment.currency,
        description: data.payment.description ?? null,
        merchantReferenceId: data.payment.merchant_reference_id ?? null,
        otherReferences: data.payment.other_references ?? [],
        callbackUrl: data.route?.callback_url ?? null,
        notifyUser: data.route?.notify_user ?? false,
        customerIpAddress: data.customer_ip_address ?? null,
        payloadHash: hash,
        nextRunAt,
        createdAt: now,
      })
      .onConflictDoNothing({ target: [schedules.integratorId, schedules.payloadHash] })
      .returning();
    if (inserted.length === 0) {
      // The same JWT arrived twice at once: the other request created it.
      const [first] = await tx
        .select({ id: schedules.id })
        .from(schedules)
        .where(and(eq(schedules.integratorId, integrator.id), eq(schedules.payloadHash, hash)));
      return { reference: first!.id, replayed: true };
    }
    await recordEvent(app.presentEvent, tx, {
      integratorId: integrator.id,
      event: { type: 'schedule.created', schedule: inserted[0]!, offsetMinutes: rec!.offsetMinutes },
      callbackUrl: data.route?.callback_url ?? null,
      now,
    });
    return { reference: id, replayed: false };
  });
}

/** What a cancellation did; `cancelledNow` is false when it had been cancelled before (nothing changed). */
export interface ScheduleCancellation {
  reference: string;
  cancelledNow: boolean;
  at: Date;
}

/** DELETE /schedule with a schedule reference. Cancelling twice is harmless. */
export async function cancelSchedule(app: PaylinkApp, integrator: Integrator, reference: string): Promise<ScheduleCancellation> {
  const now = app.now();
  return app.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: schedules.id, status: schedules.status, cancelledAt: schedules.cancelledAt })
      .from(schedules)
      .where(and(eq(schedules.id, reference), eq(schedules.integratorId, integrator.id)))
      .for('update');
    if (!row) throw notFound('reference', 'Reference');
    if (row.status === 'cancelled') return { reference: row.id, cancelledNow: false, at: row.cancelledAt ?? now };
    await cancelSchedulesTx(app, tx, { integratorId: integrator.id, scheduleId: row.id, now, reason: 'requested' });
    return { reference: row.id, cancelledNow: true, at: now };
  });
}

/** A schedule with its most recent runs (newest first) and each run's transaction. */
export interface ScheduleRecord {
  schedule: Schedule;
  runs: Array<{ run: ScheduleRun; payment: Pick<Payment, 'id' | 'status' | 'refundedMinor'> | null }>;
}

/** GET /schedules/{reference}: the schedule and its runs. */
export async function getSchedule(app: PaylinkApp, integrator: Integrator, reference: string, opts: { runLimit?: number } = {}): Promise<ScheduleRecord> {
  const [schedule] = await app.db
    .select()
    .from(schedules)
    .where(and(eq(schedules.id, reference), eq(schedules.integratorId, integrator.id)));
  if (!schedule) throw notFound('reference', 'Schedule');
  const runs = await app.db
    .select({ run: scheduleRuns, payment: { id: payments.id, status: payments.status, refundedMinor: payments.refundedMinor } })
    .from(scheduleRuns)
    .leftJoin(payments, eq(payments.id, scheduleRuns.paymentId))
    .where(eq(scheduleRuns.scheduleId, schedule.id))
    .orderBy(desc(scheduleRuns.dueAt))
    .limit(opts.runLimit ?? 100);
  return { schedule, runs };
}
