import { and, eq, sql } from 'drizzle-orm';
import { type Operator, operatorSessions, operators } from '../../db/schema.ts';
import { assertNewPassword, type IdentityProof, proofRefusal } from '../accounts/proof.ts';
import { afterFailedSignIn, isLocked } from '../accounts/rules.ts';
import type { RequestOrigin } from '../accounts/sessions.ts';
import { enrolmentView, newTotpSecret, verifyTotp } from '../accounts/totp.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, invalidFields } from '../errors.ts';
import { identityOperatorActor, type OperatorIdentity, operatorLocked } from './accounts.ts';
import { recordOperatorAudit } from './audit.ts';
import { dropOperatorRecoveryCodes, operatorRecoveryCodesLeft, storeOperatorRecoveryCodes } from './recovery-codes.ts';

/**
 * The signed-in operator's own account (/operator/account): password change and two-step sign-in
 * (TOTP), with the merchant console's rules (src/domain/accounts/users.ts): the current password
 * (and a code) is asked again, and wrong ones count towards the same lockout; the attempt that
 * locks the account ends every session of it.
 */
async function confirmOperator(app: DomainContext, identity: OperatorIdentity, proof: IdentityProof, from: RequestOrigin): Promise<Operator> {
  app.passwords.assertRoom();
  const [before] = await app.db.select().from(operators).where(eq(operators.id, identity.operator.id));
  if (!before) throw invalidFields({ [proof.passwordField]: ['your account no longer exists'] });
  const checkable = isLocked(before, app.now()) ? undefined : before.passwordHash;
  const passwordRight = checkable ? await app.passwords.verify(proof.password, checkable) : await app.passwords.verifyNothing(proof.password);
  const outcome = await app.db.transaction(async (tx) => {
    const [operator] = await tx.select().from(operators).where(eq(operators.id, identity.operator.id)).for('update');
    const now = app.now();
    if (!operator || isLocked(operator, now)) return { kind: 'locked' as const, until: operator?.lockedUntil ?? now };
    const codeRight =
      proof.code === undefined ||
      (operator.totpSecretEnc !== null && verifyTotp(app.secrets.open(operator.totpSecretEnc), proof.code, now, operator.totpLastStep) !== undefined);
    if (passwordRight && operator.passwordHash === checkable && codeRight) {
      if (operator.failedSignIns > 0) await tx.update(operators).set({ failedSignIns: 0 }).where(eq(operators.id, operator.id));
      return { kind: 'confirmed' as const, operator };
    }
    const next = afterFailedSignIn(operator, app.config.console, now);
    await tx.update(operators).set({ failedSignIns: next.failedSignIns, lockedUntil: next.lockedUntil }).where(eq(operators.id, operator.id));
    const actor = identityOperatorActor(identity, from);
    await recordOperatorAudit(tx, actor, 'account.check_failed', { target: `${operator.email}: ${passwordRight ? 'code' : 'password'}` }, now);
    if (next.lockedNow) {
      await tx.delete(operatorSessions).where(eq(operatorSessions.operatorId, operator.id));
      await operatorLocked(app, tx, actor, operator, next.lockedUntil!, now);
      return { kind: 'locked' as const, until: next.lockedUntil! };
    }
    return { kind: 'wrong' as const, passwordRight };
  });
  if (outcome.kind === 'confirmed') return outcome.operator;
  throw proofRefusal(outcome, proof);
}

/** A new password with the current one; the operator's other sessions end. */
export async function changeOperatorPassword(
  app: DomainContext,
  identity: OperatorIdentity,
  input: { current: string; password: string; confirm: string },
  from: RequestOrigin,
): Promise<void> {
  await assertNewPassword(input, identity.operator.email);
  const operator = await confirmOperator(app, identity, { password: input.current, passwordField: 'current' }, from);
  const hash = await app.passwords.hash(input.password);
  await app.db.transaction(async (tx) => {
    const now = app.now();
    await tx.update(operators).set({ passwordHash: hash, passwordChangedAt: now }).where(eq(operators.id, operator.id));
    await tx.delete(operatorSessions).where(and(eq(operatorSessions.operatorId, operator.id), sql`${operatorSessions.id} <> ${identity.sessionId}`));
    await recordOperatorAudit(tx, identityOperatorActor(identity, from), 'password.changed', { target: operator.email }, now);
  });
}

/** TOTP enrolment, step one: a new secret (sealed), not used at sign-in until a code confirms it. */
export async function startOperatorTotp(app: DomainContext, identity: OperatorIdentity): Promise<{ secret: string; uri: string; svg: string }> {
  if (identity.operator.totpEnabledAt) throw invalidFields({ code: ['two-step sign-in is already on'] });
  const secret = newTotpSecret();
  await app.db
    .update(operators)
    .set({ totpSecretEnc: app.secrets.seal(secret), totpLastStep: null })
    .where(eq(operators.id, identity.operator.id));
  return { secret, ...(await enrolmentView(secret, `operator ${identity.operator.email}`)) };
}

/** The pending enrolment again (after a wrong code), or undefined. */
export async function pendingOperatorTotp(app: DomainContext, identity: OperatorIdentity) {
  const [operator] = await app.db.select().from(operators).where(eq(operators.id, identity.operator.id));
  if (!operator?.totpSecretEnc || operator.totpEnabledAt) return undefined;
  const secret = app.secrets.open(operator.totpSecretEnc);
  return { secret, ...(await enrolmentView(secret, `operator ${operator.email}`)) };
}

/** Step two: a valid code turns TOTP on. Returns the recovery codes, shown once. */
export async function confirmOperatorTotp(app: DomainContext, identity: OperatorIdentity, input: { code: string }, from: RequestOrigin): Promise<string[]> {
  return app.db.transaction(async (tx) => {
    const [operator] = await tx.select().from(operators).where(eq(operators.id, identity.operator.id)).for('update');
    if (!operator?.totpSecretEnc || operator.totpEnabledAt) throw invalidFields({ code: ['start the set-up again'] });
    const now = app.now();
    const secret = app.secrets.open(operator.totpSecretEnc);
    const step = verifyTotp(secret, input.code, now, operator.totpLastStep);
    if (step === undefined) throw invalidFields({ code: ['is not the current code from your authenticator app'] });
    await tx.update(operators).set({ totpEnabledAt: now, totpLastStep: step }).where(eq(operators.id, operator.id));
    await recordOperatorAudit(tx, identityOperatorActor(identity, from), 'totp.enabled', { target: operator.email }, now);
    return storeOperatorRecoveryCodes(tx, operator.id, secret, now);
  });
}

/** Turns TOTP off with the password and a current code; wrong ones count towards the lockout. */
export async function disableOperatorTotp(app: DomainContext, identity: OperatorIdentity, input: { password: string; code: string }, from: RequestOrigin) {
  const operator = await confirmOperator(
    app,
    identity,
    { password: input.password, passwordField: 'totp_password', code: input.code, codeField: 'totp_code' },
    from,
  );
  await app.db.transaction(async (tx) => {
    await tx.update(operators).set({ totpEnabledAt: null, totpSecretEnc: null, totpLastStep: null }).where(eq(operators.id, operator.id));
    await dropOperatorRecoveryCodes(tx, operator.id);
    await recordOperatorAudit(tx, identityOperatorActor(identity, from), 'totp.disabled', { target: operator.email }, app.now());
  });
}

/** New recovery codes with the password as proof (a wrong one counts towards the lockout); the old ones stop working. */
export async function regenerateOperatorRecoveryCodes(
  app: DomainContext,
  identity: OperatorIdentity,
  input: { password: string },
  from: RequestOrigin,
): Promise<string[]> {
  await confirmOperator(app, identity, { password: input.password, passwordField: 'codes_password' }, from);
  return app.db.transaction(async (tx) => {
    const [operator] = await tx.select().from(operators).where(eq(operators.id, identity.operator.id)).for('update');
    if (!operator?.totpEnabledAt || !operator.totpSecretEnc) {
      throw new DomainError('ER.01.50', 'Two-step sign-in is off', {
        httpStatus: 409,
        messages: { '(request)': ['Two-step sign-in is off, so there are no recovery codes to replace. Turn it on below: it comes with new codes.'] },
      });
    }
    const now = app.now();
    const codes = await storeOperatorRecoveryCodes(tx, operator.id, app.secrets.open(operator.totpSecretEnc), now);
    await recordOperatorAudit(tx, identityOperatorActor(identity, from), 'recovery_codes.regenerated', { target: operator.email }, now);
    return codes;
  });
}

/** How many unused recovery codes the signed-in operator has. */
export const ownOperatorRecoveryCodesLeft = (app: DomainContext, identity: OperatorIdentity) => operatorRecoveryCodesLeft(app.db, identity.operator.id);
