import { Prisma } from './db';

// Building blocks for the few hot paths written as single raw statements (a whole quote, a whole
// execution step): one round trip instead of one per row, through the same Prisma client.
// Values are cast by their JavaScript type so PostgreSQL never has to guess.
export function value(v: unknown): Prisma.Sql {
  if (v === null || v === undefined) return Prisma.sql`NULL`;
  if (v instanceof Date) return Prisma.sql`${v}::timestamp(3)`;
  if (typeof v === 'bigint') return Prisma.sql`${v}::bigint`;
  if (typeof v === 'boolean') return Prisma.sql`${v}::boolean`;
  if (typeof v === 'number')
    return Number.isInteger(v) ? Prisma.sql`${v}::integer` : Prisma.sql`${v}::double precision`;
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) {
    return v.length ? Prisma.sql`ARRAY[${Prisma.join(v as string[])}]::text[]` : Prisma.sql`'{}'::text[]`;
  }
  if (typeof v === 'object')
    return Prisma.sql`${JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x))}::jsonb`;
  return Prisma.sql`${v}`;
}

/**
 * A platform's time in a statement (lib/core/clock.ts nowFor, in SQL): `alias` names a row with
 * the platform's "clockFrozenAt" and "clockOffsetMs" columns, `wallNow` is the statement's wall
 * clock.
 */
export function platformNow(alias: string, wallNow: Date): Prisma.Sql {
  const p = Prisma.raw(`"${alias}"`);
  return Prisma.sql`(COALESCE(${p}."clockFrozenAt", ${wallNow}::timestamp(3)) + (${p}."clockOffsetMs" * interval '1 millisecond'))`;
}

/** Several rows of one table in one INSERT; all rows must have the same fields. */
export function insertRows(table: string, rows: Record<string, unknown>[]): Prisma.Sql {
  const keys = Object.keys(rows[0]).filter((k) => rows[0][k] !== undefined);
  const cols = Prisma.raw(keys.map((k) => `"${k}"`).join(', '));
  return Prisma.sql`INSERT INTO ${Prisma.raw(`"${table}"`)} (${cols}) VALUES ${Prisma.join(rows.map((r) => Prisma.sql`(${Prisma.join(keys.map((k) => value(r[k])))})`))}`;
}

/** `"a" = v1, "b" = v2` for an UPDATE; undefined fields are left alone. */
export function setColumns(data: Record<string, unknown>): Prisma.Sql {
  const entries = Object.entries(data).filter(([, v]) => v !== undefined);
  return Prisma.join(entries.map(([k, v]) => Prisma.sql`${Prisma.raw(`"${k}"`)} = ${value(v)}`));
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

/** The row of one table out of a prefixed read; null when a LEFT JOIN found nothing (no id). */
export function unprefix<T>(row: Record<string, unknown>, columns: Record<string, string>, prefix: string): T | null {
  if (row[`${prefix}id`] === null || row[`${prefix}id`] === undefined) return null;
  const out: Record<string, unknown> = {};
  for (const c of Object.values(columns)) out[c] = row[`${prefix}${c}`];
  return out as T;
}

/** A row to insert into a table, written together with the other rows of a statement. */
export interface RowWrite {
  table: string;
  row: Record<string, unknown>;
}

/**
 * The INSERTs for rows of several tables: one fragment per table and column set, rows in the
 * order given (so, for example, events keep their order).
 */
export function insertGrouped(writes: RowWrite[]): Prisma.Sql[] {
  const groups = new Map<string, RowWrite[]>();
  for (const w of writes) {
    const key = `${w.table}(${Object.keys(w.row)
      .filter((k) => w.row[k] !== undefined)
      .join(',')})`;
    const group = groups.get(key);
    if (group) group.push(w);
    else groups.set(key, [w]);
  }
  return [...groups.values()].map((g) =>
    insertRows(
      g[0].table,
      g.map((w) => w.row),
    ),
  );
}

/**
 * All these rows in one statement. Foreign keys are checked at the statement's end, so rows may
 * refer to rows inserted beside them.
 */
export function insertAll(writes: RowWrite[]): Prisma.Sql {
  const parts = insertGrouped(writes);
  const last = parts.pop()!;
  if (!parts.length) return last;
  return Prisma.sql`WITH ${Prisma.join(
    parts.map((part, i) => Prisma.sql`${Prisma.raw(`w${i}`)} AS (${part})`),
    ', ',
  )} ${last}`;
}

/**
 * A conditional change of one row, described rather than written: `where` must hold (a column
 * equal to a value, to one of several values given as an array, or null) and `set` is applied; with no
 * `set` the guard only checks that such a row exists. A payment step carries its guards to the
 * ledger, which renders them into the step's own statement (a required guard must match exactly
 * one row, or nothing of the step is written).
 */
export interface Guard {
  table: string;
  where: Record<string, unknown>;
  set?: Record<string, unknown>;
  required: boolean;
}

/** `UPDATE ... RETURNING 1` (or `SELECT 1` for a pure check) of a guard. */
export function guardSql(g: Guard): Prisma.Sql {
  const conditions = Object.entries(g.where).map(([k, v]) =>
    Array.isArray(v)
      ? Prisma.sql`${Prisma.raw(`"${k}"`)} IN (${Prisma.join(v.map((x) => value(x)))})`
      : v === null
        ? Prisma.raw(`"${k}" IS NULL`)
        : Prisma.sql`${Prisma.raw(`"${k}"`)} = ${value(v)}`,
  );
  const table = Prisma.raw(`"${g.table}"`);
  const where = Prisma.join(conditions, ' AND ');
  return g.set && Object.keys(g.set).length
    ? Prisma.sql`UPDATE ${table} SET ${setColumns(g.set)} WHERE ${where} RETURNING 1`
    : Prisma.sql`SELECT 1 FROM ${table} WHERE ${where}`;
}
