import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import { PgDialect, type PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client.ts';

/**
 * Pieces of single-statement writes that Drizzle's builders do not compose (a data-modifying
 * CTE feeding an INSERT … SELECT). Values go through each column's own encoder and are cast to
 * its SQL type, exactly as the builders would send them.
 */
type Values<T extends PgTable> = Partial<T['$inferInsert']>;

function columnsOf<T extends PgTable>(table: T, values: Values<T>) {
  const columns = getTableColumns(table);
  return Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([key, value]) => {
      const column = columns[key];
      if (!column) throw new Error(`${key} is not a column of this table`);
      return { name: column.name, value: sql`${sql.param(value, column)}::${sql.raw(column.getSQLType())}` };
    });
}

/** `col = value, …` for an UPDATE's SET (unqualified names, as SET requires). */
export function setClause<T extends PgTable>(table: T, values: Values<T>): SQL {
  return sql.join(
    columnsOf(table, values).map((c) => sql`${sql.identifier(c.name)} = ${c.value}`),
    sql`, `,
  );
}

/** `insert into table (cols) select values from <from>`: one row for each row of `from`. */
export function insertSelect<T extends PgTable>(table: T, values: Values<T>, from: SQL): SQL {
  const cols = columnsOf(table, values);
  return sql`insert into ${table} (${sql.join(
    cols.map((c) => sql.identifier(c.name)),
    sql`, `,
  )}) select ${sql.join(
    cols.map((c) => c.value),
    sql`, `,
  )} from ${from}`;
}

/** The rows a raw statement returned, for both drivers. */
export const rowsOf = <R>(result: unknown): R[] => (result as { rows: R[] }).rows;

const dialect = new PgDialect();
/** Each statement text run by executeNamed, and its name (the same in every connection). */
const names = new Map<string, string>();
/** Beyond this many texts, a statement runs unnamed: a new text per request would otherwise grow without end. */
const MAX_NAMED = 200;

/**
 * Runs a raw statement as a prepared statement named after its text, for the hot single-statement
 * writes (a refund's tx1 and tx2). On PostgreSQL each connection then parses and plans it once, not on
 * every request: 300 -> 175 µs of the server's CPU for a refund's tx1, measured on this machine. PGlite
 * runs it as db.execute does. The result is the driver's, as from db.execute.
 */
export function executeNamed(db: DbOrTx, query: SQL): Promise<unknown> {
  const built = dialect.sqlToQuery(query);
  let name = names.get(built.sql);
  if (name === undefined && names.size < MAX_NAMED) {
    name = `paylink_s${names.size + 1}`;
    names.set(built.sql, name);
  }
  return db._.session.prepareQuery(built, undefined, name, false).execute();
}
