import { and, desc, eq, lt } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { type OperatorAuditEntry, operatorAudit } from '../../db/schema.ts';
import type { RequestOrigin } from '../accounts/sessions.ts';

/** Everything an operator does, and every operator sign-in event (docs/operator.md lists them). */
export type OperatorAuditAction =
  | 'operator.created'
  | 'setup_link.issued'
  | 'sign_in.succeeded'
  | 'sign_in.failed'
  | 'sign_in.refused_locked'
  | 'sign_in.second_factor_failed'
  | 'account.locked'
  | 'sign_out'
  | 'account.check_failed'
  | 'password.changed'
  | 'totp.enabled'
  | 'totp.disabled'
  /** Signed in with a recovery code (target: `<email>: <n> left`). */
  | 'sign_in.recovery_code_used'
  | 'recovery_codes.regenerated'
  | 'integrator.created'
  | 'owner.invited'
  | 'credentials.rotated'
  | 'acquirer.changed'
  | 'field_modes.changed'
  /** A support look-up of one payment, with the operator's reason (src/domain/operators/support.ts). */
  | 'payment.read'
  | 'payment.read_missing'
  | 'integrator.suspended'
  | 'integrator.reactivated';

/** The operator who acts, from where; `id` null for a sign-in with an unknown e-mail or a shell command. */
export interface OperatorActor extends RequestOrigin {
  id: string | null;
  email: string | null;
}

const MAX_FIELD = 500;
const clip = (v: string | null | undefined) => (v === null || v === undefined ? null : v.slice(0, MAX_FIELD));

/** Writes one entry; call it with the transaction that makes the change it records. */
export async function recordOperatorAudit(
  tx: DbOrTx,
  actor: OperatorActor,
  action: OperatorAuditAction,
  entry: { integratorId?: string | null; target?: string | null },
  now: Date,
): Promise<void> {
  await tx.insert(operatorAudit).values({
    operatorId: actor.id,
    operatorEmail: clip(actor.email),
    action,
    integratorId: entry.integratorId ?? null,
    target: clip(entry.target),
    ip: clip(actor.ip),
    userAgent: clip(actor.userAgent),
    at: now,
  });
}

export const OPERATOR_AUDIT_PAGE_SIZE = 50;

/** One page of the operator log, newest first, optionally one integrator's; `before` is the previous page's cursor. */
export async function listOperatorAudit(
  db: Db,
  opts: { before?: number; integratorId?: string } = {},
): Promise<{ entries: OperatorAuditEntry[]; next?: number }> {
  const rows = await db
    .select()
    .from(operatorAudit)
    .where(
      and(
        opts.integratorId === undefined ? undefined : eq(operatorAudit.integratorId, opts.integratorId),
        opts.before === undefined ? undefined : lt(operatorAudit.id, opts.before),
      ),
    )
    .orderBy(desc(operatorAudit.id))
    .limit(OPERATOR_AUDIT_PAGE_SIZE + 1);
  const entries = rows.slice(0, OPERATOR_AUDIT_PAGE_SIZE);
  return { entries, next: rows.length > OPERATOR_AUDIT_PAGE_SIZE ? entries.at(-1)?.id : undefined };
}
