import { and, eq, lte, sql } from 'drizzle-orm';
import { newId } from '../../crypto.ts';
import type { Tx } from '../../db/client.ts';
import { cardRegistrations, integrators, scheduleRuns, schedules } from '../../db/schema.ts';
import { insertRows } from '../../db/statements.ts';
import type { DomainContext } from '../context.ts';
import { cancelSchedulesTx } from './cancel.ts';
import { cadenceOf, latestRunAtOrBefore, nextRunAfter } from './recurrence.ts';

/** One attempt of one occurrence, claimed (step 1 of the scheduler: src/domain/schedules/tick.ts). */
export interface ClaimedCharge {
  runId: string;
  attempt: number;
  dueAt: Date;
  scheduleId: string;
  integratorId: string;
  amountMinor: bigint;
  currency: string;
  cardToken: string;
  /** The acquirer's customer the card is saved on (Stripe), null for the sandbox vault. */
  cardCustomer: string | null;
  cardRegistrationReference: string;
  customerEmail: string | null;
  customerName: string | null;
  description: string | null;
  merchantReferenceId: string | null;
  otherReferences: string[];
  callbackUrl: string | null;
  notifyUser: boolean;
  timeOffset: string;
  cronPattern: string;
  every: number;
  anchorAt: Date | null;
  /** `pay_link`: the occurrence is collected by a payment link e-mailed to the customer (pay-links.ts), never charged. */
  collection: 'saved_card' | 'pay_link';
}

export const chargeKey = (claim: Pick<ClaimedCharge, 'runId' | 'attempt'>) => `schedule-run:${claim.runId}:${claim.attempt}`;

// Literal predicates (not bound parameters) so the planner can use the partial indexes
// schedules_due_idx and schedule_runs_pending_idx.
export const DUE_SCHEDULE = sql`${schedules.status} = 'active'`;
export const OPEN_RUN = sql`${scheduleRuns.status} in ('pending', 'retrying')`;
export const AWAITING_RUN = sql`${scheduleRuns.status} = 'awaiting_customer'`;
/**
 * The schedule's integrator is not suspended (src/domain/integrators/suspension.ts): a suspended
 * integrator's occurrences, retries and recoveries wait, unclaimed, and are claimed after its
 * reactivation as after downtime (missed occurrences collapse into one; a pending run keeps its key).
 *
 * Written as a filter against the (usually empty) list of suspended integrators, computed once per
 * statement, rather than a NOT EXISTS: the anti-join it became made the planner (whose row counts
 * are stale on PGlite, which has no autovacuum) join the claim row by row and stop trimming the due
 * index's dead entries, so each claim of a burst scanned more than the last (docs/schedules.md).
 */
export const INTEGRATOR_ACTIVE = sql`${schedules.integratorId} <> all(array(select ${integrators.id} from ${integrators} where ${integrators.suspendedAt} is not null))`;

export const leaseEnd = (app: DomainContext, now: Date) => new Date(now.getTime() + app.config.scheduleLeaseSeconds * 1000);

export const scheduleColumns = {
  scheduleId: schedules.id,
  integratorId: schedules.integratorId,
  status: schedules.status,
  cronPattern: schedules.cronPattern,
  timeOffset: schedules.timeOffset,
  every: schedules.every,
  anchorAt: schedules.anchorAt,
  nextRunAt: schedules.nextRunAt,
  amountMinor: schedules.amountMinor,
  currency: schedules.currency,
  description: schedules.description,
  merchantReferenceId: schedules.merchantReferenceId,
  otherReferences: schedules.otherReferences,
  callbackUrl: schedules.callbackUrl,
  notifyUser: schedules.notifyUser,
  cardRegistrationReference: schedules.cardRegistrationReference,
  cardStatus: cardRegistrations.status,
  cardToken: cardRegistrations.cardToken,
  cardCustomer: cardRegistrations.cardCustomer,
  collection: cardRegistrations.collection,
  customerEmail: cardRegistrations.customerEmail,
  // The name given at registration, or else the card holder's.
  customerName: sql<string | null>`coalesce(${cardRegistrations.customerName}, ${cardRegistrations.holderName})`,
};

/** What charging one attempt of one occurrence needs, from the schedule and its card. */
export function toClaim(
  s: Omit<ClaimedCharge, 'runId' | 'attempt' | 'dueAt' | 'cardToken'>,
  cardToken: string,
  run: Pick<ClaimedCharge, 'runId' | 'attempt' | 'dueAt'>,
): ClaimedCharge {
  return {
    ...run,
    scheduleId: s.scheduleId,
    integratorId: s.integratorId,
    amountMinor: s.amountMinor,
    currency: s.currency,
    cardToken,
    cardCustomer: s.cardCustomer,
    cardRegistrationReference: s.cardRegistrationReference,
    customerEmail: s.customerEmail,
    customerName: s.customerName,
    description: s.description,
    merchantReferenceId: s.merchantReferenceId,
    otherReferences: s.otherReferences,
    callbackUrl: s.callbackUrl,
    notifyUser: s.notifyUser,
    timeOffset: s.timeOffset,
    cronPattern: s.cronPattern,
    every: s.every,
    anchorAt: s.anchorAt,
    collection: s.collection,
  };
}

/** The token a claim charges: the saved card's, or none for a pay-by-link registration (null: nothing to collect with). */
const collectingToken = (s: { cardToken: string | null; collection: 'saved_card' | 'pay_link' }) =>
  s.collection === 'pay_link' ? (s.cardToken ?? '') : s.cardToken;

/** tx1 for new occurrences: claims up to `limit` due schedules and records one occurrence each. */
export async function claimDueOccurrences(app: DomainContext, opts: { limit: number }): Promise<ClaimedCharge[]> {
  const now = app.now();
  const lease = leaseEnd(app, now);
  return app.db.transaction(async (tx) => {
    const due = await tx
      .select({ ...scheduleColumns, cyclesLeft: schedules.cyclesLeft, cancelAt: schedules.cancelAt })
      .from(schedules)
      .innerJoin(cardRegistrations, eq(cardRegistrations.reference, schedules.cardRegistrationReference))
      .where(and(DUE_SCHEDULE, lte(schedules.nextRunAt, now), INTEGRATOR_ACTIVE))
      .orderBy(schedules.nextRunAt)
      .limit(opts.limit)
      .for('update', { of: schedules, skipLocked: true });
    const claims: ClaimedCharge[] = [];
    const advance: { id: string; next: string | null }[] = [];
    for (const s of due) {
      const token = collectingToken(s);
      if (s.cardStatus !== 'active' || token === null) {
        await cancelSchedulesTx(app, tx, { integratorId: s.integratorId, scheduleId: s.scheduleId, now, reason: 'card_registration_deleted' });
        continue;
      }
      // A subscription cancelled at the end of its period ends here, instead of charging the next one.
      if (s.cancelAt && s.cancelAt <= now) {
        await cancelSchedulesTx(app, tx, { integratorId: s.integratorId, scheduleId: s.scheduleId, now, reason: 'requested' });
        continue;
      }
      const cadence = cadenceOf(s);
      // Catch-up: every missed run up to now collapses into one, due at the latest. next_run_at is
      // itself a run at or before now, so the latest is never earlier than it (and with every N, the
      // count goes on from it).
      const dueAt = latestRunAtOrBefore(cadence, now, s.nextRunAt) ?? s.nextRunAt!;
      // Its last counted cycle (a subscription's `cycles`): no run after this one.
      const next = s.cyclesLeft !== null && s.cyclesLeft <= 1 ? null : nextRunAfter(cadence, now, dueAt);
      advance.push({ id: s.scheduleId, next: next?.toISOString() ?? null });
      claims.push(toClaim(s, token, { runId: newId('run'), attempt: 1, dueAt }));
    }
    if (claims.length === 0) return [];
    const inserted = await insertRows(
      tx,
      scheduleRuns,
      claims.map((c) => ({
        id: c.runId,
        scheduleId: c.scheduleId,
        dueAt: c.dueAt,
        status: 'pending' as const,
        attempts: 1,
        nextAttemptAt: lease,
        lockedUntil: lease,
        createdAt: now,
      })),
      { onConflictDoNothing: [scheduleRuns.scheduleId, scheduleRuns.dueAt] },
    );
    await advanceNextRuns(tx, advance);
    const recorded = new Set(inserted.map((r) => r.id));
    return claims.filter((c) => recorded.has(c.runId));
  });
}

/** Called with one row per claim, never with none (claimDueOccurrences returns before when it claimed nothing). */
async function advanceNextRuns(tx: Tx, rows: { id: string; next: string | null }[]) {
  const values = sql.join(
    rows.map((r) => sql`(${r.id}, ${r.next}::timestamptz)`),
    sql`, `,
  );
  // cycles_left counts down only where it is set (null - 1 is null).
  await tx.execute(
    sql`update schedules set next_run_at = v.next, cycles_left = schedules.cycles_left - 1 from (values ${values}) as v(id, next) where schedules.id = v.id`,
  );
}

/**
 * tx1 for attempts of existing occurrences: retries whose time has come, and pending runs whose
 * lease lapsed (a crash between claim and record). A retry is a new attempt (new key); a
 * recovery re-issues the interrupted attempt with the same key.
 */
export async function claimDueAttempts(app: DomainContext, opts: { limit: number }): Promise<ClaimedCharge[]> {
  const now = app.now();
  const lease = leaseEnd(app, now);
  return app.db.transaction(async (tx) => {
    const due = await tx
      .select({ run: scheduleRuns, ...scheduleColumns })
      .from(scheduleRuns)
      .innerJoin(schedules, eq(schedules.id, scheduleRuns.scheduleId))
      .innerJoin(cardRegistrations, eq(cardRegistrations.reference, schedules.cardRegistrationReference))
      .where(and(OPEN_RUN, lte(scheduleRuns.nextAttemptAt, now), INTEGRATOR_ACTIVE))
      .orderBy(scheduleRuns.nextAttemptAt)
      .limit(opts.limit)
      .for('update', { of: scheduleRuns, skipLocked: true });
    const claims: ClaimedCharge[] = [];
    for (const row of due) {
      const { run } = row;
      const retry = run.status === 'retrying';
      const token = collectingToken(row);
      if (retry && (row.status !== 'active' || row.cardStatus !== 'active' || token === null)) {
        await tx.update(scheduleRuns).set({ status: 'cancelled', nextAttemptAt: null, completedAt: now }).where(eq(scheduleRuns.id, run.id));
        continue;
      }
      if (token === null) continue; // never happens: a pending run was claimed with an active card, and tokens are kept
      const attempt = retry ? run.attempts + 1 : run.attempts;
      await tx.update(scheduleRuns).set({ status: 'pending', attempts: attempt, nextAttemptAt: lease, lockedUntil: lease }).where(eq(scheduleRuns.id, run.id));
      claims.push(toClaim(row, token, { runId: run.id, attempt, dueAt: run.dueAt }));
    }
    return claims;
  });
}
