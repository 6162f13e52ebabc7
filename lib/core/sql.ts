import { sql, type Insertable, type Kysely, type RawBuilder, type Selectable, type Updateable } from 'kysely';
import { JSON_COLUMNS, type DB } from '../generated/kysely';
import { Prisma } from './db';
import { kysely } from './kysely';

export { kysely, sql };
/** The same builder without the table types, for statements whose tables are chosen at run time. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const untyped = kysely as unknown as Kysely<any>;

export type { DB };
export type Table = keyof DB & string;
export type Row<T extends Table> = Selectable<DB[T]>;

/**
 * A platform's time in a statement (lib/core/clock.ts nowFor, in SQL): `alias` names a row with
 * the platform's "clockFrozenAt" and "clockOffsetMs" columns, `wallNow` is the statement's wall
 * clock.
 */
export function platformNow(alias: string, wallNow: Date): Prisma.Sql {
  const p = Prisma.raw(`"${alias}"`);
  return Prisma.sql`(COALESCE(${p}."clockFrozenAt", ${wallNow}::timestamp(3)) + (${p}."clockOffsetMs" * interval '1 millisecond'))`;
}

/** The same in a Kysely statement: `alias` a row with the platform's clock columns. */
export function platformNowOf(alias: string, wallNow: Date) {
  const p = sql.ref(alias);
  return sql<Date>`(COALESCE(${p}."clockFrozenAt", ${wallNow}::timestamp(3)) + (${p}."clockOffsetMs" * interval '1 millisecond'))`;
}

/** A row to insert into a table, written together with the other rows of a statement; typed by its table. */
export type RowWrite = { [T in Table]: { table: T; row: Insertable<DB[T]> } }[Table];

/** The row with its JSON columns as JSON text (bigint as a string), the way runStatement sends them. */
function encodeJson(table: Table, row: Record<string, unknown>): Record<string, unknown> {
  const json = JSON_COLUMNS[table];
  if (!json) return row;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = json.has(k) && v !== null && v !== undefined ? jsonText(v) : v;
  return out;
}
export function jsonText(v: unknown): string {
  return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));
}

/**
 * The INSERTs for rows of several tables: one per table and column set, rows in the order given
 * (so, for example, events keep their order).
 */
export function insertGrouped(writes: readonly RowWrite[]) {
  const groups = new Map<string, RowWrite[]>();
  for (const w of writes) {
    const row = w.row as Record<string, unknown>;
    const key = `${w.table}(${Object.keys(row)
      .filter((k) => row[k] !== undefined)
      .join(',')})`;
    const group = groups.get(key);
    if (group) group.push(w);
    else groups.set(key, [w]);
  }
  return [...groups.values()].map((g) =>
    untyped.insertInto(g[0].table).values(g.map((w) => encodeJson(w.table, w.row as Record<string, unknown>))),
  );
}

/**
 * All these rows in one statement. Foreign keys are checked at the statement's end, so rows may
 * refer to rows inserted beside them.
 */
export function insertAll(writes: readonly RowWrite[]): RawBuilder<unknown> {
  const parts = insertGrouped(writes);
  const last = parts.pop()!;
  if (!parts.length) return sql`${last}`;
  return sql`WITH ${sql.join(
    parts.map((part, i) => sql`${sql.raw(`w${i}`)} AS (${part})`),
    sql`, `,
  )} ${last}`;
}

/** A guard's condition on a column: equal to a value, to one of several values, or null. */
type Condition<V> = V | readonly V[] | null;

/**
 * A conditional change of one row, described rather than written: `where` must hold (a column
 * equal to a value, to one of several values given as an array, or null) and `set` is applied; with no
 * `set` the guard only checks that such a row exists. A payment step carries its guards to the
 * ledger, which renders them into the step's own statement (a required guard must match exactly
 * one row, or nothing of the step is written).
 */
export type Guard = {
  [T in Table]: {
    table: T;
    where: { [C in keyof Row<T>]?: Condition<Row<T>[C]> };
    set?: Updateable<DB[T]>;
    required: boolean;
  };
}[Table];

/** `UPDATE ... RETURNING 1` (or `SELECT 1` for a pure check) of a guard. */
export function guardSql(g: Guard) {
  const where = sql<boolean>`${sql.join(
    Object.entries(g.where as Record<string, unknown>).map(([k, v]) =>
      Array.isArray(v)
        ? sql`${sql.ref(k)} IN (${sql.join(v)})`
        : v === null
          ? sql`${sql.ref(k)} IS NULL`
          : sql`${sql.ref(k)} = ${v}`,
    ),
    sql` AND `,
  )}`;
  const set = g.set ? Object.entries(g.set).filter(([, v]) => v !== undefined) : [];
  return set.length
    ? untyped
        .updateTable(g.table)
        .set(encodeJson(g.table, Object.fromEntries(set)))
        .where(where)
        .returning(sql.lit(1).as('one'))
    : untyped.selectFrom(g.table).select(sql.lit(1).as('one')).where(where);
}

/**
 * `alias."col" AS "prefixcol", ...` for every column of a table, so one read can return rows of
 * several tables side by side, each typed by the driver as its own column (see unprefix).
 */
export function prefixedColumns(alias: string, columns: Record<string, string>, prefix: string): Prisma.Sql {
  return Prisma.raw(
    Object.values(columns)
      .map((c) => `${alias}."${c}" AS "${prefix}${c}"`)
      .join(', '),
  );
}

/**
 * A table's columns as Kysely selections under a prefix (`q.status as q__status`), for a read of
 * several tables whose columns share names; typed by the column names given (a Prisma
 * ScalarFieldEnum), so a column the schema no longer has fails the statement's type check.
 */
export function aliased<A extends string, C extends string>(alias: A, columns: Record<string, C>) {
  return Object.values(columns).map(
    (c) => `${alias}.${c} as ${alias}__${c}` as { [K in C]: `${A}.${K} as ${A}__${K}` }[C],
  );
}

/** The row of one table out of a prefixed read; null when a LEFT JOIN found nothing (no id). */
export function unprefix<T>(row: Record<string, unknown>, columns: Record<string, string>, prefix: string): T | null {
  if (row[`${prefix}id`] === null || row[`${prefix}id`] === undefined) return null;
  const out: Record<string, unknown> = {};
  for (const c of Object.values(columns)) out[c] = row[`${prefix}${c}`];
  return out as T;
}
