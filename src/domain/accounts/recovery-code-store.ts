import { and, count, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { consoleRecoveryCodes } from '../../db/schema.ts';
import { newRecoveryCodes, recoveryCodeHasher } from './recovery-codes.ts';

/** Replaces the user's recovery codes with new ones (the old stop working); the new are returned once, never stored. */
export async function storeNewRecoveryCodes(tx: DbOrTx, user: { id: string }, totpSecret: string, now: Date): Promise<string[]> {
  const codes = newRecoveryCodes();
  const hash = recoveryCodeHasher(totpSecret, user.id);
  await tx.delete(consoleRecoveryCodes).where(eq(consoleRecoveryCodes.userId, user.id));
  await tx.insert(consoleRecoveryCodes).values(codes.map((code) => ({ userId: user.id, codeHash: hash(code)!, createdAt: now })));
  return codes;
}

/**
 * Spends one recovery code: true when it was the user's and unused. One conditional UPDATE, so of
 * two uses of the same code at once only one finds it unused (the other waits on the row, then
 * sees it used).
 */
export async function spendRecoveryCode(tx: DbOrTx, user: { id: string }, totpSecret: string, typed: string, now: Date): Promise<boolean> {
  const codeHash = recoveryCodeHasher(totpSecret, user.id)(typed);
  if (codeHash === undefined) return false;
  const spent = await tx
    .update(consoleRecoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(consoleRecoveryCodes.userId, user.id), eq(consoleRecoveryCodes.codeHash, codeHash), isNull(consoleRecoveryCodes.usedAt)))
    .returning({ userId: consoleRecoveryCodes.userId });
  return spent.length === 1;
}

/** How many of the user's recovery codes are still unused. */
export async function recoveryCodesLeft(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(consoleRecoveryCodes)
    .where(and(eq(consoleRecoveryCodes.userId, userId), isNull(consoleRecoveryCodes.usedAt)));
  return Number(row?.n ?? 0);
}

/** Removes every recovery code of the user (TOTP turned off or reset). */
export async function dropRecoveryCodes(tx: DbOrTx, userId: string): Promise<void> {
  await tx.delete(consoleRecoveryCodes).where(eq(consoleRecoveryCodes.userId, userId));
}
