// Does the migrated database match prisma/schema? Prisma's own `migrate diff` needs its schema
// engine, which cannot be downloaded here, so this compares the two directly: the schema as
// Prisma reads it (its DMMF, from Prisma's own parser compiled to WebAssembly,
// @prisma/prisma-schema-wasm, the version of the installed Prisma) against the database's catalog
// after scripts/migrate.mjs ran. Every model must be a table, every scalar field a column of the
// type, nullability and default Prisma assumes, every @id/@unique/@@index an index on the same
// columns, every relation a foreign key with the same delete rule; and the database may hold no
// table or column the schema does not describe (what Prisma does not know it cannot write).
// The database may hold more indexes and constraints than the schema (partial and expression
// indexes, triggers: things Prisma cannot express), which the migrations own; a plain @@index is
// matched by an index on the same columns even when the database's is partial.
//
//   node scripts/schema-drift.mjs      checks the database the server would use; exit 1 on drift
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const require = createRequire(import.meta.url);
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Tables the project itself keeps outside the schema. */
const RUNNER_TABLES = new Set(['_corridor_migrations']);

/** The Prisma schema's data model (DMMF), as the Prisma version installed here reads it. */
export function prismaDataModel(schemaDir = path.join(root, 'prisma', 'schema')) {
  const files = readdirSync(schemaDir)
    .filter((f) => f.endsWith('.prisma'))
    .sort()
    .map((f) => [path.join(schemaDir, f), readFileSync(path.join(schemaDir, f), 'utf8')]);
  const wasm = require('@prisma/prisma-schema-wasm');
  return JSON.parse(wasm.get_dmmf(JSON.stringify({ prismaSchema: files }))).datamodel;
}

const SCALAR_TYPES = {
  String: 'text',
  Int: 'integer',
  BigInt: 'bigint',
  Boolean: 'boolean',
  DateTime: 'timestamp(3) without time zone',
  Json: 'jsonb',
  Float: 'double precision',
  Decimal: 'numeric(65,30)',
  Bytes: 'bytea',
};
const NATIVE_TYPES = {
  Text: () => 'text',
  VarChar: (a) => (a.length ? `character varying(${a[0]})` : 'character varying'),
  Char: (a) => `character(${a[0] ?? 1})`,
  Uuid: () => 'uuid',
  SmallInt: () => 'smallint',
  Integer: () => 'integer',
  BigInt: () => 'bigint',
  Timestamp: (a) => `timestamp(${a[0] ?? 3}) without time zone`,
  Timestamptz: (a) => `timestamp(${a[0] ?? 3}) with time zone`,
  Date: () => 'date',
  Json: () => 'json',
  JsonB: () => 'jsonb',
  DoublePrecision: () => 'double precision',
  Decimal: (a) => (a.length ? `numeric(${a.join(',')})` : 'numeric'),
};

/** The column type Prisma expects for a scalar or enum field, as format_type() writes it. */
function expectedType(field) {
  let type;
  if (field.kind === 'enum') type = JSON.stringify(field.type).replace(/^"([a-z_][a-z0-9_]*)"$/, '$1');
  else if (field.nativeType) {
    const [name, args] = field.nativeType;
    type = NATIVE_TYPES[name]?.(args) ?? `<@db.${name}>`;
  } else type = SCALAR_TYPES[field.type] ?? `<${field.type}>`;
  return field.isList ? `${type}[]` : type;
}

/** A column default with casts and quotes taken off: `'PENDING'::text` → PENDING. */
const bare = (expr) =>
  expr
    .replace(/::[a-z ]+(\[\])?(\(\d+\))?/gi, '')
    .replace(/^'(.*)'$/s, '$1')
    .replace(/^\((.*)\)$/s, '$1');

/** What the field's @default means for the column's default: null when it means none. */
function expectedDefault(field) {
  if (!field.hasDefaultValue || field.isUpdatedAt) return null;
  const d = field.default;
  if (Array.isArray(d)) {
    const want = `{${d.join(',')}}`;
    return { match: (e) => bare(e) === want || (!d.length && bare(e) === 'ARRAY[]'), text: JSON.stringify(d) };
  }
  if (d && typeof d === 'object') {
    if (d.name === 'now') return { match: (e) => /^(CURRENT_TIMESTAMP|now\(\))$/i.test(e), text: 'now()' };
    if (d.name === 'autoincrement') return { match: (e) => /^nextval\(/.test(e), text: 'autoincrement()' };
    if (d.name === 'dbgenerated')
      return {
        match: (e) => d.args?.[0] === undefined || bare(e) === bare(String(d.args[0])),
        text: `dbgenerated(${d.args?.[0] ?? ''})`,
      };
    return null; // uuid(), cuid(), ...: made by the client, no column default
  }
  const want = typeof d === 'string' ? d : JSON.stringify(d);
  return { match: (e) => bare(e) === want, text: want };
}

const DELETE_RULES = { a: 'NoAction', r: 'Restrict', c: 'Cascade', n: 'SetNull', d: 'SetDefault' };

/** The database's tables, columns, indexes and foreign keys in the public schema. */
export async function catalogOf(client) {
  const q = async (sql) => (await client.query(sql)).rows;
  const tables = new Map();
  const table = (name) => {
    if (!tables.has(name)) tables.set(name, { columns: new Map(), indexes: [], foreignKeys: [] });
    return tables.get(name);
  };
  for (const r of await q(`SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')`))
    table(r.relname);
  for (const r of await q(`SELECT c.relname AS t, a.attname AS col, format_type(a.atttypid, a.atttypmod) AS type,
        a.attnotnull AS "notNull", a.attgenerated AS generated, pg_get_expr(d.adbin, d.adrelid) AS "default"
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped`))
    table(r.t).columns.set(r.col, { type: r.type, notNull: r.notNull, generated: r.generated, default: r.default });
  for (const r of await q(`SELECT c.relname AS t, i.indisunique AS "unique", i.indisprimary AS "primary",
        i.indpred IS NOT NULL AS partial, i.indexprs IS NOT NULL AS expression,
        ARRAY(SELECT a.attname FROM unnest(i.indkey) WITH ORDINALITY k(n, o)
              JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n ORDER BY k.o)::text[] AS columns
      FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public'`))
    table(r.t).indexes.push(r);
  for (const r of await q(`SELECT c.relname AS t, f.relname AS "refTable", k.confdeltype AS "onDelete",
        ARRAY(SELECT a.attname FROM unnest(k.conkey) WITH ORDINALITY x(n, o)
              JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = x.n ORDER BY x.o)::text[] AS columns,
        ARRAY(SELECT a.attname FROM unnest(k.confkey) WITH ORDINALITY x(n, o)
              JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = x.n ORDER BY x.o)::text[] AS "refColumns"
      FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class f ON f.oid = k.confrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace WHERE k.contype = 'f' AND n.nspname = 'public'`))
    table(r.t).foreignKeys.push({ ...r, onDelete: DELETE_RULES[r.onDelete] });
  return tables;
}

const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

function columnDrift(where, field, column) {
  const out = [];
  const type = expectedType(field);
  if (column.type !== type) out.push(`${where}: type ${column.type}, the schema says ${type}`);
  if (column.notNull !== field.isRequired)
    out.push(
      `${where}: ${column.notNull ? 'NOT NULL' : 'nullable'}, the schema says ${field.isRequired ? 'required' : 'optional'}`,
    );
  if (column.generated) return out; // computed by the database: Prisma only reads it
  const want = expectedDefault(field);
  if (want && !(column.default && want.match(column.default)))
    out.push(`${where}: default ${column.default ?? 'none'}, the schema says @default(${want.text})`);
  if (!want && column.default) out.push(`${where}: default ${column.default}, the schema declares none`);
  return out;
}

function indexDrift(model, name, columnOf, indexes) {
  const out = [];
  for (const index of indexes.filter((i) => i.model === model.name)) {
    const columns = index.fields.map((f) => columnOf(f.name));
    // A plain @@index may be partial in the database (Prisma cannot write WHERE); an @id or @unique
    // must hold for every row.
    const found = (i) =>
      !i.expression &&
      same(i.columns, columns) &&
      (index.type === 'id' ? i.primary : index.type === 'unique' ? i.unique && !i.partial : !i.unique);
    if (!name.indexes.some(found)) out.push(`${model.name}: no ${index.type} index on (${columns.join(', ')})`);
  }
  return out;
}

function foreignKeyDrift(model, table, columnOf, tableOf) {
  const out = [];
  for (const field of model.fields.filter((f) => f.kind === 'object' && f.relationFromFields?.length)) {
    const columns = field.relationFromFields.map(columnOf);
    const refTable = tableOf(field.type);
    const refColumns = field.relationToFields.map((f) => columnOf(f, field.type));
    const onDelete = field.relationOnDelete ?? (field.isRequired ? 'Restrict' : 'SetNull');
    const fk = table.foreignKeys.find(
      (k) => k.refTable === refTable && same(k.columns, columns) && same(k.refColumns, refColumns),
    );
    if (!fk) out.push(`${model.name}.${field.name}: no foreign key (${columns}) → ${refTable}(${refColumns})`);
    else if (fk.onDelete !== onDelete)
      out.push(`${model.name}.${field.name}: foreign key deletes with ${fk.onDelete}, the schema says ${onDelete}`);
  }
  return out;
}

/** Every difference between the data model and the catalog, as lines; empty when they agree. */
export function driftBetween(datamodel, catalog) {
  const out = [];
  const models = new Map(datamodel.models.map((m) => [m.name, m]));
  const tableOf = (modelName) => models.get(modelName)?.dbName ?? modelName;
  const columnOfIn = (modelName) => (fieldName) =>
    models.get(modelName)?.fields.find((f) => f.name === fieldName)?.dbName ?? fieldName;
  const described = new Set();
  for (const model of datamodel.models) {
    const name = tableOf(model.name);
    described.add(name);
    const table = catalog.get(name);
    if (!table) {
      out.push(`${model.name}: no table ${name}`);
      continue;
    }
    const columnOf = (fieldName, other = model.name) => columnOfIn(other)(fieldName);
    const scalars = model.fields.filter((f) => f.kind === 'scalar' || f.kind === 'enum');
    for (const field of scalars) {
      const column = table.columns.get(field.dbName ?? field.name);
      if (!column) out.push(`${name}.${field.dbName ?? field.name}: no such column`);
      else out.push(...columnDrift(`${name}.${field.dbName ?? field.name}`, field, column));
    }
    const known = new Set(scalars.map((f) => f.dbName ?? f.name));
    for (const column of table.columns.keys())
      if (!known.has(column)) out.push(`${name}.${column}: a column the schema does not describe`);
    out.push(...indexDrift(model, table, columnOf, datamodel.indexes));
    out.push(...foreignKeyDrift(model, table, columnOf, tableOf));
  }
  for (const name of catalog.keys())
    if (!described.has(name) && !RUNNER_TABLES.has(name)) out.push(`${name}: a table the schema does not describe`);
  return out;
}

/** The drift between prisma/schema and the database at `connectionString`. */
export async function schemaDrift(connectionString, schemaDir) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return driftBetween(prismaDataModel(schemaDir), await catalogOf(client));
  } finally {
    await client.end();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const { resolveDatabase } = await import('./embedded-db.mjs');
  const database = await resolveDatabase();
  try {
    const drift = await schemaDrift(database.url);
    for (const line of drift) console.error(`drift: ${line}`);
    console.log(
      drift.length
        ? `${drift.length} difference(s) between prisma/schema and the database`
        : 'the database matches prisma/schema',
    );
    process.exitCode = drift.length ? 1 : 0;
  } finally {
    await database.stop();
  }
}
