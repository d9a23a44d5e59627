import { and, asc, eq, inArray, isNull, lte, or } from 'drizzle-orm';
import { escape as escapeHtml } from 'html-escaper';
import { newId } from '../../crypto.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { type ConsoleMail, consoleMail } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import type { MailOutcome } from '../notifications/mail.ts';
import { nextRetry } from '../notifications/retry.ts';

/**
 * Console e-mails (today: invitations) go through their own queue, console_mail, never the
 * outbox: integrators read the outbox through GET /api/v1/events, and an invitation carries a
 * one-time sign-up link. The message's variables are sealed at rest; the mailer worker claims,
 * sends and retries them as it does customer e-mails.
 */
export interface InviteMail {
  integratorName: string;
  inviterEmail: string;
  role: string;
  url: string;
  expiresAt: string;
}

export async function queueInviteMail(app: DomainContext, tx: DbOrTx, row: { integratorId: string; userId: string; to: string; mail: InviteMail; now: Date }) {
  await tx.insert(consoleMail).values({
    id: newId('cml'),
    integratorId: row.integratorId,
    userId: row.userId,
    kind: 'invite',
    emailTo: row.to,
    payloadEnc: app.secrets.seal(JSON.stringify(row.mail)),
    nextAt: row.now,
    createdAt: row.now,
  });
}

export async function claimDueConsoleMail(db: Db, opts: { now: Date; leaseMs: number; limit: number }): Promise<ConsoleMail[]> {
  const due = db
    .select({ id: consoleMail.id })
    .from(consoleMail)
    .where(
      and(eq(consoleMail.state, 'pending'), lte(consoleMail.nextAt, opts.now), or(isNull(consoleMail.lockedUntil), lte(consoleMail.lockedUntil, opts.now))),
    )
    .orderBy(asc(consoleMail.nextAt))
    .limit(opts.limit)
    .for('update', { skipLocked: true });
  return db
    .update(consoleMail)
    .set({ lockedUntil: new Date(opts.now.getTime() + opts.leaseMs) })
    .where(and(inArray(consoleMail.id, due), eq(consoleMail.state, 'pending')))
    .returning();
}

export async function recordConsoleMailOutcome(
  db: Db,
  opts: { id: string; attempts: number; outcome: MailOutcome; now: Date; schedule: readonly number[]; random?: () => number },
): Promise<{ state: ConsoleMail['state']; attempt: number }> {
  const attempt = opts.attempts + 1;
  if (opts.outcome.ok) {
    await db
      .update(consoleMail)
      .set({ attempts: attempt, state: 'sent', sentAt: opts.now, nextAt: null, lockedUntil: null, lastError: null })
      .where(and(eq(consoleMail.id, opts.id), eq(consoleMail.state, 'pending')));
    return { state: 'sent', attempt };
  }
  const decision = opts.outcome.permanent
    ? ({ kind: 'give-up' } as const)
    : nextRetry({ attempt, schedule: opts.schedule, now: opts.now, random: opts.random });
  const state = decision.kind === 'retry' ? 'pending' : 'failed';
  await db
    .update(consoleMail)
    .set({ attempts: attempt, state, nextAt: decision.kind === 'retry' ? decision.at : null, lockedUntil: null, lastError: opts.outcome.error.slice(0, 500) })
    .where(and(eq(consoleMail.id, opts.id), eq(consoleMail.state, 'pending')));
  return { state, attempt };
}

/** The invitation e-mail of each invited user of an integrator (the latest one): pending, sent or failed. */
export async function inviteMailStates(db: Db, userIds: string[]): Promise<Map<string, ConsoleMail['state']>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: consoleMail.userId, state: consoleMail.state })
    .from(consoleMail)
    .where(inArray(consoleMail.userId, userIds))
    .orderBy(asc(consoleMail.createdAt));
  return new Map(rows.filter((r) => r.userId !== null).map((r) => [r.userId!, r.state]));
}

/** The message: subject, plain text and HTML (every value escaped). */
export function renderConsoleMail(app: DomainContext, row: Pick<ConsoleMail, 'kind' | 'payloadEnc'>): { subject: string; text: string; html: string } {
  const mail = JSON.parse(app.secrets.open(row.payloadEnc)) as InviteMail;
  const subject = `You are invited to the ${mail.integratorName} console on paylink`;
  const text = [
    `${mail.inviterEmail} invited you to the paylink console of ${mail.integratorName} as ${mail.role}.`,
    '',
    'Choose your password here (the link works once):',
    mail.url,
    '',
    `It expires at ${mail.expiresAt}. If you did not expect this, ignore this e-mail.`,
  ].join('\n');
  const e = escapeHtml;
  const html = `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;line-height:1.5">
<p>${e(mail.inviterEmail)} invited you to the paylink console of <strong>${e(mail.integratorName)}</strong> as ${e(mail.role)}.</p>
<p><a href="${e(mail.url)}">Choose your password</a> (the link works once).</p>
<p style="color:#4b5563">It expires at ${e(mail.expiresAt)}. If you did not expect this, ignore this e-mail.</p>
</body></html>`;
  return { subject, text, html };
}
