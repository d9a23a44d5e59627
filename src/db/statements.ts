import { getTableColumns, is, Placeholder, type SQL, sql } from 'drizzle-orm';
import { type PgColumn, PgDialect, type PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client.ts';

/**
 * Pieces of single-statement writes that Drizzle's builders do not compose (a data-modifying
 * CTE feeding an INSERT … SELECT). Values go through each column's own encoder and are cast to
 * its SQL type, exactly as the builders would send them.
 */
type Values<T extends PgTable> = { [K in keyof T['$inferInsert']]?: T['$inferInsert'][K] | Placeholder };

function columnsOf<T extends PgTable>(table: T, values: Values<T>) {
  const columns = getTableColumns(table);
  return Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([key, value]) => {
      const column = columns[key];
      if (!column) throw new Error(`${key} is not a column of this table`);
      // A value of a statement built once (prepareStatement): its column encodes it on every run.
      if (value instanceof ColumnPlaceholder) {
        value.column = column;
        return { name: column.name, value: sql`${value}::${sql.raw(column.getSQLType())}` };
      }
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
/** Each statement text prepareStatement runs, and its name (the same in every connection). */
const names = new Map<string, string>();
/** Beyond this many texts, a statement runs unnamed: a new text per request would otherwise grow without end. */
const MAX_NAMED = 200;

/** The name a statement text runs under on PostgreSQL (the same in every connection); undefined beyond MAX_NAMED texts. */
function nameFor(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMED) {
    name = `paylink_s${names.size + 1}`;
    names.set(text, name);
  }
  return name;
}

/** A named value of a statement built once; set in a SET or INSERT, it knows its column. */
class ColumnPlaceholder extends Placeholder {
  column: PgColumn | undefined;
}

/**
 * A raw statement built once and run many times (a refund's tx1 and tx2). `build` writes it with
 * a placeholder for each value, `p(name)`, anywhere a value goes; setClause and insertSelect take
 * placeholders too, and remember their columns. Each run then only encodes the values (through the
 * column's encoder, as the builders do: null stays null) and runs the same text, named on
 * PostgreSQL (each connection parses and plans it once). Building the statement with Drizzle on
 * every run costs a refund noticeably (docs/architecture.md, "Measurements behind the code").
 */
export function prepareStatement<K extends string>(build: (p: (name: K) => Placeholder) => SQL) {
  const placeholders = new Map<string, ColumnPlaceholder>();
  const p = (name: K) => {
    let placeholder = placeholders.get(name);
    if (!placeholder) placeholders.set(name, (placeholder = new ColumnPlaceholder(name)));
    return placeholder;
  };
  const query = dialect.sqlToQuery(build(p));
  for (const param of query.params) {
    if (!is(param, Placeholder)) throw new Error('prepareStatement: every value must be a placeholder, or the statement would keep the first run’s values');
  }
  const prepared = new WeakMap<object, ReturnType<DbOrTx['_']['session']['prepareQuery']>>();
  return {
    text: query.sql,
    execute(db: DbOrTx, values: Record<K, unknown>): Promise<unknown> {
      // A value without a place would be dropped without a word (a column added to a row but not to the statement).
      for (const name of Object.keys(values)) if (!placeholders.has(name)) throw new Error(`prepareStatement: ${name} has no place in the statement`);
      const encoded: Record<string, unknown> = {};
      for (const [name, placeholder] of placeholders) {
        const value = values[name as K];
        if (value === undefined) throw new Error(`prepareStatement: no value for ${name}`);
        encoded[name] = value === null || !placeholder.column ? value : placeholder.column.mapToDriverValue(value);
      }
      let statement = prepared.get(db);
      if (!statement) prepared.set(db, (statement = db._.session.prepareQuery(query, undefined, nameFor(query.sql), false)));
      return statement.execute(encoded);
    },
  };
}

/** `row`'s values under `prefix` + their keys: the names a statement built by prepareStatement gave their placeholders. */
export const prefixed = (prefix: string, row: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(row).map(([key, value]) => [`${prefix}${key}`, value]));

/** Each table's quoted name, columns (JS key, column) in the table's order, and RETURNING list; checked once. */
const shapes = new WeakMap<PgTable, { name: string; columns: Array<[string, PgColumn]>; returning: string }>();
function shapeOf(table: PgTable) {
  let shape = shapes.get(table);
  if (!shape) {
    const columns = Object.entries(getTableColumns(table)) as Array<[string, PgColumn]>;
    for (const [, column] of columns) {
      if (column.defaultFn || column.onUpdateFn) throw new Error(`insertRows: ${column.name} has a default computed in JavaScript; use Drizzle's insert`);
    }
    const name = dialect.sqlToQuery(sql`${table}`).sql;
    shape = { name, columns, returning: columns.map(([, c]) => dialect.escapeName(c.name)).join(', ') };
    shapes.set(table, shape);
  }
  return shape;
}

/**
 * `insert into table (…) values (…), (…) [on conflict (…) do nothing] returning *` for the
 * scheduler's batches, built in one loop: every value through its column's own encoder, as
 * Drizzle's builder sends it (a column a row leaves out gets its default), and every returned row
 * decoded by its columns, as `.returning()` gives it (`returning: false`: none, and [] is returned).
 * Drizzle's builder checks the type of every piece of a statement as it walks it, which for a batch
 * of payments and their events dominates the scheduler's CPU (docs/architecture.md, "Measurements
 * behind the code"). Rows come back in no particular order.
 */
export async function insertRows<T extends PgTable>(
  db: DbOrTx,
  table: T,
  rows: ReadonlyArray<T['$inferInsert']>,
  opts: { onConflictDoNothing?: PgColumn[]; returning?: boolean } = {},
): Promise<Array<T['$inferSelect']>> {
  if (rows.length === 0) return [];
  const shape = shapeOf(table);
  const used = shape.columns.filter(([key]) => rows.some((row) => (row as Record<string, unknown>)[key] !== undefined));
  const params: unknown[] = [];
  const tuples = rows.map((row) => {
    const values = used.map(([key, column]) => {
      const value = (row as Record<string, unknown>)[key];
      if (value === undefined) return 'default';
      params.push(value === null ? null : column.mapToDriverValue(value));
      return `$${params.length}`;
    });
    return `(${values.join(', ')})`;
  });
  const conflict = opts.onConflictDoNothing ? ` on conflict (${opts.onConflictDoNothing.map((c) => dialect.escapeName(c.name)).join(', ')}) do nothing` : '';
  const returning = opts.returning === false ? '' : ` returning ${shape.returning}`;
  const text = `insert into ${shape.name} (${used.map(([, c]) => dialect.escapeName(c.name)).join(', ')}) values ${tuples.join(', ')}${conflict}${returning}`;
  const result = await db._.session.prepareQuery({ sql: text, params }, undefined, undefined, false).execute();
  if (!returning) return [];
  return rowsOf<Record<string, unknown>>(result).map((raw) => {
    const row: Record<string, unknown> = {};
    for (const [key, column] of shape.columns) {
      const value = raw[column.name];
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return row as T['$inferSelect'];
  });
}
