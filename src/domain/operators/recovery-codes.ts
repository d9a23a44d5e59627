import { and, count, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { operatorRecoveryCodes } from '../../db/schema.ts';
import { newRecoveryCodes, recoveryCodeHasher } from '../accounts/recovery-codes.ts';

/**
 * An operator's TOTP recovery codes, with the console's rules and format (src/domain/accounts/
 * recovery-codes.ts): 10 shown once when TOTP is turned on, each spent once by one conditional
 * UPDATE at the code step, stored as HMAC-SHA256 keyed by the operator's sealed TOTP secret.
 */
export async function storeOperatorRecoveryCodes(tx: DbOrTx, operatorId: string, totpSecret: string, now: Date): Promise<string[]> {
  const codes = newRecoveryCodes();
  const hash = recoveryCodeHasher(totpSecret, operatorId);
  await tx.delete(operatorRecoveryCodes).where(eq(operatorRecoveryCodes.operatorId, operatorId));
  await tx.insert(operatorRecoveryCodes).values(codes.map((code) => ({ operatorId, codeHash: hash(code)!, createdAt: now })));
  return codes;
}

export async function spendOperatorRecoveryCode(tx: DbOrTx, operatorId: string, totpSecret: string, typed: string, now: Date): Promise<boolean> {
  const codeHash = recoveryCodeHasher(totpSecret, operatorId)(typed);
  if (codeHash === undefined) return false;
  const spent = await tx
    .update(operatorRecoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(operatorRecoveryCodes.operatorId, operatorId), eq(operatorRecoveryCodes.codeHash, codeHash), isNull(operatorRecoveryCodes.usedAt)))
    .returning({ operatorId: operatorRecoveryCodes.operatorId });
  return spent.length === 1;
}

export async function operatorRecoveryCodesLeft(db: DbOrTx, operatorId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(operatorRecoveryCodes)
    .where(and(eq(operatorRecoveryCodes.operatorId, operatorId), isNull(operatorRecoveryCodes.usedAt)));
  return Number(row?.n ?? 0);
}

export const dropOperatorRecoveryCodes = (tx: DbOrTx, operatorId: string) =>
  tx.delete(operatorRecoveryCodes).where(eq(operatorRecoveryCodes.operatorId, operatorId));
