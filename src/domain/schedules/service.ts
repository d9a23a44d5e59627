import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Connector } from '../../acquirer/connector.ts';
import { newId } from '../../crypto.ts';
import type { Integrator, Payment, Schedule, ScheduleRun } from '../../db/schema.ts';
import { cardRegistrations, payments, scheduleRuns, schedules } from '../../db/schema.ts';
import type { SchedulesQuery } from '../../schemas/schedule.ts';
import { type Actor, recordAudit } from '../accounts/audit.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, invalidFields, notFound } from '../errors.ts';
import { schedulingSecrets } from '../integrators/credentials.ts';
import { recordEvent } from '../notifications/domain-events.ts';
import { keysetPage, type Page } from '../pagination.ts';
import { linkSlugsOf } from '../subscriptions/portal.ts';
import { cancelSchedulesTx } from './cancel.ts';
import { signedContentHash, verifySchedulePayload, verifySchedulePayloadSignature } from './jwt.ts';
import { CARD_REFERENCE_MISSING, parseSchedulePayload, type SchedulePlan } from './payload.ts';

/** Schedule references carry a readable prefix; card registration references are UUIDs. */
export const isScheduleReference = (value: string) => /^sch_[0-9a-f]{32}$/.test(value);

const cancelledPayload = (reference: string) =>
  new DomainError('ER.12.31', 'Schedule for this signed payload was cancelled', {
    messages: {
      payload: [
        `created schedule ${reference}, which was cancelled; a cancelled schedule is never restarted: sign a new payload (e.g. with a new iat or jti) to schedule again`,
      ],
    },
  });

/**
 * The secret the payload is signed with: the current one, or the previous one during a
 * rotation's overlap. When neither matches, the current one, so the refusal says why.
 */
async function signingSecretOf(token: string, secrets: string[]): Promise<string> {
  for (const secret of secrets.slice(1)) {
    try {
      await verifySchedulePayloadSignature(token, secret);
      return secret;
    } catch {
      /* not this one */
    }
  }
  return secrets[0]!;
}

/** A payload seen before: its schedule again, or ER.12.31 when that schedule was cancelled. */
function replayOf(seen: { id: string; status: string }) {
  if (seen.status === 'cancelled') throw cancelledPayload(seen.id);
  return { reference: seen.id, replayed: true };
}

/**
 * POST /schedule. The same signed payload presented again (by the same integrator) replies with
 * the schedule it created first: the hash of the JWT's signed content (header and payload, not
 * their spelling) is unique per integrator. The reply carries only the reference so a replay is
 * byte-for-byte the first reply's data; a replay of a payload whose schedule was cancelled is
 * refused (ER.12.31) rather than answered as if it had scheduled something.
 */
export async function createSchedule(app: DomainContext, integrator: Integrator, token: string): Promise<{ reference: string; replayed: boolean }> {
  const hash = signedContentHash(token);
  const secret = await signingSecretOf(token, schedulingSecrets(app, integrator, app.now()));
  const [seen] = await app.db
    .select({ id: schedules.id, status: schedules.status })
    .from(schedules)
    .where(and(eq(schedules.integratorId, integrator.id), eq(schedules.payloadHash, hash)));
  if (seen) {
    // Its claims were checked when it was first accepted; its signature is checked every time.
    await verifySchedulePayloadSignature(token, secret);
    return replayOf(seen);
  }

  const now = app.now();
  const claims = await verifySchedulePayload(token, secret, now);
  // A saved card needs an acquirer that charges it off-session itself; a pay-by-link registration
  // (a payment link e-mailed each cycle) works with any (docs/acquirers.md, "Schedules").
  const connector = await app.connectors.forIntegrator(integrator.id);
  const plan = parseSchedulePayload(claims.data, {
    now,
    minIntervalSeconds: app.config.scheduleMinIntervalSeconds,
    allowPrivateCallbacks: app.config.allowPrivateCallbacks,
  });
  return storeSchedule(app, integrator, connector, plan, { payloadHash: hash, now });
}

/**
 * Stores a parsed schedule for the integrator's card registration, with its schedule.created
 * event, in one transaction. The registration must be active and the integrator's; a saved card
 * needs an acquirer that charges it off-session itself. The same payload stored at once by
 * another request: that schedule (a replay).
 */
async function storeSchedule(
  app: DomainContext,
  integrator: Integrator,
  connector: Pick<Connector, 'name' | 'capabilities'>,
  plan: SchedulePlan,
  opts: { payloadHash: string; now: Date },
): Promise<{ reference: string; replayed: boolean }> {
  const { data, amountMinor, recurrence: rec, nextRunAt } = plan;
  const { payloadHash: hash, now } = opts;

  return app.db.transaction(async (tx) => {
    // FOR SHARE: a concurrent deletion of the card waits, then cancels this schedule too.
    const [card] = await tx
      .select({
        reference: cardRegistrations.reference,
        status: cardRegistrations.status,
        collection: cardRegistrations.collection,
        customerName: cardRegistrations.customerName,
        customerEmail: cardRegistrations.customerEmail,
      })
      .from(cardRegistrations)
      .where(and(eq(cardRegistrations.reference, data.credit_card.reference.toLowerCase()), eq(cardRegistrations.integratorId, integrator.id)))
      .for('share');
    if (card?.status !== 'active') throw invalidFields({ reference: [CARD_REFERENCE_MISSING] });
    if (card.collection === 'saved_card' && connector.capabilities.offSession !== 'native') {
      throw new DomainError('ER.12.35', "Scheduled charges not available with the integrator's acquirer", {
        messages: {
          reference: [
            `this registration holds a saved card, and the ${connector.name} acquirer does not let paylink charge a saved card off-session; register the customer again (a pay-by-link registration, a payment link e-mailed each cycle: docs/acquirers.md)`,
          ],
        },
      });
    }
    const id = newId('sch');
    const inserted = await tx
      .insert(schedules)
      .values({
        id,
        integratorId: integrator.id,
        cardRegistrationReference: card.reference,
        status: 'active',
        recurrence: data.schedule,
        cronPattern: rec.cronPattern,
        timeOffset: data.time_offset,
        amountMinor,
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
      // The same payload arrived twice at once: the other request created it.
      const [first] = await tx
        .select({ id: schedules.id, status: schedules.status })
        .from(schedules)
        .where(and(eq(schedules.integratorId, integrator.id), eq(schedules.payloadHash, hash)));
      return replayOf(first!);
    }
    await recordEvent(app.presentEvent, tx, {
      integratorId: integrator.id,
      event: { type: 'schedule.created', schedule: inserted[0]!, offsetMinutes: rec.offsetMinutes, customer: card },
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
export async function cancelSchedule(
  app: DomainContext,
  integrator: Integrator,
  reference: string,
  opts: { actor?: Actor } = {},
): Promise<ScheduleCancellation> {
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
    if (opts.actor) await recordAudit(tx, opts.actor, 'schedule.cancelled', row.id, now);
    return { reference: row.id, cancelledNow: true, at: now };
  });
}

/** A schedule as listed, with the customer of the card it charges (name or holder, e-mail). */
export interface ScheduleListRecord {
  schedule: Schedule;
  customer: { name: string | null; email: string | null } | null;
  /** The slug of the subscription link it came from; null for a schedule an integrator signed. */
  link: string | null;
}

/** A schedule with its most recent runs (newest first) and each run's transaction. */
export interface ScheduleRecord extends ScheduleListRecord {
  runs: Array<{ run: ScheduleRun; payment: Pick<Payment, 'id' | 'status' | 'refundedMinor'> | null }>;
}

/** GET /schedules/{reference}: the schedule and its runs. */
export async function getSchedule(
  app: DomainContext,
  integrator: Pick<Integrator, 'id'>,
  reference: string,
  opts: { runLimit?: number } = {},
): Promise<ScheduleRecord> {
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
  const [card] = await app.db
    .select({ name: sql<string | null>`coalesce(${cardRegistrations.customerName}, ${cardRegistrations.holderName})`, email: cardRegistrations.customerEmail })
    .from(cardRegistrations)
    .where(eq(cardRegistrations.reference, schedule.cardRegistrationReference));
  const link = (await linkSlugsOf(app.db, [schedule])).get(schedule.linkId ?? '') ?? null;
  return { schedule, runs, customer: card && (card.name || card.email) ? card : null, link };
}

/** GET /api/v1/schedules: newest first, by state, reference, card or the card's customer e-mail. */
export async function listSchedules(app: DomainContext, integrator: Pick<Integrator, 'id'>, query: SchedulesQuery): Promise<Page<ScheduleListRecord>> {
  const db = app.db;
  const page = await keysetPage(
    db,
    { table: schedules, id: schedules.id, createdAt: schedules.createdAt, scope: eq(schedules.integratorId, integrator.id) },
    [
      query.status ? eq(schedules.status, query.status) : undefined,
      query.merchant_reference_id !== undefined ? eq(schedules.merchantReferenceId, query.merchant_reference_id) : undefined,
      query.card_registration_reference ? eq(schedules.cardRegistrationReference, query.card_registration_reference) : undefined,
      query.customer_email !== undefined
        ? inArray(
            schedules.cardRegistrationReference,
            db
              .select({ reference: cardRegistrations.reference })
              .from(cardRegistrations)
              .where(
                and(eq(cardRegistrations.integratorId, integrator.id), sql`lower(${cardRegistrations.customerEmail}) = ${query.customer_email.toLowerCase()}`),
              ),
          )
        : undefined,
    ],
    query,
  );
  const refs = [...new Set(page.items.map((s) => s.cardRegistrationReference))];
  const cards = refs.length
    ? await db
        .select({
          reference: cardRegistrations.reference,
          name: sql<string | null>`coalesce(${cardRegistrations.customerName}, ${cardRegistrations.holderName})`,
          email: cardRegistrations.customerEmail,
        })
        .from(cardRegistrations)
        .where(inArray(cardRegistrations.reference, refs))
    : [];
  const byRef = new Map(cards.map((c) => [c.reference, c]));
  const slugs = await linkSlugsOf(db, page.items);
  return {
    ...page,
    items: page.items.map((schedule) => {
      const card = byRef.get(schedule.cardRegistrationReference);
      const customer = card && (card.name || card.email) ? { name: card.name, email: card.email } : null;
      return { schedule, customer, link: slugs.get(schedule.linkId ?? '') ?? null };
    }),
  };
}
