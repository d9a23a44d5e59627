import { readFileSync } from 'node:fs';
import { getTableColumns, getTableName } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from '../../../src/db/schema.ts';

/**
 * Every sealed column (`*_enc`) is opened with the master key, so `rotate-master-key` must re-seal
 * each one: a column it forgets becomes unreadable after a rotation (the link key once was).
 */
describe('master key rotation', () => {
  it('re-seals every sealed column of the schema', () => {
    const rotation = readFileSync(new URL('../../../src/db/master-key.ts', import.meta.url), 'utf8');
    const sealed: string[] = [];
    for (const table of Object.values(schema)) {
      if (!(table instanceof PgTable)) continue;
      for (const [key, column] of Object.entries(getTableColumns(table))) {
        if (column.name.endsWith('_enc')) sealed.push(`${getTableName(table)}.${key}`);
      }
    }
    expect(sealed.length).toBeGreaterThan(5);
    const forgotten = sealed.filter((name) => !rotation.includes(`${name.split('.')[1]}`));
    expect(forgotten).toEqual([]);
  });
});
