import { asc, eq } from 'drizzle-orm';
import { type Integrator, integrators } from '../../db/schema.ts';
import { suspensionReasonSchema } from '../../schemas/integrator.ts';
import { parseWith } from '../../schemas/parse.ts';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '../../schemas/text.ts';
import { type Actor, recordAudit } from '../accounts/audit.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, invalidFields, notFound } from '../errors.ts';

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
 * Each change is one transaction, audited in the integrator's activity; doing it twice changes
 * nothing the second time. The caches that serve an integrator (TokenCache, LinkCache) are emptied
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

function parseReason(reason: unknown): string {
  const parsed = parseWith(suspensionReasonSchema, reason);
  if (!parsed.ok) throw invalidFields({ reason: parsed.messages['(body)'] ?? ['is invalid'] });
  if (!isStorableText(parsed.value)) throw invalidFields({ reason: [UNSTORABLE_TEXT_MESSAGE] });
  return parsed.value;
}

/** Who acted, recorded in the suspended integrator's own activity (the operator is not one of its users). */
const inActivityOf = (integratorId: string, actor: Actor): Actor => ({ ...actor, integratorId });

async function change(
  app: DomainContext,
  integratorId: string,
  actor: Actor,
  wanted: { suspendedAt: Date | null; reason: string | null },
  action: 'integrator.suspended' | 'integrator.reactivated',
): Promise<SuspensionState> {
  if (!isStorableText(integratorId)) throw notFound('integrator', 'The integrator');
  const now = app.now();
  const state = await app.db.transaction(async (tx) => {
    const [current] = await tx.select().from(integrators).where(eq(integrators.id, integratorId)).for('update');
    if (!current) throw notFound('integrator', 'The integrator');
    if ((current.suspendedAt !== null) === (wanted.suspendedAt !== null)) return stateOf(current, false);
    const [updated] = await tx
      .update(integrators)
      .set({ suspendedAt: wanted.suspendedAt, suspendedReason: wanted.reason, updatedAt: now })
      .where(eq(integrators.id, integratorId))
      .returning();
    await recordAudit(tx, inActivityOf(integratorId, actor), action, wanted.reason, now);
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
export async function suspendIntegrator(app: DomainContext, integratorId: string, reason: unknown, actor: Actor): Promise<SuspensionState> {
  const text = parseReason(reason);
  return change(app, integratorId, actor, { suspendedAt: app.now(), reason: text }, 'integrator.suspended');
}

/** Reactivates a suspended integrator: everything suspension refused works again; already active: nothing changes. */
export function reactivateIntegrator(app: DomainContext, integratorId: string, actor: Actor): Promise<SuspensionState> {
  return change(app, integratorId, actor, { suspendedAt: null, reason: null }, 'integrator.reactivated');
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
