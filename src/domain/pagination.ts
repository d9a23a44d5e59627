import { and, asc, desc, eq, getTableName, gte, type InferSelectModel, lt, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client.ts';
import type { PageRequest } from '../schemas/pagination.ts';
import { notFound } from './errors.ts';

/**
 * The one keyset pager behind every list endpoint. Order: `created_at desc, id desc`; a cursor
 * is an object id, compared as the row `(created_at, id)` read in SQL (so microseconds written
 * by `now()` are compared exactly, never through a JavaScript Date), which the
 * `(…, created_at, id)` indexes answer without OFFSET or a sort.
 */
export interface ListSource<T extends PgTable> {
  table: T;
  id: PgColumn;
  createdAt: PgColumn;
  /** Whose objects: e.g. `integrator_id = …`. A cursor outside the scope does not exist. */
  scope: SQL;
  /** The form of an id (e.g. a UUID column): a cursor of another form names nothing, without asking the database. */
  idPattern?: RegExp;
}

export interface Page<Row> {
  items: Row[];
  /** More objects in the direction of travel (older without a cursor or with starting_after; newer with ending_before). */
  hasMore: boolean;
  /** Whether objects older than the last item / newer than the first item exist. */
  olderExists: boolean;
  newerExists: boolean;
}

export async function keysetPage<T extends PgTable>(
  db: DbOrTx,
  source: ListSource<T>,
  filters: Array<SQL | undefined>,
  page: PageRequest,
): Promise<Page<InferSelectModel<T>>> {
  const { id, createdAt } = source;
  const conditions: Array<SQL | undefined> = [source.scope, ...filters];
  if (page.created_gte) conditions.push(gte(createdAt, page.created_gte));
  if (page.created_lt) conditions.push(lt(createdAt, page.created_lt));
  const cursor = page.starting_after ?? page.ending_before;
  const backwards = page.ending_before !== undefined;
  if (cursor !== undefined) {
    const missing = () => notFound(backwards ? 'ending_before' : 'starting_after', `An object with id ${cursor} in this list`);
    if (source.idPattern && !source.idPattern.test(cursor)) throw missing();
    const [found] = await db
      .select({ id })
      .from(source.table as PgTable)
      .where(and(eq(id, cursor), source.scope));
    if (!found) throw missing();
    const cursorCreatedAt = sql`(select ${sql.identifier(createdAt.name)} from ${sql.identifier(getTableName(source.table))} where ${sql.identifier(getTableName(source.table))}.${sql.identifier(id.name)} = ${cursor})`;
    conditions.push(backwards ? sql`(${createdAt}, ${id}) > (${cursorCreatedAt}, ${cursor})` : sql`(${createdAt}, ${id}) < (${cursorCreatedAt}, ${cursor})`);
  }
  const rows = (await db
    .select()
    .from(source.table as PgTable)
    .where(and(...conditions))
    .orderBy(...(backwards ? [asc(createdAt), asc(id)] : [desc(createdAt), desc(id)]))
    .limit(page.limit + 1)) as InferSelectModel<T>[];
  const hasMore = rows.length > page.limit;
  const items = rows.slice(0, page.limit);
  if (backwards) items.reverse();
  return {
    items,
    hasMore,
    olderExists: backwards ? true : hasMore,
    newerExists: backwards ? hasMore : cursor !== undefined,
  };
}
