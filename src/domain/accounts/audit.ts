import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { type AuditEntry, auditLog, type ConsoleRole } from '../../db/schema.ts';
import { AUDIT_PAGE_SIZE } from './rules.ts';

/** Every console action and sign-in event, as written to the audit log (docs/console.md lists them). */
export type AuditAction =
  | 'sign_in.succeeded'
  | 'sign_in.failed'
  | 'sign_in.refused_locked'
  | 'sign_in.second_factor_failed'
  | 'account.locked'
  /** A signed-in user's password or TOTP code, asked again before a change to the account, was wrong. */
  | 'account.check_failed'
  | 'sign_out'
  | 'password.changed'
  | 'user.invited'
  /** An owner invited an address that has an account in another console: answered like an invitation, nothing made. */
  | 'user.invite_elsewhere'
  | 'user.invite_accepted'
  | 'user.role_changed'
  | 'user.removed'
  | 'totp.enabled'
  | 'totp.disabled'
  /** Signed in with a recovery code instead of a TOTP code (target: `<email>: <n> left`). */
  | 'sign_in.recovery_code_used'
  | 'recovery_codes.regenerated'
  /** An owner removed another user's TOTP and recovery codes (target: that user's e-mail). */
  | 'user.second_factor_reset'
  | 'link.created'
  | 'link.updated'
  /** Promotion codes (target: the code). */
  | 'promotion.created'
  | 'promotion.updated'
  | 'promotion.deactivated'
  | 'refund.requested'
  | 'refund_caps.changed'
  | 'event.resent'
  | 'receipt.resent'
  | 'schedule.cancelled'
  | 'schedule.resumed'
  /** Target: the registration's reference, and `(<n> schedules cancelled)` when it took schedules with it. */
  | 'card_registration.deleted'
  | 'sessions.ended_others'
  | 'api_token.rotated'
  | 'link_key.rotated'
  | 'jwt_secret.rotated'
  | 'webhook_secret.rotated'
  | 'callback_url.changed'
  | 'support_email.changed'
  | 'payment_methods.changed'
  | 'acquirer.changed'
  /** The Developers page: how long QR Ph codes live (target: minutes, or `(default)`). */
  | 'qr_expiry.changed'
  | 'test_event.sent'
  /** The operator (console or `npm run admin`) suspended or reactivated the integrator (src/domain/integrators/suspension.ts). */
  | 'integrator.suspended'
  | 'integrator.reactivated'
  /** Support (an operator) read one of the integrator's payments, for the reason in the target. */
  | 'payment.read_by_support';

/** Who acted, from where. */
export interface Actor {
  integratorId: string | null;
  userId: string | null;
  email: string | null;
  ip: string | null;
  userAgent: string | null;
  /** A console user's role when they act: staff refunds are capped (src/domain/refunds/caps.ts). */
  role?: ConsoleRole;
}

const MAX_FIELD = 500;
const clip = (v: string | null) => (v === null ? null : v.slice(0, MAX_FIELD));

/** The row of one entry (fields clipped to what the log keeps). */
export const auditRow = (actor: Actor, action: AuditAction, target: string | null, now: Date) => ({
  integratorId: actor.integratorId,
  actorUserId: actor.userId,
  actorEmail: clip(actor.email),
  action,
  target: clip(target),
  ip: clip(actor.ip),
  userAgent: clip(actor.userAgent),
  at: now,
});

/** Writes one entry; call it with the transaction that makes the change it records. */
export async function recordAudit(tx: DbOrTx, actor: Actor, action: AuditAction, target: string | null, now: Date): Promise<void> {
  await tx.insert(auditLog).values(auditRow(actor, action, target, now));
}

/** What the activity page may narrow the log to: who acted (their e-mail, as recorded) and which actions. */
export interface AuditFilter {
  before?: number;
  actorEmail?: string;
  actions?: readonly AuditAction[];
}

/** One page of an integrator's activity, newest first; `before` is the cursor from the previous page. */
export async function listAudit(db: Db, integratorId: string, opts: AuditFilter = {}): Promise<{ entries: AuditEntry[]; next?: number }> {
  const rows = await db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.integratorId, integratorId),
        opts.before === undefined ? undefined : lt(auditLog.id, opts.before),
        opts.actorEmail === undefined ? undefined : eq(sql`lower(${auditLog.actorEmail})`, opts.actorEmail.toLowerCase()),
        opts.actions === undefined ? undefined : inArray(auditLog.action, [...opts.actions]),
      ),
    )
    .orderBy(desc(auditLog.id))
    .limit(AUDIT_PAGE_SIZE + 1);
  const entries = rows.slice(0, AUDIT_PAGE_SIZE);
  return { entries, next: rows.length > AUDIT_PAGE_SIZE ? entries.at(-1)?.id : undefined };
}

/**
 * Deletes entries older than the retention (PAYLINK_AUDIT_RETENTION_DAYS, at least a year as
 * PCI DSS 10.5.1 asks); the workers run it with the other purges. Returns how many went.
 */
export async function pruneAudit(db: DbOrTx, retentionDays: number, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  const gone = await db.delete(auditLog).where(lt(auditLog.at, cutoff)).returning({ id: auditLog.id });
  return gone.length;
}
