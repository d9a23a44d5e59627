import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { type ConsoleUser, consoleUsers, integrators } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, invalidFields, notFound } from '../errors.ts';
import { type Actor, recordAudit } from './audit.ts';
import { queueSecondFactorResetMail } from './mail.ts';
import { dropRecoveryCodes, recoveryCodesLeft, storeNewRecoveryCodes } from './recovery-code-store.ts';
import { normaliseEmail } from './rules.ts';
import { type ConsoleIdentity, endSessionsOf, type RequestOrigin } from './sessions.ts';
import { actor, assertOwner, confirmIdentity, lockUserOf } from './users.ts';

/**
 * Recovery codes (src/domain/accounts/recovery-codes.ts) and an owner's reset of another user's
 * second factor. Codes are made when TOTP is turned on (users.ts, confirmTotpEnrolment).
 */

/** How many unused recovery codes the signed-in user has (0 without TOTP). */
export const ownRecoveryCodesLeft = (app: DomainContext, identity: ConsoleIdentity) => recoveryCodesLeft(app.db, identity.user.id);

/**
 * New recovery codes for the signed-in user, with their password as proof (a wrong one counts
 * towards the lockout, as for every account change); the old codes stop working. Shown once.
 */
export async function regenerateRecoveryCodes(
  app: DomainContext,
  identity: ConsoleIdentity,
  input: { password: string },
  from: RequestOrigin,
): Promise<string[]> {
  const user = await confirmIdentity(app, identity, { password: input.password, passwordField: 'codes_password' }, from);
  return app.db.transaction(async (tx) => {
    const [current] = await tx.select().from(consoleUsers).where(eq(consoleUsers.id, user.id)).for('update');
    if (!current?.totpEnabledAt || !current.totpSecretEnc) {
      throw new DomainError('ER.01.50', 'Two-step sign-in is off', {
        httpStatus: 409,
        messages: { '(request)': ['Two-step sign-in is off, so there are no recovery codes to replace. Turn it on below: it comes with new codes.'] },
      });
    }
    const now = app.now();
    const codes = await storeNewRecoveryCodes(tx, current, app.secrets.open(current.totpSecretEnc), now);
    await recordAudit(tx, actor(identity, from), 'recovery_codes.regenerated', current.email, now);
    return codes;
  });
}

export const nothingToReset = () =>
  new DomainError('ER.01.51', 'No two-step sign-in to reset', { httpStatus: 409, messages: { user: ['has two-step sign-in off: there is nothing to reset'] } });

/**
 * An owner resets another user's second factor (they lost their phone and their codes): TOTP and
 * recovery codes are removed, every session of theirs ends, and they are told by e-mail who did
 * it. Nobody resets their own this way (recovery codes are for that); so a sole owner's reset is
 * the operator's (`resetSecondFactorByOperator`, docs/console.md).
 */
export async function resetSecondFactor(app: DomainContext, identity: ConsoleIdentity, userId: string, from: RequestOrigin): Promise<{ email: string }> {
  assertOwner(identity);
  return app.db.transaction(async (tx) => {
    const user = await lockUserOf(tx, identity, userId);
    if (user.id === identity.user.id) {
      throw invalidFields({ user: ['you cannot reset your own two-step sign-in: sign in with a recovery code, or ask another owner'] });
    }
    await removeSecondFactor(app, tx, user, actor(identity, from), { integratorName: identity.integratorName, byEmail: identity.user.email });
    return { email: user.email };
  });
}

/** The operator's reset (`npm run admin -- reset-second-factor EMAIL`), for a sole owner who lost their phone and codes. */
export async function resetSecondFactorByOperator(app: DomainContext, email: string, by: Actor): Promise<{ email: string; integratorId: string }> {
  return app.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ user: consoleUsers, integratorName: integrators.name })
      .from(consoleUsers)
      .innerJoin(integrators, eq(integrators.id, consoleUsers.integratorId))
      .where(eq(consoleUsers.email, normaliseEmail(email)))
      .for('update', { of: consoleUsers });
    if (!row) throw notFound('email', 'This console user');
    await removeSecondFactor(app, tx, row.user, { ...by, integratorId: row.user.integratorId }, { integratorName: row.integratorName, byOperator: true });
    return { email: row.user.email, integratorId: row.user.integratorId };
  });
}

async function removeSecondFactor(
  app: DomainContext,
  tx: DbOrTx,
  user: ConsoleUser,
  who: Actor,
  mail: { integratorName: string; byEmail?: string; byOperator?: true },
): Promise<void> {
  if (!user.totpEnabledAt) throw nothingToReset();
  const now = app.now();
  await tx.update(consoleUsers).set({ totpEnabledAt: null, totpSecretEnc: null, totpLastStep: null }).where(eq(consoleUsers.id, user.id));
  await dropRecoveryCodes(tx, user.id);
  await endSessionsOf(tx, user.id);
  await recordAudit(tx, who, 'user.second_factor_reset', user.email, now);
  await queueSecondFactorResetMail(app, tx, {
    integratorId: user.integratorId,
    userId: user.id,
    to: user.email,
    now,
    mail: { ...mail, at: now.toISOString() },
  });
}
