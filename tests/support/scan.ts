import { getTableName, sql, type Table } from 'drizzle-orm';
import type { PaylinkApp } from '../../src/app.ts';
import * as schema from '../../src/db/schema.ts';

/** Every table but the sandbox vault, as text: for asserting that no card data is stored. */
export async function dumpTablesOutsideVault(app: PaylinkApp): Promise<string> {
  const names = (Object.values(schema) as unknown[])
    .filter((v): v is Table => typeof v === 'object' && v !== null && Symbol.for('drizzle:IsDrizzleTable') in v)
    .map((table): string => getTableName(table))
    .filter((name) => name !== getTableName(schema.sandboxVault));
  let out = '';
  for (const name of names) {
    const result = await app.db.execute(sql.raw(`select * from "${name}"`));
    out += `\n## ${name}\n${JSON.stringify((result as unknown as { rows: unknown[] }).rows, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}`;
  }
  return out;
}
