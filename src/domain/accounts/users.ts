import { and, asc, count, eq, gt } from 'drizzle-orm';
import { newId, newUrlToken, sha256Hex } from '../../crypto.ts';
import { type ConsoleRole, type ConsoleUser, consoleSessions, consoleUsers, integrators } from '../../db/schema.ts';
import { EMAIL_MESSAGE, isEmailAddress } from '../../schemas/email-rules.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, invalidFields, notFound } from '../errors.ts';
import { type Actor, recordAudit } from './audit.ts';
import { inviteMailStates, queueAddressTakenMail, queueInviteMail } from './mail.ts';
import { passwordProblems } from './passwords.ts';
import { assertNewPassword, type IdentityProof, proofRefusal } from './proof.ts';
import { dropRecoveryCodes, storeNewRecoveryCodes } from './recovery-code-store.ts';
import { afterFailedSignIn, canManageAccount, isLocked, normaliseEmail } from './rules.ts';
import { accountLocked, type ConsoleIdentity, endSessionsOf, type RequestOrigin } from './sessions.ts';
import { enrolmentView, newTotpSecret, verifyTotp } from './totp.ts';

/**
 * Users of one integrator's console. Every function takes the signed-in identity and acts only
 * inside its integrator: another integrator's user id is "not found" (404), whatever the URL.
 * Owner-only actions are "not found" for staff too, so a staff member learns nothing from probing.
 */
export type UserView = Pick<ConsoleUser, 'id' | 'email' | 'role' | 'createdAt' | 'lastSignInAt' | 'totpEnabledAt' | 'lockedUntil'> & {
  invited: boolean;
  /** The invitation e-mail's state, for invited users. */
  inviteMail: 'pending' | 'sent' | 'failed' | null;
};

export const actor = (identity: ConsoleIdentity, from: RequestOrigin): Actor => ({
  integratorId: identity.user.integratorId,
  userId: identity.user.id,
  email: identity.user.email,
  ...from,
});

export function assertOwner(identity: ConsoleIdentity): void {
  if (!canManageAccount(identity.user.role)) throw notFound('(request)', 'This page');
}

export async function listUsers(app: DomainContext, identity: ConsoleIdentity): Promise<UserView[]> {
  assertOwner(identity);
  const rows = await app.db.select().from(consoleUsers).where(eq(consoleUsers.integratorId, identity.user.integratorId)).orderBy(asc(consoleUsers.createdAt));
  const mails = await inviteMailStates(
    app.db,
    rows.filter((u) => u.passwordHash === null).map((u) => u.id),
  );
  return rows.map((u) => ({
    id: u.id,
    email: u.email,
    role: u.role,
    createdAt: u.createdAt,
    lastSignInAt: u.lastSignInAt,
    totpEnabledAt: u.totpEnabledAt,
    lockedUntil: u.lockedUntil && u.lockedUntil > app.now() ? u.lockedUntil : null,
    invited: u.passwordHash === null,
    inviteMail: mails.get(u.id) ?? null,
  }));
}

function parseRole(role: unknown): ConsoleRole {
  if (role !== 'owner' && role !== 'staff') throw invalidFields({ role: ['must be owner or staff'] });
  return role;
}

export const inviteUrl = (app: DomainContext, token: string) => `${app.origin()}/console/invite/${token}`;

/**
 * Invites someone: a user without a password and a one-time link (its token stored as sha256,
 * valid PAYLINK_CONSOLE_INVITE_HOURS) that lets them choose one. The link is returned once.
 */
export async function inviteUser(app: DomainContext, identity: ConsoleIdentity, input: { email: string; role: string }, from: RequestOrigin) {
  assertOwner(identity);
  const email = normaliseEmail(input.email);
  if (!isEmailAddress(email)) throw invalidFields({ email: [EMAIL_MESSAGE] });
  const role = parseRole(input.role);
  const token = newUrlToken();
  const now = app.now();
  const expiresAt = new Date(now.getTime() + app.config.console.inviteHours * 3_600_000);
  await app.db.transaction(async (tx) => {
    const [taken] = await tx.select({ integratorId: consoleUsers.integratorId }).from(consoleUsers).where(eq(consoleUsers.email, email));
    if (taken?.integratorId === identity.user.integratorId) throw invalidFields({ email: ['is already a user of this console (see the list above)'] });
    if (taken) {
      // The address belongs to another merchant's console: answered like an invitation, so an
      // owner cannot probe which addresses have accounts elsewhere. Nothing is created; the
      // address's holder is told by e-mail to give the inviter another address.
      await recordAudit(tx, actor(identity, from), 'user.invite_elsewhere', `${email} (${role})`, now);
      await queueAddressTakenMail(app, tx, {
        integratorId: identity.user.integratorId,
        to: email,
        now,
        mail: { integratorName: identity.integratorName, inviterEmail: identity.user.email },
      });
      return;
    }
    const userId = newId('usr');
    await tx.insert(consoleUsers).values({
      id: userId,
      integratorId: identity.user.integratorId,
      email,
      role,
      inviteTokenHash: sha256Hex(token),
      inviteExpiresAt: expiresAt,
      createdAt: now,
    });
    await recordAudit(tx, actor(identity, from), 'user.invited', `${email} (${role})`, now);
    await queueInviteMail(app, tx, {
      integratorId: identity.user.integratorId,
      userId,
      to: email,
      now,
      mail: {
        integratorName: identity.integratorName,
        inviterEmail: identity.user.email,
        role,
        url: inviteUrl(app, token),
        expiresAt: expiresAt.toISOString(),
      },
    });
  });
  // Without SMTP_URL the mailer writes the e-mail to <data dir>/mail instead of sending it.
  return { email, role, token, url: inviteUrl(app, token), expiresAt, mail: app.config.smtpUrl ? ('queued' as const) : ('file-only' as const) };
}

/** An open invitation: whom it is for, the account it joins, the role it gives and until when it works. */
export interface InviteView {
  email: string;
  role: ConsoleRole;
  accountName: string;
  expiresAt: Date | null;
}

export async function findInvite(app: DomainContext, token: string): Promise<InviteView | undefined> {
  if (!token || token.length > 100) return undefined;
  const [row] = await app.db
    .select({ email: consoleUsers.email, role: consoleUsers.role, accountName: integrators.name, expiresAt: consoleUsers.inviteExpiresAt })
    .from(consoleUsers)
    .innerJoin(integrators, eq(integrators.id, consoleUsers.integratorId))
    .where(and(eq(consoleUsers.inviteTokenHash, sha256Hex(token)), gt(consoleUsers.inviteExpiresAt, app.now())));
  return row;
}

/** Sets the invited user's password; the link is spent. */
export async function acceptInvite(
  app: DomainContext,
  token: string,
  input: { password: string; confirm: string },
  from: RequestOrigin,
): Promise<{ email: string }> {
  const invite = await findInvite(app, token);
  if (!invite) throw notFound('token', 'This invitation');
  const problems = await passwordProblems(input.password, invite.email);
  if (problems.length > 0) throw invalidFields({ password: problems });
  if (input.password !== input.confirm) throw invalidFields({ confirm: ['does not match the password'] });
  const hash = await app.passwords.hash(input.password);
  return app.db.transaction(async (tx) => {
    const now = app.now();
    const [user] = await tx
      .update(consoleUsers)
      .set({ passwordHash: hash, passwordChangedAt: now, inviteTokenHash: null, inviteExpiresAt: null })
      .where(and(eq(consoleUsers.inviteTokenHash, sha256Hex(token)), gt(consoleUsers.inviteExpiresAt, now)))
      .returning();
    if (!user) throw notFound('token', 'This invitation');
    await recordAudit(tx, { integratorId: user.integratorId, userId: user.id, email: user.email, ...from }, 'user.invite_accepted', user.email, now);
    return { email: user.email };
  });
}

/**
 * The integrator's owners who can sign in, their rows locked first (in id order, so two changes
 * never wait on each other crosswise): two owners demoting or removing each other at once are
 * then taken one after the other, and the second sees that only one owner is left.
 */
async function lockOwners(tx: Pick<DomainContext['db'], 'select'>, integratorId: string): Promise<number> {
  const owners = await tx
    .select({ id: consoleUsers.id, passwordHash: consoleUsers.passwordHash })
    .from(consoleUsers)
    .where(and(eq(consoleUsers.integratorId, integratorId), eq(consoleUsers.role, 'owner')))
    .orderBy(asc(consoleUsers.id))
    .for('update');
  return owners.filter((o) => o.passwordHash !== null).length;
}

/** Another user of the signed-in user's integrator, row-locked for a change; anyone else's is not found. */
export async function lockUserOf(tx: Pick<DomainContext['db'], 'select'>, identity: ConsoleIdentity, userId: string) {
  const [user] = await tx
    .select()
    .from(consoleUsers)
    .where(and(eq(consoleUsers.id, userId), eq(consoleUsers.integratorId, identity.user.integratorId)))
    .for('update');
  if (!user) throw notFound('user', 'This user');
  return user;
}

/** Changes a user's role; the last owner cannot be made staff (someone must be able to manage users). */
export async function changeRole(app: DomainContext, identity: ConsoleIdentity, userId: string, input: { role: string }, from: RequestOrigin): Promise<void> {
  assertOwner(identity);
  const role = parseRole(input.role);
  await app.db.transaction(async (tx) => {
    const owners = await lockOwners(tx, identity.user.integratorId);
    const user = await lockUserOf(tx, identity, userId);
    if (user.role === role) return;
    if (user.role === 'owner' && user.passwordHash !== null && owners <= 1) {
      throw invalidFields({ role: ['is the only owner: make someone else an owner first'] });
    }
    await tx.update(consoleUsers).set({ role }).where(eq(consoleUsers.id, user.id));
    // A changed role takes effect at once: the user signs in again under it.
    await endSessionsOf(tx, user.id, user.id === identity.user.id ? identity.sessionId : undefined);
    await recordAudit(tx, actor(identity, from), 'user.role_changed', `${user.email}: ${user.role} → ${role}`, app.now());
  });
}

/** How many sessions of one of the account's users have not run out: what removing them ends (the confirm step says it). */
export async function openSessionCount(app: DomainContext, identity: ConsoleIdentity, userId: string): Promise<number> {
  assertOwner(identity);
  const [row] = await app.db
    .select({ n: count() })
    .from(consoleSessions)
    .innerJoin(consoleUsers, eq(consoleUsers.id, consoleSessions.userId))
    .where(and(eq(consoleSessions.userId, userId), eq(consoleUsers.integratorId, identity.user.integratorId), gt(consoleSessions.expiresAt, app.now())));
  return Number(row?.n ?? 0);
}

/** Removes a user and ends their sessions. Nobody removes themselves (the last owner would lock everyone out). */
export async function removeUser(app: DomainContext, identity: ConsoleIdentity, userId: string, from: RequestOrigin): Promise<{ email: string }> {
  assertOwner(identity);
  return app.db.transaction(async (tx) => {
    const owners = await lockOwners(tx, identity.user.integratorId);
    const user = await lockUserOf(tx, identity, userId);
    if (user.id === identity.user.id) throw invalidFields({ user: ['you cannot remove yourself; ask another owner'] });
    if (user.role === 'owner' && user.passwordHash !== null && owners <= 1) {
      throw invalidFields({ user: ['is the only owner: make someone else an owner first'] });
    }
    await tx.delete(consoleUsers).where(eq(consoleUsers.id, user.id));
    await recordAudit(tx, actor(identity, from), 'user.removed', `${user.email} (${user.role})`, app.now());
    return { email: user.email };
  });
}

/**
 * Checks the signed-in user's own password (and, when given, their TOTP code) before a change to
 * the account. A wrong one counts towards the same lockout as a failed sign-in, so a stolen
 * session cannot guess the password behind it without limit: the attempt that locks the account
 * also ends every session of it (the one in use too). A locked account checks nothing.
 */
export async function confirmIdentity(app: DomainContext, identity: ConsoleIdentity, proof: IdentityProof, from: RequestOrigin): Promise<ConsoleUser> {
  app.passwords.assertRoom();
  const [before] = await app.db.select().from(consoleUsers).where(eq(consoleUsers.id, identity.user.id));
  if (!before) throw notFound('(request)', 'Your account');
  const checkable = before.passwordHash && !isLocked(before, app.now()) ? before.passwordHash : undefined;
  const passwordRight = checkable ? await app.passwords.verify(proof.password, checkable) : await app.passwords.verifyNothing(proof.password);
  const outcome = await app.db.transaction(async (tx) => {
    const [user] = await tx.select().from(consoleUsers).where(eq(consoleUsers.id, identity.user.id)).for('update');
    if (!user) throw notFound('(request)', 'Your account');
    const now = app.now();
    if (isLocked(user, now)) return { kind: 'locked' as const, until: user.lockedUntil! };
    const codeRight =
      proof.code === undefined ||
      (user.totpSecretEnc !== null && verifyTotp(app.secrets.open(user.totpSecretEnc), proof.code, now, user.totpLastStep) !== undefined);
    if (passwordRight && user.passwordHash === checkable && codeRight) {
      if (user.failedSignIns > 0) await tx.update(consoleUsers).set({ failedSignIns: 0 }).where(eq(consoleUsers.id, user.id));
      return { kind: 'confirmed' as const, user };
    }
    const next = afterFailedSignIn(user, app.config.console, now);
    await tx.update(consoleUsers).set({ failedSignIns: next.failedSignIns, lockedUntil: next.lockedUntil }).where(eq(consoleUsers.id, user.id));
    await recordAudit(tx, actor(identity, from), 'account.check_failed', `${user.email}: ${passwordRight ? 'code' : 'password'}`, now);
    if (next.lockedNow) {
      await endSessionsOf(tx, user.id);
      await accountLocked(app, tx, user, next.lockedUntil!, from, now);
      return { kind: 'locked' as const, until: next.lockedUntil! };
    }
    return { kind: 'wrong' as const, passwordRight };
  });
  if (outcome.kind === 'confirmed') return outcome.user;
  throw proofRefusal(outcome, proof);
}

/** Every user changes their own password with the current one; their other sessions end. */
export async function changePassword(
  app: DomainContext,
  identity: ConsoleIdentity,
  input: { current: string; password: string; confirm: string },
  from: RequestOrigin,
): Promise<void> {
  await assertNewPassword(input, identity.user.email);
  const user = await confirmIdentity(app, identity, { password: input.current, passwordField: 'current' }, from);
  const hash = await app.passwords.hash(input.password);
  await app.db.transaction(async (tx) => {
    const now = app.now();
    await tx.update(consoleUsers).set({ passwordHash: hash, passwordChangedAt: now }).where(eq(consoleUsers.id, user.id));
    await endSessionsOf(tx, user.id, identity.sessionId);
    await recordAudit(tx, actor(identity, from), 'password.changed', user.email, now);
  });
}

/**
 * TOTP enrolment, step one: a new secret (sealed at rest) that is not yet used at sign-in. Only
 * owners may turn TOTP on (the rule); the secret and its QR code are shown once here.
 */
export async function startTotpEnrolment(app: DomainContext, identity: ConsoleIdentity): Promise<{ secret: string; uri: string; svg: string }> {
  assertOwner(identity);
  if (identity.user.totpEnabledAt)
    throw new DomainError('ER.02.30', 'Two-step sign-in is already on', { httpStatus: 409, messages: { code: ['two-step sign-in is already on'] } });
  const secret = newTotpSecret();
  await app.db
    .update(consoleUsers)
    .set({ totpSecretEnc: app.secrets.seal(secret), totpLastStep: null })
    .where(eq(consoleUsers.id, identity.user.id));
  return { secret, ...(await enrolmentView(secret, identity.user.email)) };
}

/** The pending secret's enrolment view again (after a wrong code), or undefined when none is pending. */
export async function pendingTotpEnrolment(app: DomainContext, identity: ConsoleIdentity) {
  const [user] = await app.db.select().from(consoleUsers).where(eq(consoleUsers.id, identity.user.id));
  if (!user?.totpSecretEnc || user.totpEnabledAt) return undefined;
  const secret = app.secrets.open(user.totpSecretEnc);
  return { secret, ...(await enrolmentView(secret, user.email)) };
}

/** Step two: a valid code from the app turns TOTP on; from then on sign-in asks for a code. Returns the recovery codes, shown once. */
export async function confirmTotpEnrolment(app: DomainContext, identity: ConsoleIdentity, input: { code: string }, from: RequestOrigin): Promise<string[]> {
  assertOwner(identity);
  return app.db.transaction(async (tx) => {
    const [user] = await tx.select().from(consoleUsers).where(eq(consoleUsers.id, identity.user.id)).for('update');
    if (!user?.totpSecretEnc || user.totpEnabledAt) throw invalidFields({ code: ['start the set-up again'] });
    const now = app.now();
    const secret = app.secrets.open(user.totpSecretEnc);
    const step = verifyTotp(secret, input.code, now, user.totpLastStep);
    if (step === undefined) throw invalidFields({ code: ['is not the current code from your authenticator app'] });
    await tx.update(consoleUsers).set({ totpEnabledAt: now, totpLastStep: step }).where(eq(consoleUsers.id, user.id));
    await recordAudit(tx, actor(identity, from), 'totp.enabled', user.email, now);
    return storeNewRecoveryCodes(tx, user, secret, now);
  });
}

/**
 * Turns TOTP off, with the account's password and a current code from the authenticator app as
 * proof (the password alone is what a stolen session plus a guessed password would give). Wrong
 * ones count towards the lockout.
 */
export async function disableTotp(
  app: DomainContext,
  identity: ConsoleIdentity,
  input: { password: string; code: string },
  from: RequestOrigin,
): Promise<void> {
  const user = await confirmIdentity(
    app,
    identity,
    { password: input.password, passwordField: 'totp_password', code: input.code, codeField: 'totp_code' },
    from,
  );
  await app.db.transaction(async (tx) => {
    const now = app.now();
    await tx.update(consoleUsers).set({ totpEnabledAt: null, totpSecretEnc: null, totpLastStep: null }).where(eq(consoleUsers.id, user.id));
    await dropRecoveryCodes(tx, user.id);
    await recordAudit(tx, actor(identity, from), 'totp.disabled', user.email, now);
  });
}
