import { and, asc, eq, inArray, isNull, lte, or } from 'drizzle-orm';
import { escape as escapeHtml } from 'html-escaper';
import { newId } from '../../crypto.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { type ConsoleMail, consoleMail } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import type { MailOutcome } from '../notifications/mail.ts';
import { nextRetry } from '../notifications/retry.ts';

/**
 * Console e-mails (invitations, and the notice that an account, a merchant's or an operator's, is locked) go through their own queue, console_mail, never the
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

/** Told to the account's owner when too many failed sign-ins lock it: until when, and from which address the last came. */
export interface LockedMail {
  until: string;
  ip: string | null;
}

/** Told to the holder of an address another merchant's owner tried to invite: nothing was created. */
export interface AddressTakenMail {
  integratorName: string;
  inviterEmail: string;
}

/** Told to a user whose two-step sign-in was reset: by which owner (or the operator) and when. */
export interface SecondFactorResetMail {
  integratorName: string;
  byEmail?: string;
  byOperator?: true;
  at: string;
}

type ConsoleMailKind = ConsoleMail['kind'];
type ConsoleMailOf<K extends ConsoleMailKind> = K extends 'invite'
  ? InviteMail
  : K extends 'locked' | 'operator_locked'
    ? LockedMail
    : K extends 'second_factor_reset'
      ? SecondFactorResetMail
      : AddressTakenMail;

async function queueConsoleMail<K extends ConsoleMailKind>(
  app: DomainContext,
  tx: DbOrTx,
  kind: K,
  row: { integratorId: string | null; userId: string | null; operatorId?: string; to: string; mail: ConsoleMailOf<K>; now: Date },
) {
  await tx.insert(consoleMail).values({
    id: newId('cml'),
    integratorId: row.integratorId,
    userId: row.userId,
    operatorId: row.operatorId ?? null,
    kind,
    emailTo: row.to,
    payloadEnc: app.secrets.seal(JSON.stringify(row.mail)),
    nextAt: row.now,
    createdAt: row.now,
  });
}

export const queueInviteMail = (app: DomainContext, tx: DbOrTx, row: { integratorId: string; userId: string; to: string; mail: InviteMail; now: Date }) =>
  queueConsoleMail(app, tx, 'invite', row);
export const queueLockedMail = (app: DomainContext, tx: DbOrTx, row: { integratorId: string; userId: string; to: string; mail: LockedMail; now: Date }) =>
  queueConsoleMail(app, tx, 'locked', row);
export const queueSecondFactorResetMail = (
  app: DomainContext,
  tx: DbOrTx,
  row: { integratorId: string; userId: string; to: string; mail: SecondFactorResetMail; now: Date },
) => queueConsoleMail(app, tx, 'second_factor_reset', row);
/** An operator's lock (the operator console's sign-in): the same queue and worker, under no integrator. */
export const queueOperatorLockedMail = (app: DomainContext, tx: DbOrTx, row: { operatorId: string; to: string; mail: LockedMail; now: Date }) =>
  queueConsoleMail(app, tx, 'operator_locked', { ...row, integratorId: null, userId: null });
/** Queued under the inviting integrator, with no user: the address's holder belongs to another. */
export const queueAddressTakenMail = (app: DomainContext, tx: DbOrTx, row: { integratorId: string; to: string; mail: AddressTakenMail; now: Date }) =>
  queueConsoleMail(app, tx, 'address_taken', { ...row, userId: null });

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
    .where(and(inArray(consoleMail.userId, userIds), eq(consoleMail.kind, 'invite')))
    .orderBy(asc(consoleMail.createdAt));
  return new Map(rows.filter((r) => r.userId !== null).map((r) => [r.userId!, r.state]));
}

/** The message: subject, plain text and HTML (every value escaped). */
export function renderConsoleMail(app: DomainContext, row: Pick<ConsoleMail, 'kind' | 'payloadEnc'>): { subject: string; text: string; html: string } {
  if (row.kind === 'locked') return renderLockedMail(JSON.parse(app.secrets.open(row.payloadEnc)) as LockedMail);
  if (row.kind === 'second_factor_reset') return renderSecondFactorResetMail(JSON.parse(app.secrets.open(row.payloadEnc)) as SecondFactorResetMail);
  if (row.kind === 'operator_locked') return renderOperatorLockedMail(JSON.parse(app.secrets.open(row.payloadEnc)) as LockedMail);
  if (row.kind === 'address_taken') return renderAddressTakenMail(JSON.parse(app.secrets.open(row.payloadEnc)) as AddressTakenMail);
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

const paragraphs = (subject: string, lines: string[]) => ({
  subject,
  text: lines.join('\n\n'),
  html: `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;line-height:1.5">\n${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}\n</body></html>`,
});

function renderAddressTakenMail(mail: AddressTakenMail): { subject: string; text: string; html: string } {
  return paragraphs(`${mail.integratorName} tried to invite you to their paylink console`, [
    `${mail.inviterEmail} tried to invite this address to the paylink console of ${mail.integratorName}.`,
    'This address already has a paylink console account, and one address can belong to one console only, so no invitation was made.',
    'If you want to join, give them another e-mail address to invite. If you did not expect this, ignore this e-mail.',
  ]);
}

function renderLockedMail(mail: LockedMail): { subject: string; text: string; html: string } {
  return paragraphs('Your paylink console account is locked for now', [
    `Too many sign-ins or password checks on your paylink console account failed in a row, so it refuses every password, the right one too, until ${mail.until.slice(0, 16).replace('T', ' ')} UTC.`,
    ...(mail.ip ? [`The last failed attempt came from ${mail.ip}.`] : []),
    'If these were not you, change your password once the lock ends, and ask an owner of your account to look at the activity log.',
  ]);
}

function renderSecondFactorResetMail(mail: SecondFactorResetMail): { subject: string; text: string; html: string } {
  const at = `${mail.at.slice(0, 16).replace('T', ' ')} UTC`;
  const who = mail.byOperator ? 'paylink’s operator' : (mail.byEmail ?? 'an owner');
  return paragraphs('Your two-step sign-in on paylink was reset', [
    mail.byOperator
      ? `paylink’s operator reset your two-step sign-in on the paylink console of ${mail.integratorName} at ${at}.`
      : `${who}, an owner of the paylink console of ${mail.integratorName}, reset your two-step sign-in at ${at}.`,
    'Your authenticator app’s code and your recovery codes no longer work, and every session of yours was signed out. Until it is turned on again (Your account, for owners), you sign in with your password alone.',
    mail.byOperator
      ? 'If you did not ask for this, tell paylink’s operator at once, and change your password.'
      : `If you did not ask for this, tell ${who} or another owner at once, and change your password.`,
  ]);
}

function renderOperatorLockedMail(mail: LockedMail): { subject: string; text: string; html: string } {
  return paragraphs('Your paylink operator account is locked for now', [
    `Too many sign-ins, codes or password checks on your paylink operator account failed in a row, so it refuses every password, the right one too, until ${mail.until.slice(0, 16).replace('T', ' ')} UTC, and every session of it is signed out.`,
    ...(mail.ip ? [`The last failed attempt came from ${mail.ip}.`] : []),
    'If these were not you, change your password once the lock ends, turn on two-step sign-in, and look at the operator activity log (/operator/activity).',
  ]);
}
