import { and, count, eq, gt, isNull, lte, or } from 'drizzle-orm';
import { newId, newUrlToken, sha256Hex } from '../../crypto.ts';
import type { DbOrTx } from '../../db/client.ts';
import { type Operator, type OperatorSession, operatorSessions, operatorSetupTokens, operators } from '../../db/schema.ts';
import { EMAIL_MESSAGE, isEmailAddress } from '../../schemas/email-rules.ts';
import { queueOperatorLockedMail } from '../accounts/mail.ts';
import { generatePassword, passwordProblems } from '../accounts/passwords.ts';
import { looksLikeRecoveryCode } from '../accounts/recovery-codes.ts';
import { afterFailedSignIn, isLocked, normaliseEmail, SESSION_TOUCH_SECONDS, secondFactorExpiry, sessionExpiry, sessionState } from '../accounts/rules.ts';
import type { RequestOrigin } from '../accounts/sessions.ts';
import { verifyTotp } from '../accounts/totp.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, invalidFields } from '../errors.ts';
import { type OperatorActor, recordOperatorAudit } from './audit.ts';
import { operatorRecoveryCodesLeft, spendOperatorRecoveryCode } from './recovery-codes.ts';

/**
 * Operator accounts: made only through a one-time setup link (the start banner's while there is
 * no operator, or `npm run admin -- create-operator EMAIL`'s), then signed in at /operator with
 * the console's rules: Argon2id off the event loop behind the same bounded queue, the same
 * lockout and session lifetimes (PAYLINK_CONSOLE_*), TOTP when the operator turned it on.
 */

/** How long a setup link works. */
export const SETUP_LINK_HOURS = 24;

export interface OperatorIdentity {
  sessionId: string;
  operator: Pick<Operator, 'id' | 'email' | 'totpEnabledAt'>;
}

export const operatorActor = (operator: Pick<Operator, 'id' | 'email'>, from: RequestOrigin): OperatorActor => ({
  id: operator.id,
  email: operator.email,
  ...from,
});
export const identityOperatorActor = (identity: OperatorIdentity, from: RequestOrigin) => operatorActor(identity.operator, from);

/** Where an entry made without a browser comes from: the start banner, the admin command, the demo. */
const local = (via: 'start' | 'shell' | 'demo'): RequestOrigin => ({ ip: null, userAgent: `paylink ${via}` });

/** A lock starts: the operator audit log says so, and the operator is told by e-mail (the console users' mail queue). */
export async function operatorLocked(
  app: DomainContext,
  tx: DbOrTx,
  actor: OperatorActor,
  operator: Pick<Operator, 'id' | 'email'>,
  until: Date,
  now: Date,
): Promise<void> {
  await recordOperatorAudit(tx, actor, 'account.locked', { target: `until ${until.toISOString()}` }, now);
  await queueOperatorLockedMail(app, tx, { operatorId: operator.id, to: operator.email, now, mail: { until: until.toISOString(), ip: actor.ip } });
}

export const setupUrl = (app: DomainContext, token: string) => `${app.origin()}/operator/setup/${token}`;

/**
 * Issues a one-time setup link. Without `email` (the start banner) it is good only while no
 * operator exists, and none is issued once one does; with one (the shell) it makes that
 * address's account, refused when it already has one.
 */
export async function issueSetupLink(
  app: DomainContext,
  opts: { email?: string; via?: 'start' | 'shell' } = {},
): Promise<{ url: string; token: string; expiresAt: Date } | undefined> {
  const email = opts.email === undefined ? null : normaliseEmail(opts.email);
  if (email !== null && !isEmailAddress(email)) throw invalidFields({ email: [EMAIL_MESSAGE] });
  const token = newUrlToken();
  const now = app.now();
  const expiresAt = new Date(now.getTime() + SETUP_LINK_HOURS * 3_600_000);
  const issued = await app.db.transaction(async (tx) => {
    if (email === null) {
      const [row] = await tx.select({ n: count() }).from(operators);
      if ((row?.n ?? 0) > 0) return false;
    } else {
      const [taken] = await tx.select({ id: operators.id }).from(operators).where(eq(operators.email, email));
      if (taken) throw invalidFields({ email: ['already has an operator account'] });
    }
    await tx.insert(operatorSetupTokens).values({ tokenHash: sha256Hex(token), email, expiresAt, createdAt: now });
    await recordOperatorAudit(
      tx,
      { id: null, email, ...local(opts.via ?? (email === null ? 'start' : 'shell')) },
      'setup_link.issued',
      { target: email ?? 'first operator (start banner)' },
      now,
    );
    return true;
  });
  return issued ? { url: setupUrl(app, token), token, expiresAt } : undefined;
}

/** The setup link behind a token while it is usable: not used, not expired, and (banner links) no operator yet. */
export async function findSetupLink(app: DomainContext, token: string): Promise<{ email: string | null } | undefined> {
  if (!token || token.length > 100) return undefined;
  return usableSetupLink(app.db, token, app.now());
}

async function usableSetupLink(tx: DbOrTx, token: string, now: Date) {
  const [row] = await tx
    .select({ email: operatorSetupTokens.email })
    .from(operatorSetupTokens)
    .where(and(eq(operatorSetupTokens.tokenHash, sha256Hex(token)), isNull(operatorSetupTokens.usedAt), gt(operatorSetupTokens.expiresAt, now)));
  if (!row) return undefined;
  if (row.email === null) {
    const [existing] = await tx.select({ n: count() }).from(operators);
    if ((existing?.n ?? 0) > 0) return undefined;
  }
  return row;
}

const setupGone = () =>
  new DomainError('ER.05.00', 'Setup link not usable', {
    httpStatus: 404,
    messages: { '(request)': ['This setup link was used already, has expired or never existed. Ask for a new one: npm run admin -- create-operator EMAIL.'] },
  });

/** Uses a setup link: the operator account is made with the chosen password, and the link is spent. */
export async function completeSetup(
  app: DomainContext,
  token: string,
  input: { email: string; password: string; confirm: string },
  from: RequestOrigin,
): Promise<{ email: string }> {
  const link = await findSetupLink(app, token);
  if (!link) throw setupGone();
  const email = normaliseEmail(link.email ?? input.email);
  if (!isEmailAddress(email)) throw invalidFields({ email: [EMAIL_MESSAGE] });
  const problems = await passwordProblems(input.password, email);
  if (problems.length > 0) throw invalidFields({ password: problems });
  if (input.password !== input.confirm) throw invalidFields({ confirm: ['does not match the password'] });
  const hash = await app.passwords.hash(input.password);
  return app.db.transaction(async (tx) => {
    const now = app.now();
    // Spent first, under its row lock: two uses of one link at once make one account.
    const spent = await tx
      .update(operatorSetupTokens)
      .set({ usedAt: now })
      .where(and(eq(operatorSetupTokens.tokenHash, sha256Hex(token)), isNull(operatorSetupTokens.usedAt), gt(operatorSetupTokens.expiresAt, now)))
      .returning({ email: operatorSetupTokens.email });
    if (spent.length === 0) throw setupGone();
    if (link.email === null) {
      const [existing] = await tx.select({ n: count() }).from(operators);
      if ((existing?.n ?? 0) > 0) throw setupGone();
    }
    const [taken] = await tx.select({ id: operators.id }).from(operators).where(eq(operators.email, email));
    if (taken) throw invalidFields({ email: ['already has an operator account'] });
    const id = newId('opr');
    await tx.insert(operators).values({ id, email, passwordHash: hash, passwordChangedAt: now, createdAt: now });
    await recordOperatorAudit(tx, operatorActor({ id, email }, from), 'operator.created', { target: email }, now);
    return { email };
  });
}

/** The demo's operator sign-in, written to demo-credentials.json with the rest of the demo. */
export interface DemoOperator {
  operator_url: string;
  operator_email: string;
  operator_password: string;
}

/** The demo's operator (src/domain/integrators/provisioning.ts): made only when there is no operator at all. */
export async function demoOperator(app: DomainContext): Promise<DemoOperator | undefined> {
  const email = 'operator@paylink.localhost';
  const password = generatePassword();
  const made = await createOperatorIfNone(app, email, password);
  return made ? { operator_url: `${app.origin()}/operator`, operator_email: email, operator_password: password } : undefined;
}

async function createOperatorIfNone(app: DomainContext, email: string, password: string): Promise<boolean> {
  const hash = await app.passwords.hash(password);
  return app.db.transaction(async (tx) => {
    const [existing] = await tx.select({ n: count() }).from(operators);
    if ((existing?.n ?? 0) > 0) return false;
    const now = app.now();
    const id = newId('opr');
    await tx.insert(operators).values({ id, email, passwordHash: hash, passwordChangedAt: now, createdAt: now });
    await recordOperatorAudit(tx, { id, email, ...local('demo') }, 'operator.created', { target: `${email} (demo)` }, now);
    return true;
  });
}

export type OperatorSignInOutcome =
  | { kind: 'signed-in'; token: string }
  | { kind: 'second-factor'; token: string }
  | { kind: 'refused' }
  | { kind: 'locked'; until: Date };

async function startSession(app: DomainContext, tx: DbOrTx, operator: Operator, stage: OperatorSession['stage'], from: RequestOrigin): Promise<string> {
  const now = app.now();
  const token = newUrlToken();
  await tx.insert(operatorSessions).values({
    id: newId('ops'),
    tokenHash: sha256Hex(token),
    operatorId: operator.id,
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
 * E-mail and password, as the console's sign-in (src/domain/accounts/sessions.ts): every refusal
 * looks the same and costs one Argon2 verification; wrong passwords count towards the lockout.
 */
export async function operatorSignIn(app: DomainContext, input: { email: string; password: string }, from: RequestOrigin): Promise<OperatorSignInOutcome> {
  app.passwords.assertRoom();
  const email = normaliseEmail(input.email);
  const [operator] = await app.db.select().from(operators).where(eq(operators.email, email));
  const checkable = operator && !isLocked(operator, app.now()) ? operator.passwordHash : undefined;
  const valid = checkable ? await app.passwords.verify(input.password, checkable) : await app.passwords.verifyNothing(input.password);
  if (!operator) {
    await recordOperatorAudit(app.db, { id: null, email, ...from }, 'sign_in.failed', { target: 'unknown e-mail' }, app.now());
    return { kind: 'refused' };
  }
  return app.db.transaction(async (tx): Promise<OperatorSignInOutcome> => {
    const [current] = await tx.select().from(operators).where(eq(operators.id, operator.id)).for('update');
    if (!current) return { kind: 'refused' };
    const now = app.now();
    const actor = operatorActor(current, from);
    if (isLocked(current, now)) {
      await recordOperatorAudit(tx, actor, 'sign_in.refused_locked', { target: current.email }, now);
      return { kind: 'refused' };
    }
    if (!valid || current.passwordHash !== checkable) {
      const next = afterFailedSignIn(current, app.config.console, now);
      await tx.update(operators).set({ failedSignIns: next.failedSignIns, lockedUntil: next.lockedUntil }).where(eq(operators.id, current.id));
      await recordOperatorAudit(tx, actor, 'sign_in.failed', { target: current.email }, now);
      if (next.lockedNow) await operatorLocked(app, tx, actor, current, next.lockedUntil!, now);
      return { kind: 'refused' };
    }
    if (current.totpEnabledAt) return { kind: 'second-factor', token: await startSession(app, tx, current, 'password', from) };
    await tx.update(operators).set({ failedSignIns: 0, lockedUntil: null, lastSignInAt: now }).where(eq(operators.id, current.id));
    await recordOperatorAudit(tx, actor, 'sign_in.succeeded', { target: current.email }, now);
    return { kind: 'signed-in', token: await startSession(app, tx, current, 'complete', from) };
  });
}

/**
 * The TOTP step: a right code turns the half-way session into a full one (a new token); a recovery
 * code (anything not all digits) is spent instead, once; wrong codes of either kind count towards the lockout.
 */
export async function operatorSecondFactor(app: DomainContext, token: string, code: string, from: RequestOrigin): Promise<OperatorSignInOutcome> {
  return app.db.transaction(async (tx): Promise<OperatorSignInOutcome> => {
    const now = app.now();
    const [row] = await tx
      .select({ session: operatorSessions, operator: operators })
      .from(operatorSessions)
      .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
      .where(and(eq(operatorSessions.tokenHash, sha256Hex(token)), eq(operatorSessions.stage, 'password')))
      .for('update');
    const sealed = row?.operator.totpSecretEnc;
    if (!row || row.session.expiresAt <= now || !sealed) return { kind: 'refused' };
    const { operator } = row;
    const actor = operatorActor(operator, from);
    if (isLocked(operator, now)) {
      await tx.delete(operatorSessions).where(eq(operatorSessions.id, row.session.id));
      await recordOperatorAudit(tx, actor, 'sign_in.refused_locked', { target: operator.email }, now);
      return { kind: 'locked', until: operator.lockedUntil! };
    }
    const secret = app.secrets.open(sealed);
    const recovery = looksLikeRecoveryCode(code);
    const step = recovery ? undefined : verifyTotp(secret, code, now, operator.totpLastStep);
    const spent = recovery && (await spendOperatorRecoveryCode(tx, operator.id, secret, code, now));
    if (step === undefined && !spent) {
      const next = afterFailedSignIn(operator, app.config.console, now);
      await tx.update(operators).set({ failedSignIns: next.failedSignIns, lockedUntil: next.lockedUntil }).where(eq(operators.id, operator.id));
      await recordOperatorAudit(tx, actor, 'sign_in.second_factor_failed', { target: operator.email }, now);
      if (!next.lockedNow) return { kind: 'second-factor', token };
      await tx.delete(operatorSessions).where(eq(operatorSessions.id, row.session.id));
      await operatorLocked(app, tx, actor, operator, next.lockedUntil!, now);
      return { kind: 'locked', until: next.lockedUntil! };
    }
    await tx.delete(operatorSessions).where(eq(operatorSessions.id, row.session.id));
    await tx
      .update(operators)
      .set({ failedSignIns: 0, lockedUntil: null, lastSignInAt: now, totpLastStep: step ?? operator.totpLastStep })
      .where(eq(operators.id, operator.id));
    if (spent) {
      const left = await operatorRecoveryCodesLeft(tx, operator.id);
      await recordOperatorAudit(tx, actor, 'sign_in.recovery_code_used', { target: `${operator.email}: ${left} left` }, now);
    }
    await recordOperatorAudit(tx, actor, 'sign_in.succeeded', { target: operator.email }, now);
    return { kind: 'signed-in', token: await startSession(app, tx, operator, 'complete', from) };
  });
}

/** The signed-in operator behind a session token, or undefined (none, half-way, idle, expired: then deleted). */
export async function resolveOperatorSession(app: DomainContext, token: string | undefined): Promise<OperatorIdentity | undefined> {
  if (!token || token.length > 100) return undefined;
  const [row] = await app.db
    .select({ session: operatorSessions, operator: operators })
    .from(operatorSessions)
    .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
    .where(and(eq(operatorSessions.tokenHash, sha256Hex(token)), eq(operatorSessions.stage, 'complete')));
  if (!row) return undefined;
  const now = app.now();
  if (sessionState(row.session, app.config.console, now) !== 'active') {
    await app.db.delete(operatorSessions).where(eq(operatorSessions.id, row.session.id));
    return undefined;
  }
  if (now.getTime() - row.session.lastSeenAt.getTime() >= SESSION_TOUCH_SECONDS * 1000) {
    await app.db.update(operatorSessions).set({ lastSeenAt: now }).where(eq(operatorSessions.id, row.session.id));
  }
  const { id, email, totpEnabledAt } = row.operator;
  return { sessionId: row.session.id, operator: { id, email, totpEnabledAt } };
}

export async function operatorSignOut(app: DomainContext, identity: OperatorIdentity, from: RequestOrigin): Promise<void> {
  await app.db.transaction(async (tx) => {
    await tx.delete(operatorSessions).where(eq(operatorSessions.id, identity.sessionId));
    await recordOperatorAudit(tx, identityOperatorActor(identity, from), 'sign_out', { target: identity.operator.email }, app.now());
  });
}

/** Deletes operator sessions past their lifetime or idle timeout (with the console's purge). */
export async function purgeOperatorSessions(app: DomainContext): Promise<number> {
  const now = app.now();
  const idleSince = new Date(now.getTime() - app.config.console.idleMinutes * 60_000);
  const gone = await app.db
    .delete(operatorSessions)
    .where(or(lte(operatorSessions.expiresAt, now), lte(operatorSessions.lastSeenAt, idleSince)))
    .returning({ id: operatorSessions.id });
  return gone.length;
}
