import { asc, eq } from 'drizzle-orm';
import { type Integrator, integrators } from '../../db/schema.ts';
import { suspensionReasonSchema } from '../../schemas/integrator.ts';
import { parseWith } from '../../schemas/parse.ts';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '../../schemas/text.ts';
import { type Actor, recordAudit } from '../accounts/audit.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, invalidFields, notFound } from '../errors.ts';
import { type OperatorActor, recordOperatorAudit } from '../operators/audit.ts';

/**
 * Suspending an integrator (the operator's console, `npm run admin -- suspend`), as a payment
 * facilitator deactivates a merchant's account: nothing that takes new money is accepted, and
 * nothing already under way is lost.
 *
 * While `suspended_at` is set:
 * - its API token answers 403 ER.01.40 to everything that takes new money (src/api/endpoint.ts);
 *   reads, refunds of past payments and cancellations still work, so the integrator can reconcile
 *   and give money back (docs/api.md, "Suspended integrators");
 * - its link key (dynamic links) answers 403 ER.01.40;
 * - its payment and checkout pages say, in the page's language, that the merchant cannot take
 *   payments now, with no form (src/api/payment-pages.ts), and their submissions are refused;
 * - the scheduler claims none of its schedules' occurrences, retries or recoveries
 *   (src/domain/schedules/claim.ts): on reactivation they are claimed as after downtime, the missed
 *   occurrences collapsing into one charge at the latest, each with the key it always had;
 * - payments already at the acquirer still settle (provider webhooks, reconciliation) and
 *   callbacks and e-mails keep being delivered; console users still sign in, under a banner.
 *
 * Each change is one transaction, audited in the operator audit log and in the integrator's own
 * activity; doing it twice changes nothing the second time (the shell says so; the operator
 * console, `refuseUnchanged`, refuses with ER.05.20 / ER.05.21). The caches that serve an integrator (TokenCache, LinkCache) are emptied
 * in this process at once and in the others by the NOTIFY every write to integrators fires.
 */

export interface SuspensionState {
  integratorId: string;
  name: string;
  suspended: boolean;
  suspendedAt: Date | null;
  reason: string | null;
  /** False when the integrator already was in that state (nothing was written). */
  changed: boolean;
}

/** 403 ER.01.40: the refusal every door gives a suspended integrator's credentials. */
export const integratorSuspendedError = () =>
  new DomainError('ER.01.40', 'Integrator suspended', {
    messages: {
      '(request)': [
        'This integrator account is suspended by the operator of this paylink service and cannot take new payments. Reads, refunds and cancellations still work; contact the operator to have it reactivated.',
      ],
    },
  });

/** The same refusal on a payment page's own endpoints, in the customer's words and language. */
export const merchantSuspendedError = () =>
  new DomainError('ER.01.40', 'Merchant cannot take payments', {
    messages: { '(request)': ['This merchant cannot take payments right now. You have not been charged.'] },
    say: 'refusal.suspended',
  });

/** Who suspends or reactivates: the operator log's actor (an operator, or the shell) and how the integrator's own activity names it. */
export interface SuspensionActor {
  operator: OperatorActor;
  activity: Actor;
}

/** 409 ER.05.20 / ER.05.21: the operator asked for the state the integrator is already in (another tab, another operator). */
export const unchangedSuspensionError = (suspended: boolean) =>
  suspended
    ? new DomainError('ER.05.20', 'Integrator already suspended', {
        messages: { '(request)': ['This integrator is already suspended; nothing changed. Its page shows since when and why.'] },
      })
    : new DomainError('ER.05.21', 'Integrator not suspended', {
        messages: { '(request)': ['This integrator is already active; nothing changed.'] },
      });

/** Whether an integrator row is suspended now. */
export const isSuspended = (integrator: Pick<Integrator, 'suspendedAt'>) => integrator.suspendedAt !== null;

const stateOf = (row: Integrator, changed: boolean): SuspensionState => ({
  integratorId: row.id,
  name: row.name,
  suspended: row.suspendedAt !== null,
  suspendedAt: row.suspendedAt,
  reason: row.suspendedReason,
  changed,
});

/**
 * What suspending (a reason given) or reactivating would do, checked before the operator console's
 * confirm step: the reason parsed, the integrator known and not already in that state; nothing written.
 */
export async function checkSuspensionChange(
  app: Pick<DomainContext, 'db'>,
  integratorId: string,
  wanted: { suspend: true; reason: unknown } | { suspend: false },
): Promise<{ name: string; reason: string | null; suspendedAt: Date | null }> {
  const reason = wanted.suspend ? parseReason(wanted.reason) : null;
  if (!isStorableText(integratorId)) throw notFound('integrator', 'The integrator');
  const [row] = await app.db.select().from(integrators).where(eq(integrators.id, integratorId));
  if (!row) throw notFound('integrator', 'The integrator');
  if ((row.suspendedAt !== null) === wanted.suspend) throw unchangedSuspensionError(wanted.suspend);
  return { name: row.name, reason: reason ?? row.suspendedReason, suspendedAt: row.suspendedAt };
}

function parseReason(reason: unknown): string {
  const parsed = parseWith(suspensionReasonSchema, reason);
  if (!parsed.ok) throw invalidFields({ reason: parsed.messages['(body)'] ?? ['is invalid'] });
  if (!isStorableText(parsed.value)) throw invalidFields({ reason: [UNSTORABLE_TEXT_MESSAGE] });
  return parsed.value;
}

/** Who acted, recorded in the suspended integrator's own activity (the operator is not one of its users). */
const inActivityOf = (integratorId: string, actor: Actor): Actor => ({ ...actor, integratorId });

export interface SuspensionOptions {
  /** Refuse (409 ER.05.20 / ER.05.21) instead of answering `changed: false` when it already is in that state. */
  refuseUnchanged?: boolean;
}

async function change(
  app: DomainContext,
  integratorId: string,
  actor: SuspensionActor,
  wanted: { suspendedAt: Date | null; reason: string | null },
  action: 'integrator.suspended' | 'integrator.reactivated',
  options: SuspensionOptions,
): Promise<SuspensionState> {
  if (!isStorableText(integratorId)) throw notFound('integrator', 'The integrator');
  const now = app.now();
  const state = await app.db.transaction(async (tx) => {
    const [current] = await tx.select().from(integrators).where(eq(integrators.id, integratorId)).for('update');
    if (!current) throw notFound('integrator', 'The integrator');
    if ((current.suspendedAt !== null) === (wanted.suspendedAt !== null)) {
      if (options.refuseUnchanged) throw unchangedSuspensionError(current.suspendedAt !== null);
      return stateOf(current, false);
    }
    const [updated] = await tx
      .update(integrators)
      .set({ suspendedAt: wanted.suspendedAt, suspendedReason: wanted.reason, updatedAt: now })
      .where(eq(integrators.id, integratorId))
      .returning();
    await recordAudit(tx, inActivityOf(integratorId, actor.activity), action, wanted.reason, now);
    // The operator log says which integrator and why (a reactivation: the reason it ends).
    const why = wanted.reason ?? (current.suspendedReason ? `suspended for: ${current.suspendedReason}` : null);
    await recordOperatorAudit(tx, actor.operator, action, { integratorId, target: why ? `${current.name}: ${why}` : current.name }, now);
    return stateOf(updated!, true);
  });
  if (state.changed) {
    // This process stops serving it as it was at once; the others on NOTIFY paylink_links.
    app.tokenCache.changed();
    app.linkCache.changed();
  }
  return state;
}

/** Suspends the integrator with `reason` (1–500 characters); already suspended: nothing changes (its first reason stays). */
export async function suspendIntegrator(
  app: DomainContext,
  integratorId: string,
  reason: unknown,
  actor: SuspensionActor,
  options: SuspensionOptions = {},
): Promise<SuspensionState> {
  const text = parseReason(reason);
  return change(app, integratorId, actor, { suspendedAt: app.now(), reason: text }, 'integrator.suspended', options);
}

/** Reactivates a suspended integrator: everything suspension refused works again; already active: nothing changes. */
export function reactivateIntegrator(
  app: DomainContext,
  integratorId: string,
  actor: SuspensionActor,
  options: SuspensionOptions = {},
): Promise<SuspensionState> {
  return change(app, integratorId, actor, { suspendedAt: null, reason: null }, 'integrator.reactivated', options);
}

/** One integrator as the operator's list shows it (never a secret). */
export interface IntegratorSummary {
  id: string;
  name: string;
  email: string;
  suspended: boolean;
  suspendedAt: Date | null;
  reason: string | null;
  createdAt: Date;
}

/** Every integrator, oldest first (`npm run admin -- list-integrators`). */
export async function listIntegrators(app: Pick<DomainContext, 'db'>): Promise<IntegratorSummary[]> {
  const rows = await app.db
    .select({
      id: integrators.id,
      name: integrators.name,
      email: integrators.email,
      suspendedAt: integrators.suspendedAt,
      reason: integrators.suspendedReason,
      createdAt: integrators.createdAt,
    })
    .from(integrators)
    .orderBy(asc(integrators.createdAt), asc(integrators.id));
  return rows.map((r) => ({ ...r, suspended: r.suspendedAt !== null }));
}
