import { and, eq, lte, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { newId, newUrlToken, sha256Hex } from '../../crypto.ts';
import type { DbOrTx } from '../../db/client.ts';
import { auditLog, type ConsoleSession, type ConsoleUser, consoleSessions, consoleUsers, integratorAcquirers, integrators } from '../../db/schema.ts';
import { insertSelect, prefixed, prepareStatement, rowsOf, setClause } from '../../db/statements.ts';
import type { DomainContext } from '../context.ts';
import { type Actor, auditRow, recordAudit } from './audit.ts';
import { queueLockedMail } from './mail.ts';
import { recoveryCodesLeft, spendRecoveryCode } from './recovery-code-store.ts';
import { looksLikeRecoveryCode } from './recovery-codes.ts';
import { afterFailedSignIn, isLocked, normaliseEmail, SESSION_TOUCH_SECONDS, secondFactorExpiry, sessionExpiry, sessionState } from './rules.ts';
import { verifyTotp } from './totp.ts';

/** Where a request comes from, for the audit log and the session row. */
export interface RequestOrigin {
  ip: string | null;
  userAgent: string | null;
}

/** The signed-in user as pages see them. */
export interface ConsoleIdentity {
  sessionId: string;
  user: Pick<ConsoleUser, 'id' | 'email' | 'role' | 'integratorId' | 'totpEnabledAt'>;
  integratorName: string;
  /** Set while the operator has suspended the account (src/domain/integrators/suspension.ts): every page shows it. */
  suspendedAt?: Date | null;
  /** The merchant's acquirer is the sandbox (no money moves): every page says so, as Stripe's test mode does. */
  testMode?: boolean;
}

export type SignInOutcome =
  | { kind: 'signed-in'; token: string }
  /** The password was right and the account has TOTP: the token names a session that still needs the code. */
  | { kind: 'second-factor'; token: string }
  | { kind: 'refused' }
  /** Only after the right password (the TOTP step): whoever reaches it knows the password. */
  | { kind: 'locked'; until: Date };

const actorOf = (user: Pick<ConsoleUser, 'id' | 'integratorId' | 'email'>, from: RequestOrigin): Actor => ({
  integratorId: user.integratorId,
  userId: user.id,
  email: user.email,
  ...from,
});

async function startSession(app: DomainContext, tx: DbOrTx, user: ConsoleUser, stage: ConsoleSession['stage'], from: RequestOrigin): Promise<string> {
  const now = app.now();
  const token = newUrlToken();
  await tx.insert(consoleSessions).values({
    id: newId('ses'),
    tokenHash: sha256Hex(token),
    userId: user.id,
    stage,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: stage === 'complete' ? sessionExpiry(app.config.console, now) : secondFactorExpiry(now),
    ip: from.ip,
    userAgent: from.userAgent?.slice(0, 500) ?? null,
  });
  return token;
}

/**
 * Checks an e-mail and password. A wrong password counts towards the lockout (in the database,
 * so every process counts together); a locked account refuses every password, the right one too.
 * Every refusal looks the same from outside: an unknown e-mail, an account without a password
 * yet and a locked account cost one Argon2 verification like a wrong password and answer
 * `refused` like it, so neither timing nor wording tells whether an address has an account or
 * whether it is locked. The lock is told to the account's owner only, by e-mail, when it starts.
 */
export async function signIn(app: DomainContext, input: { email: string; password: string }, from: RequestOrigin): Promise<SignInOutcome> {
  app.passwords.assertRoom();
  const email = normaliseEmail(input.email);
  const [user] = await app.db.select().from(consoleUsers).where(eq(consoleUsers.email, email));
  const checkable = user?.passwordHash && !isLocked(user, app.now()) ? user.passwordHash : undefined;
  const valid = checkable ? await app.passwords.verify(input.password, checkable) : await app.passwords.verifyNothing(input.password);
  if (!user) {
    await recordAudit(app.db, { integratorId: null, userId: null, email, ...from }, 'sign_in.failed', 'unknown e-mail', app.now());
    return { kind: 'refused' };
  }
  if (!valid && (await refusedInOneStatement(app, user, checkable, from))) return { kind: 'refused' };
  return app.db.transaction(async (tx): Promise<SignInOutcome> => {
    // The row is locked so two wrong passwords at once from two processes both count.
    const [current] = await tx.select().from(consoleUsers).where(eq(consoleUsers.id, user.id)).for('update');
    if (!current) return { kind: 'refused' };
    const now = app.now();
    if (isLocked(current, now)) {
      await recordAudit(tx, actorOf(current, from), 'sign_in.refused_locked', current.email, now);
      return { kind: 'refused' };
    }
    if (!valid || current.passwordHash !== checkable) {
      const next = afterFailedSignIn(current, app.config.console, now);
      await tx.update(consoleUsers).set({ failedSignIns: next.failedSignIns, lockedUntil: next.lockedUntil }).where(eq(consoleUsers.id, current.id));
      await recordAudit(tx, actorOf(current, from), 'sign_in.failed', current.email, now);
      if (next.lockedNow) await accountLocked(app, tx, current, next.lockedUntil!, from, now);
      return { kind: 'refused' };
    }
    if (current.totpEnabledAt) return { kind: 'second-factor', token: await startSession(app, tx, current, 'password', from) };
    await tx.update(consoleUsers).set({ failedSignIns: 0, lockedUntil: null, lastSignInAt: now }).where(eq(consoleUsers.id, current.id));
    await recordAudit(tx, actorOf(current, from), 'sign_in.succeeded', current.email, now);
    return { kind: 'signed-in', token: await startSession(app, tx, current, 'complete', from) };
  });
}

/**
 * A refused sign-in for a known account, in one statement instead of a locked transaction of
 * three, when the row is still as it was read: a wrong password counted (a compare-and-set of the
 * failure count, for an account with no lock, lapsed or running, that this failure does not lock)
 * with its audit entry, or a locked account's refusal audited while the lock still runs. False
 * when the row moved (another attempt counted first) or the case is not one of those two: the
 * locked transaction in `signIn` then decides. A flood of wrong passwords costs the event loop
 * what these statements cost (docs/security.md, "Console accounts").
 */
async function refusedInOneStatement(app: DomainContext, user: ConsoleUser, checkable: string | undefined, from: RequestOrigin): Promise<boolean> {
  const now = app.now();
  if (isLocked(user, now)) {
    const audit = auditValues(actorOf(user, from), 'sign_in.refused_locked', user.email, now);
    return rowsOf(await lockedRefusalStatement.execute(app.db, { ...audit, userId: user.id, now: now.toISOString() })).length === 1;
  }
  if (checkable === undefined || user.lockedUntil !== null) return false;
  const next = afterFailedSignIn(user, app.config.console, now);
  if (next.lockedNow) return false;
  const written = await failureStatement.execute(app.db, {
    ...auditValues(actorOf(user, from), 'sign_in.failed', user.email, now),
    userId: user.id,
    seenFailures: user.failedSignIns,
    failedSignIns: next.failedSignIns,
    passwordHash: checkable,
  });
  return rowsOf(written).length === 1;
}

type AuditPlaceholders = `audit.${keyof ReturnType<typeof auditRow>}`;
const auditValues = (...entry: Parameters<typeof auditRow>) => prefixed('audit.', auditRow(...entry)) as Record<AuditPlaceholders, unknown>;
const auditSelect = (p: (name: AuditPlaceholders) => Placeholder, from: SQL) =>
  insertSelect(
    auditLog,
    {
      integratorId: p('audit.integratorId'),
      actorUserId: p('audit.actorUserId'),
      actorEmail: p('audit.actorEmail'),
      action: p('audit.action'),
      target: p('audit.target'),
      ip: p('audit.ip'),
      userAgent: p('audit.userAgent'),
      at: p('audit.at'),
    },
    from,
  );

const lockedRefusalStatement = prepareStatement<AuditPlaceholders | 'userId' | 'now'>(
  (p) =>
    sql`${auditSelect(p, sql`${consoleUsers} where ${consoleUsers.id} = ${p('userId')} and ${consoleUsers.lockedUntil} > ${p('now')}::timestamptz`)} returning ${auditLog.id}`,
);

const failureStatement = prepareStatement<AuditPlaceholders | 'userId' | 'seenFailures' | 'failedSignIns' | 'passwordHash'>(
  (p) => sql`with counted as (
      update ${consoleUsers} set ${setClause(consoleUsers, { failedSignIns: p('failedSignIns') })}
      where id = ${p('userId')} and failed_sign_ins = ${p('seenFailures')} and locked_until is null and password_hash = ${p('passwordHash')}
      returning id)
    ${auditSelect(p, sql`counted`)} returning ${auditLog.id}`,
);

/** A lock starts: the audit log says so, and the account's owner is told by e-mail (nobody else is). */
export async function accountLocked(app: DomainContext, tx: DbOrTx, user: ConsoleUser, until: Date, from: RequestOrigin, now: Date): Promise<void> {
  await recordAudit(tx, actorOf(user, from), 'account.locked', user.email, now);
  await queueLockedMail(app, tx, { integratorId: user.integratorId, userId: user.id, to: user.email, now, mail: { until: until.toISOString(), ip: from.ip } });
}

/**
 * The second step for an account with TOTP: a right code turns the half-way session into a full
 * one (a new token: the half-way token is spent). A recovery code (anything not all digits) is
 * spent instead of a TOTP code, once. Wrong codes of either kind count towards the same lockout.
 */
export async function completeSecondFactor(app: DomainContext, token: string, code: string, from: RequestOrigin): Promise<SignInOutcome> {
  return app.db.transaction(async (tx): Promise<SignInOutcome> => {
    const now = app.now();
    const [row] = await tx
      .select({ session: consoleSessions, user: consoleUsers })
      .from(consoleSessions)
      .innerJoin(consoleUsers, eq(consoleUsers.id, consoleSessions.userId))
      .where(and(eq(consoleSessions.tokenHash, sha256Hex(token)), eq(consoleSessions.stage, 'password')))
      .for('update');
    const sealedSecret = row?.user.totpSecretEnc;
    if (!row || row.session.expiresAt <= now || !sealedSecret) return { kind: 'refused' };
    const { user } = row;
    if (isLocked(user, now)) {
      await tx.delete(consoleSessions).where(eq(consoleSessions.id, row.session.id));
      await recordAudit(tx, actorOf(user, from), 'sign_in.refused_locked', user.email, now);
      return { kind: 'locked', until: user.lockedUntil! };
    }
    const secret = app.secrets.open(sealedSecret);
    const recovery = looksLikeRecoveryCode(code);
    const step = recovery ? undefined : verifyTotp(secret, code, now, user.totpLastStep);
    const spent = recovery && (await spendRecoveryCode(tx, user, secret, code, now));
    if (step === undefined && !spent) {
      const next = afterFailedSignIn(user, app.config.console, now);
      await tx.update(consoleUsers).set({ failedSignIns: next.failedSignIns, lockedUntil: next.lockedUntil }).where(eq(consoleUsers.id, user.id));
      await recordAudit(tx, actorOf(user, from), 'sign_in.second_factor_failed', user.email, now);
      if (!next.lockedNow) return { kind: 'second-factor', token };
      await tx.delete(consoleSessions).where(eq(consoleSessions.id, row.session.id));
      await accountLocked(app, tx, user, next.lockedUntil!, from, now);
      return { kind: 'locked', until: next.lockedUntil! };
    }
    await tx.delete(consoleSessions).where(eq(consoleSessions.id, row.session.id));
    await tx
      .update(consoleUsers)
      .set({ failedSignIns: 0, lockedUntil: null, lastSignInAt: now, totpLastStep: step ?? user.totpLastStep })
      .where(eq(consoleUsers.id, user.id));
    if (spent) await recordAudit(tx, actorOf(user, from), 'sign_in.recovery_code_used', `${user.email}: ${await recoveryCodesLeft(tx, user.id)} left`, now);
    await recordAudit(tx, actorOf(user, from), 'sign_in.succeeded', user.email, now);
    return { kind: 'signed-in', token: await startSession(app, tx, user, 'complete', from) };
  });
}

/**
 * The signed-in user behind a session token, or undefined when there is none, it is half-way
 * (TOTP not yet given), idle too long or past its absolute lifetime (then it is deleted).
 * Use refreshes the idle clock.
 */
export async function resolveSession(app: DomainContext, token: string | undefined): Promise<ConsoleIdentity | undefined> {
  if (!token || token.length > 100) return undefined;
  const [row] = await app.db
    .select({
      session: consoleSessions,
      user: consoleUsers,
      integratorName: integrators.name,
      suspendedAt: integrators.suspendedAt,
      acquirer: integratorAcquirers.provider,
    })
    .from(consoleSessions)
    .innerJoin(consoleUsers, eq(consoleUsers.id, consoleSessions.userId))
    .innerJoin(integrators, eq(integrators.id, consoleUsers.integratorId))
    // No acquirer row: the sandbox (src/db/schema.ts, integratorAcquirers).
    .leftJoin(integratorAcquirers, eq(integratorAcquirers.integratorId, integrators.id))
    .where(and(eq(consoleSessions.tokenHash, sha256Hex(token)), eq(consoleSessions.stage, 'complete')));
  if (!row) return undefined;
  const now = app.now();
  if (sessionState(row.session, app.config.console, now) !== 'active') {
    await app.db.delete(consoleSessions).where(eq(consoleSessions.id, row.session.id));
    return undefined;
  }
  if (now.getTime() - row.session.lastSeenAt.getTime() >= SESSION_TOUCH_SECONDS * 1000) {
    await app.db.update(consoleSessions).set({ lastSeenAt: now }).where(eq(consoleSessions.id, row.session.id));
  }
  const { id, email, role, integratorId, totpEnabledAt } = row.user;
  return {
    sessionId: row.session.id,
    user: { id, email, role, integratorId, totpEnabledAt },
    integratorName: row.integratorName,
    suspendedAt: row.suspendedAt,
    testMode: (row.acquirer ?? 'sandbox') === 'sandbox',
  };
}

/** Signs out: the session is deleted, so its cookie is worthless even if it was copied. */
export async function signOut(app: DomainContext, identity: ConsoleIdentity, from: RequestOrigin): Promise<void> {
  await app.db.transaction(async (tx) => {
    await tx.delete(consoleSessions).where(eq(consoleSessions.id, identity.sessionId));
    await recordAudit(tx, actorOf(identity.user, from), 'sign_out', identity.user.email, app.now());
  });
}

/** Deletes sessions past their lifetime or idle timeout (run by the workers with the other purges). */
export async function purgeSessions(app: DomainContext): Promise<number> {
  const now = app.now();
  const idleSince = new Date(now.getTime() - app.config.console.idleMinutes * 60_000);
  const gone = await app.db
    .delete(consoleSessions)
    .where(or(lte(consoleSessions.expiresAt, now), lte(consoleSessions.lastSeenAt, idleSince)))
    .returning({ id: consoleSessions.id });
  return gone.length;
}

/** Ends every session of a user but one (after a password change) or all of them. */
export async function endSessionsOf(tx: DbOrTx, userId: string, keepSessionId?: string): Promise<void> {
  await tx.delete(consoleSessions).where(and(eq(consoleSessions.userId, userId), keepSessionId ? sql`${consoleSessions.id} <> ${keepSessionId}` : undefined));
}

/** Who acts, for the audit log, when a signed-in user does something. */
export const identityActor = (identity: ConsoleIdentity, from: RequestOrigin): Actor => actorOf(identity.user, from);

export type SessionView = Pick<ConsoleSession, 'id' | 'createdAt' | 'lastSeenAt' | 'ip' | 'userAgent'> & { current: boolean };

/** The user's signed-in sessions still in use (not idle, not past their lifetime), newest first. */
export async function listSessionsOf(app: DomainContext, identity: ConsoleIdentity): Promise<SessionView[]> {
  const now = app.now();
  const rows = await app.db
    .select()
    .from(consoleSessions)
    .where(and(eq(consoleSessions.userId, identity.user.id), eq(consoleSessions.stage, 'complete')));
  return rows
    .filter((s) => sessionState(s, app.config.console, now) === 'active')
    .sort((a, b) => b.lastSeenAt.getTime() - a.lastSeenAt.getTime())
    .map(({ id, createdAt, lastSeenAt, ip, userAgent }) => ({ id, createdAt, lastSeenAt, ip, userAgent, current: id === identity.sessionId }));
}

/** "Sign out other sessions": every session of the user but this one ends. Returns how many. */
export async function endOtherSessions(app: DomainContext, identity: ConsoleIdentity, from: RequestOrigin): Promise<number> {
  return app.db.transaction(async (tx) => {
    const gone = await tx
      .delete(consoleSessions)
      .where(and(eq(consoleSessions.userId, identity.user.id), sql`${consoleSessions.id} <> ${identity.sessionId}`))
      .returning({ id: consoleSessions.id });
    await recordAudit(tx, actorOf(identity.user, from), 'sessions.ended_others', `${gone.length} session${gone.length === 1 ? '' : 's'}`, app.now());
    return gone.length;
  });
}
