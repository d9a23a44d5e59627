import { and, asc, count, eq, gt, isNotNull } from 'drizzle-orm';
import { newId, newUrlToken, sha256Hex } from '../../crypto.ts';
import { type ConsoleRole, type ConsoleUser, consoleUsers } from '../../db/schema.ts';
import { EMAIL_MESSAGE, isEmailAddress } from '../../schemas/email-rules.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, invalidFields, notFound } from '../errors.ts';
import { type Actor, recordAudit } from './audit.ts';
import { inviteMailStates, queueInviteMail } from './mail.ts';
import { hashPassword, passwordProblems, verifyPassword } from './passwords.ts';
import { canManageAccount, normaliseEmail } from './rules.ts';
import { type ConsoleIdentity, endSessionsOf, type RequestOrigin } from './sessions.ts';
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

const actor = (identity: ConsoleIdentity, from: RequestOrigin): Actor => ({
  integratorId: identity.user.integratorId,
  userId: identity.user.id,
  email: identity.user.email,
  ...from,
});

function assertOwner(identity: ConsoleIdentity): void {
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
    const [taken] = await tx.select({ id: consoleUsers.id }).from(consoleUsers).where(eq(consoleUsers.email, email));
    if (taken) throw invalidFields({ email: ['already has a console account'] });
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

/** The invitation behind a token, if it is still valid. */
export async function findInvite(app: DomainContext, token: string): Promise<{ email: string } | undefined> {
  if (!token || token.length > 100) return undefined;
  const [row] = await app.db
    .select({ email: consoleUsers.email })
    .from(consoleUsers)
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
  const hash = await hashPassword(input.password);
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

async function ownersLeft(tx: Pick<DomainContext['db'], 'select'>, integratorId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(consoleUsers)
    .where(and(eq(consoleUsers.integratorId, integratorId), eq(consoleUsers.role, 'owner'), isNotNull(consoleUsers.passwordHash)));
  return row?.n ?? 0;
}

/** Another user of the signed-in user's integrator, row-locked for a change; anyone else's is not found. */
async function lockUserOf(tx: Pick<DomainContext['db'], 'select'>, identity: ConsoleIdentity, userId: string) {
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
    const user = await lockUserOf(tx, identity, userId);
    if (user.role === role) return;
    if (user.role === 'owner' && (await ownersLeft(tx, user.integratorId)) <= 1) {
      throw invalidFields({ role: ['is the only owner: make someone else an owner first'] });
    }
    await tx.update(consoleUsers).set({ role }).where(eq(consoleUsers.id, user.id));
    // A changed role takes effect at once: the user signs in again under it.
    await endSessionsOf(tx, user.id, user.id === identity.user.id ? identity.sessionId : undefined);
    await recordAudit(tx, actor(identity, from), 'user.role_changed', `${user.email}: ${user.role} → ${role}`, app.now());
  });
}

/** Removes a user and ends their sessions. Nobody removes themselves (the last owner would lock everyone out). */
export async function removeUser(app: DomainContext, identity: ConsoleIdentity, userId: string, from: RequestOrigin): Promise<{ email: string }> {
  assertOwner(identity);
  return app.db.transaction(async (tx) => {
    const user = await lockUserOf(tx, identity, userId);
    if (user.id === identity.user.id) throw invalidFields({ user: ['you cannot remove yourself; ask another owner'] });
    await tx.delete(consoleUsers).where(eq(consoleUsers.id, user.id));
    await recordAudit(tx, actor(identity, from), 'user.removed', `${user.email} (${user.role})`, app.now());
    return { email: user.email };
  });
}

/** Every user changes their own password with the current one; their other sessions end. */
export async function changePassword(
  app: DomainContext,
  identity: ConsoleIdentity,
  input: { current: string; password: string; confirm: string },
  from: RequestOrigin,
): Promise<void> {
  const [user] = await app.db.select().from(consoleUsers).where(eq(consoleUsers.id, identity.user.id));
  if (!user?.passwordHash || !(await verifyPassword(input.current, user.passwordHash))) {
    throw invalidFields({ current: ['is not your current password'] });
  }
  const problems = await passwordProblems(input.password, user.email);
  if (problems.length > 0) throw invalidFields({ password: problems });
  if (input.password === input.current) throw invalidFields({ password: ['must differ from your current password'] });
  if (input.password !== input.confirm) throw invalidFields({ confirm: ['does not match the new password'] });
  const hash = await hashPassword(input.password);
  await app.db.transaction(async (tx) => {
    const now = app.now();
    await tx.update(consoleUsers).set({ passwordHash: hash, passwordChangedAt: now }).where(eq(consoleUsers.id, user.id));
    await endSessionsOf(tx, user.id, identity.sessionId);
    await recordAudit(tx, actor(identity, from), 'password.changed', user.email, now);
  });
}

/**
 * TOTP enrolment, step one: a new secret (sealed at rest) that is not yet used at sign-in. Only
 * owners may turn TOTP on; the secret and its QR code are shown once here.
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

/** Step two: a valid code from the app turns TOTP on; from then on sign-in asks for a code. */
export async function confirmTotpEnrolment(app: DomainContext, identity: ConsoleIdentity, input: { code: string }, from: RequestOrigin): Promise<void> {
  assertOwner(identity);
  await app.db.transaction(async (tx) => {
    const [user] = await tx.select().from(consoleUsers).where(eq(consoleUsers.id, identity.user.id)).for('update');
    if (!user?.totpSecretEnc || user.totpEnabledAt) throw invalidFields({ code: ['start the set-up again'] });
    const now = app.now();
    const step = verifyTotp(app.secrets.open(user.totpSecretEnc), input.code, now, user.totpLastStep);
    if (step === undefined) throw invalidFields({ code: ['is not the current code from your authenticator app'] });
    await tx.update(consoleUsers).set({ totpEnabledAt: now, totpLastStep: step }).where(eq(consoleUsers.id, user.id));
    await recordAudit(tx, actor(identity, from), 'totp.enabled', user.email, now);
  });
}

/** Turns TOTP off, with the account's password as proof. */
export async function disableTotp(app: DomainContext, identity: ConsoleIdentity, input: { password: string }, from: RequestOrigin): Promise<void> {
  const [user] = await app.db.select().from(consoleUsers).where(eq(consoleUsers.id, identity.user.id));
  if (!user?.passwordHash || !(await verifyPassword(input.password, user.passwordHash))) throw invalidFields({ password: ['is not your current password'] });
  await app.db.transaction(async (tx) => {
    const now = app.now();
    await tx.update(consoleUsers).set({ totpEnabledAt: null, totpSecretEnc: null, totpLastStep: null }).where(eq(consoleUsers.id, user.id));
    await recordAudit(tx, actor(identity, from), 'totp.disabled', user.email, now);
  });
}
