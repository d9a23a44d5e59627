import { eq } from 'drizzle-orm';
import { newId } from '../../crypto.ts';
import type { DbOrTx } from '../../db/client.ts';
import { consoleUsers } from '../../db/schema.ts';
import type { SeedUser } from '../../schemas/provisioning.ts';
import type { DomainContext } from '../context.ts';
import { isArgon2idHash, passwordProblems } from './passwords.ts';
import { normaliseEmail } from './rules.ts';
import { endSessionsOf } from './sessions.ts';

/** A seeded user's problem, reported by provisioning with the seed's path. */
export class SeedUserError extends Error {}

/**
 * Creates or updates a seeded console user (by e-mail). The password is set only when the seed's
 * value changed since it was last applied (a keyed fingerprint is kept, never the password), so
 * a password changed in the console survives restarts with the same seed; the role likewise.
 */
export async function upsertSeedUser(app: DomainContext, tx: DbOrTx, integratorId: string, seed: SeedUser): Promise<void> {
  const email = normaliseEmail(seed.email);
  const where = `user ${email}:`;
  if (seed.password !== undefined) {
    const problems = await passwordProblems(seed.password, email);
    if (problems.length > 0) throw new SeedUserError(`${where} password ${problems.join('; ')}`);
  }
  if (seed.password_hash !== undefined && !isArgon2idHash(seed.password_hash)) throw new SeedUserError(`${where} password_hash is not an Argon2id PHC string`);
  const fingerprint = app.consoleMac.sign(`password-seed:${seed.password ?? seed.password_hash}`);
  const passwordHash = async () => seed.password_hash ?? (await app.passwords.hash(seed.password!));
  const now = app.now();
  const [existing] = await tx.select().from(consoleUsers).where(eq(consoleUsers.email, email));
  if (existing && existing.integratorId !== integratorId) throw new SeedUserError(`${where} the e-mail belongs to a user of another integrator`);
  if (!existing) {
    await tx.insert(consoleUsers).values({
      id: newId('usr'),
      integratorId,
      email,
      role: seed.role,
      roleSeed: seed.role,
      passwordHash: await passwordHash(),
      passwordChangedAt: now,
      passwordSeedSha256: fingerprint,
      createdAt: now,
    });
    return;
  }
  // The role, like the password, is set only when the seed's value changed since it last applied
  // it: a role changed in the console (Users) survives restarts with the same seed.
  const update: Partial<typeof consoleUsers.$inferInsert> = existing.roleSeed === seed.role ? {} : { role: seed.role, roleSeed: seed.role };
  if (existing.passwordSeedSha256 !== fingerprint) {
    Object.assign(update, {
      passwordHash: await passwordHash(),
      passwordChangedAt: now,
      passwordSeedSha256: fingerprint,
      inviteTokenHash: null,
      inviteExpiresAt: null,
    });
  }
  if (Object.keys(update).length > 0) await tx.update(consoleUsers).set(update).where(eq(consoleUsers.id, existing.id));
  if (update.passwordHash || (update.role !== undefined && update.role !== existing.role)) await endSessionsOf(tx, existing.id);
}
