import { and, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { ChargeResult } from '../../acquirer/acquirer.ts';
import { sha256Hex } from '../../crypto.ts';
import type { Tx } from '../../db/client.ts';
import { type CheckoutSession, cardRegistrations, checkoutSessions, scheduleRuns, schedules } from '../../db/schema.ts';
import { checkoutPath, insertSession, newSessionToken } from '../checkout/sessions.ts';
import type { DomainContext } from '../context.ts';
import { ensureSystemLink } from '../links/editor.ts';
import { recordEvent, type ScheduleRunContext } from '../notifications/domain-events.ts';
import { type ClaimedCharge, INTEGRATOR_ACTIVE } from './claim.ts';
import { countFailedOccurrence } from './record.ts';
import { cadenceOf, nextRunAfter, parseTimeOffset } from './recurrence.ts';
import { lockPendingRuns } from './run-locks.ts';

/**
 * A payment link e-mailed each cycle (docs/acquirers.md, "Schedules"): for a registration whose
 * acquirer cannot charge a saved card off-session (PayMongo), each due occurrence becomes a
 * checkout session for exactly its amount, and the customer is e-mailed its address. paylink keeps
 * the recurrence, the runs, refunds and callbacks as for a saved card.
 *
 * Exactly once per occurrence: the run is claimed as any other (claim.ts); the session, the run's
 * move to `awaiting_customer` and the `schedule.payment_link_sent` event (whose e-mail is the link)
 * are written in one transaction that first checks the run is still pending at its attempt. A
 * crash before it commits leaves the run pending, and the next claim after its lease writes them
 * then; a second runner finds the run no longer pending and writes nothing.
 *
 * The link stays open until the schedule's next occurrence, at most PAY_LINK_MAX_OPEN_SECONDS.
 * Paid through it, the run is `succeeded` with that payment and `schedule.charge_succeeded` fires
 * (`runPaidThroughSession`, called when the checkout records its payment); expired unpaid, the run
 * is `failed` with `payment_link_expired` and counts towards suspension like a declined occurrence.
 */
export const PAY_LINK_MAX_OPEN_SECONDS = 7 * 86_400;

export const PAY_LINK_EXPIRED = {
  code: 'payment_link_expired',
  message: 'The customer did not pay the payment link before it expired.',
} as const;

/** Why the customer is sent a link: their registration keeps no card, or the bank wants them present for this charge. */
export type PayLinkReason = 'pay_by_link' | 'authentication_required';

export interface PayLinkItem {
  claim: ClaimedCharge;
  reason: PayLinkReason;
  /** The off-session decline that brought the customer back (authentication_required). */
  failure?: { code: string; message: string };
}

/** An off-session decline the customer can clear by paying themselves (Stripe's authentication_required, 3-D Secure asked). */
export const wantsCustomer = (result: ChargeResult) =>
  result.status === 'declined' && (result as { customerAction?: string }).customerAction === 'authenticate';

/** When an occurrence's link stops taking payments: the schedule's next occurrence, at most PAY_LINK_MAX_OPEN_SECONDS from now. */
export function payLinkExpiry(claim: Pick<ClaimedCharge, 'cronPattern' | 'timeOffset' | 'every' | 'anchorAt' | 'dueAt'>, now: Date): Date {
  const cap = new Date(now.getTime() + PAY_LINK_MAX_OPEN_SECONDS * 1000);
  const next = nextRunAfter(cadenceOf(claim), now, claim.dueAt);
  return next && next.getTime() < cap.getTime() ? next : cap;
}

/**
 * The integrator's link the occurrences' checkout sessions belong to (a session always belongs to a
 * link): made on first use, a system link (links.system: never listed, edited or deactivated by the
 * merchant, never paid at its own address, which shows "use the personal link you were sent"; no
 * merchant link can take its slug prefix). One per integrator, by a slug derived from its id.
 */
async function scheduleLink(tx: Tx, integratorId: string, currency: string, now: Date): Promise<string> {
  const slug = `scheduled-payments-${sha256Hex(`paylink-schedule-link:${integratorId}`).slice(0, 16)}`;
  return ensureSystemLink(tx, {
    integratorId,
    slug,
    title: 'Scheduled payment',
    currency,
    fields: { 'customer.contact.email': 'system' },
    now,
  });
}

/** The registration's name as the form's first and last name (the last word is the last name). */
function nameFields(name: string | null): Record<string, string> {
  const words = name?.trim().split(/\s+/).filter(Boolean) ?? [];
  if (words.length === 0) return {};
  if (words.length === 1) return { 'customer.first_name': words[0]! };
  return { 'customer.first_name': words.slice(0, -1).join(' '), 'customer.last_name': words.at(-1)! };
}

const runContext = (claim: Pick<ClaimedCharge, 'scheduleId' | 'runId' | 'dueAt' | 'timeOffset' | 'attempt'>): ScheduleRunContext => ({
  scheduleId: claim.scheduleId,
  runId: claim.runId,
  dueAt: claim.dueAt,
  offsetMinutes: parseTimeOffset(claim.timeOffset) ?? 0,
  attempt: claim.attempt,
});

/**
 * Writes each occurrence's checkout session, moves its run to `awaiting_customer` and writes the
 * `schedule.payment_link_sent` event that e-mails the customer, all in one transaction; runs no
 * longer pending at their attempt (sent by another runner) are left alone.
 */
export async function sendPaymentLinks(app: DomainContext, items: PayLinkItem[]): Promise<Array<'awaiting_customer' | 'already_recorded'>> {
  if (items.length === 0) return [];
  const now = app.now();
  return app.db.transaction(async (tx) => {
    const open = await lockPendingRuns(
      tx,
      items.map((i) => i.claim.runId),
    );
    const outcomes: Array<'awaiting_customer' | 'already_recorded'> = items.map(() => 'already_recorded');
    const linkIds = new Map<string, string>();
    for (const [n, { claim, reason, failure }] of items.entries()) {
      if (open.get(claim.runId) !== claim.attempt) continue;
      open.delete(claim.runId);
      let linkId = linkIds.get(claim.integratorId);
      if (!linkId) linkIds.set(claim.integratorId, (linkId = await scheduleLink(tx, claim.integratorId, claim.currency, now)));
      const expiresAt = payLinkExpiry(claim, now);
      const token = newSessionToken();
      const session = await insertSession(app, tx, token, {
        linkId,
        integratorId: claim.integratorId,
        kind: 'dynamic',
        amountMinor: claim.amountMinor,
        currency: claim.currency,
        description: claim.description,
        merchantReferenceId: claim.merchantReferenceId,
        systemValues: { ...nameFields(claim.customerName), ...(claim.customerEmail ? { 'customer.contact.email': claim.customerEmail } : {}) },
        callbackUrl: claim.callbackUrl,
        notifyUser: claim.notifyUser,
        expiresAt,
        scheduleRunId: claim.runId,
      });
      await tx
        .update(scheduleRuns)
        .set({
          status: 'awaiting_customer',
          nextAttemptAt: expiresAt,
          lockedUntil: null,
          checkoutSessionId: session.id,
          ...(failure ? { lastFailureCode: failure.code, lastFailureMessage: failure.message } : {}),
        })
        .where(eq(scheduleRuns.id, claim.runId));
      await recordEvent(app.presentEvent, tx, {
        integratorId: claim.integratorId,
        event: {
          type: 'schedule.payment_link_sent',
          run: runContext(claim),
          amountMinor: claim.amountMinor,
          currency: claim.currency,
          description: claim.description,
          merchantReferenceId: claim.merchantReferenceId,
          paymentUrl: `${app.origin()}${checkoutPath(token)}`,
          expiresAt,
          reason,
          failure: failure ?? null,
        },
        callbackUrl: claim.callbackUrl,
        // The customer must get the link whatever `notify_user` says: it is how they pay.
        emailTo: claim.customerEmail,
        now,
      });
      outcomes[n] = 'awaiting_customer';
    }
    return outcomes;
  });
}

/**
 * Runs whose link expired unpaid: `failed` with `payment_link_expired`, `schedule.payment_link_expired`
 * written, and counted towards suspension like a declined occurrence. A payment still in progress
 * at that moment is recorded when it settles and still pays the run (`runPaidThroughSession`).
 */
export async function expireUnpaidLinks(app: DomainContext, opts: { limit: number }): Promise<{ missed: number; suspended: number }> {
  const now = app.now();
  const result = { missed: 0, suspended: 0 };
  await app.db.transaction(async (tx) => {
    const due = await tx
      .select({
        runId: scheduleRuns.id,
        dueAt: scheduleRuns.dueAt,
        attempt: scheduleRuns.attempts,
        sessionId: scheduleRuns.checkoutSessionId,
        scheduleId: schedules.id,
        integratorId: schedules.integratorId,
        timeOffset: schedules.timeOffset,
        callbackUrl: schedules.callbackUrl,
        notifyUser: schedules.notifyUser,
        customerEmail: cardRegistrations.customerEmail,
      })
      .from(scheduleRuns)
      .innerJoin(schedules, eq(schedules.id, scheduleRuns.scheduleId))
      .innerJoin(cardRegistrations, eq(cardRegistrations.reference, schedules.cardRegistrationReference))
      // A suspended merchant's link cannot be paid, so it is not counted missed before reactivation.
      .where(and(sql`${scheduleRuns.status} = 'awaiting_customer'`, lte(scheduleRuns.nextAttemptAt, now), INTEGRATOR_ACTIVE))
      .orderBy(scheduleRuns.nextAttemptAt)
      .limit(opts.limit)
      .for('update', { of: scheduleRuns, skipLocked: true });
    for (const run of due) {
      // A payment being recorded on the session holds its row (pay.ts recordAttempt, which then locks
      // the run): skip it rather than wait in the opposite order; the next tick sees how it ended.
      const [session] = run.sessionId
        ? await tx
            .select({ status: checkoutSessions.status })
            .from(checkoutSessions)
            .where(eq(checkoutSessions.id, run.sessionId))
            .for('update', { skipLocked: true })
        : [];
      if (run.sessionId && !session) continue;
      if (session?.status === 'paid') continue; // never: a paid session closed its run in the same transaction
      await tx
        .update(scheduleRuns)
        .set({
          status: 'failed',
          nextAttemptAt: null,
          completedAt: now,
          lastFailureCode: PAY_LINK_EXPIRED.code,
          lastFailureMessage: PAY_LINK_EXPIRED.message,
        })
        .where(eq(scheduleRuns.id, run.runId));
      await recordEvent(app.presentEvent, tx, {
        integratorId: run.integratorId,
        event: { type: 'schedule.payment_link_expired', run: runContext({ ...run, attempt: run.attempt }), failure: PAY_LINK_EXPIRED },
        callbackUrl: run.callbackUrl,
        now,
      });
      result.missed++;
      if (await countFailedOccurrence(app, tx, run, { payment: null, failure: PAY_LINK_EXPIRED }, now)) result.suspended++;
    }
  });
  return result;
}

/**
 * Called by the checkout's recorder, in its transaction, when a session pays: when the session is an
 * occurrence's payment link and that run still waits for it (or expired while the payment was in
 * progress), the run is what the payment reports (`schedule.charge_succeeded`). Undefined: an
 * ordinary checkout payment (also when the schedule was cancelled meanwhile).
 */
export async function runPaidThroughSession(
  tx: Tx,
  session: Pick<CheckoutSession, 'scheduleRunId'>,
): Promise<{ context: ScheduleRunContext; cardRegistrationReference: string; otherReferences: string[] } | undefined> {
  if (!session.scheduleRunId) return undefined;
  const [row] = await tx
    .select({
      runId: scheduleRuns.id,
      status: scheduleRuns.status,
      failureCode: scheduleRuns.lastFailureCode,
      dueAt: scheduleRuns.dueAt,
      attempt: scheduleRuns.attempts,
      scheduleId: schedules.id,
      timeOffset: schedules.timeOffset,
      cardRegistrationReference: schedules.cardRegistrationReference,
      otherReferences: schedules.otherReferences,
    })
    .from(scheduleRuns)
    .innerJoin(schedules, eq(schedules.id, scheduleRuns.scheduleId))
    .where(eq(scheduleRuns.id, session.scheduleRunId))
    .for('update', { of: scheduleRuns });
  if (!row) return undefined;
  const waiting = row.status === 'awaiting_customer' || (row.status === 'failed' && row.failureCode === PAY_LINK_EXPIRED.code);
  if (!waiting) return undefined;
  return { context: runContext(row), cardRegistrationReference: row.cardRegistrationReference, otherReferences: row.otherReferences };
}

/** The run paid through its link: `succeeded` with the payment, and the schedule's count of failed occurrences back to 0. */
export async function closeRunPaid(tx: Tx, run: ScheduleRunContext, paymentId: string, now: Date): Promise<void> {
  await tx
    .update(scheduleRuns)
    .set({ status: 'succeeded', paymentId, nextAttemptAt: null, lockedUntil: null, completedAt: now })
    .where(eq(scheduleRuns.id, run.runId));
  await tx
    .update(schedules)
    .set({ consecutiveFailures: 0 })
    .where(and(eq(schedules.id, run.scheduleId), sql`${schedules.consecutiveFailures} <> 0`));
}

/** Cancelling a schedule: its links still waiting close (expire now), unless a payment on one is in progress. */
export async function closeWaitingLinks(tx: Tx, scheduleIds: string[], now: Date): Promise<void> {
  const closed = await tx
    .update(scheduleRuns)
    .set({ status: 'cancelled', nextAttemptAt: null, completedAt: now })
    .where(and(inArray(scheduleRuns.scheduleId, scheduleIds), sql`${scheduleRuns.status} = 'awaiting_customer'`))
    .returning({ sessionId: scheduleRuns.checkoutSessionId });
  const sessionIds = closed.map((r) => r.sessionId).filter((id): id is string => id !== null);
  if (sessionIds.length === 0) return;
  // Skipping a session whose payment is being recorded (it holds the row, then waits for the run's).
  const free = await tx
    .select({ id: checkoutSessions.id })
    .from(checkoutSessions)
    .where(and(inArray(checkoutSessions.id, sessionIds), eq(checkoutSessions.status, 'open'), isNull(checkoutSessions.processingAt)))
    .for('update', { skipLocked: true });
  if (free.length === 0) return;
  await tx
    .update(checkoutSessions)
    .set({ expiresAt: now })
    .where(
      inArray(
        checkoutSessions.id,
        free.map((r) => r.id),
      ),
    );
}
