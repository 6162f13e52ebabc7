// A whole database as one plain SQL file, and back: what `npm run backup` writes, `npm run
// restore` loads and `npm run db:move` streams. The same file loads into the embedded database and
// into PostgreSQL (also with `psql -v ON_ERROR_STOP=1 -f FILE` on an empty database), whichever
// one it came from.
//
// Consistent: everything is read in one REPEATABLE READ transaction, so the file holds every
// transaction committed before the dump began and nothing of any later one — a payment's ledger
// postings, its state and its Idempotency-Key record come together or not at all. On the embedded
// database this transaction goes through the server's own loopback port, where it runs alone: the
// server's database work waits for it (seconds for a sandbox's data; measured in docs/operations.md).
//
// The schema is the database's applied migrations, replayed from this code's files (each checked
// against the checksum the database recorded), so a restored database is exactly what the
// migration runner would have made, and `npm run db:migrate` takes it on from there. Then the rows:
// one INSERT per batch, tables in foreign-key order, with the tables' own triggers switched off
// while loading (the ledger and running-total triggers would otherwise count every row twice), the
// sequences set where they were, and all of it in one transaction: a load that fails leaves
// nothing. Values travel in PostgreSQL's text form (lossless for every type), on one line each.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readMigrations } from './migrate.mjs';

export const FORMAT = 'corridor-sql 1';
/** Lines starting so separate the steps a loader runs one by one; no value or migration has one. */
const STEP = '-- corridor:step';
const END = '-- corridor:end';
const BATCH = 500;
const q = (name) => `"${name.replace(/"/g, '""')}"`;
/** Every value as PostgreSQL's own text: nothing is parsed into JavaScript and written back. */
export const RAW_TYPES = { getTypeParser: () => (v) => v };
const SESSION = `SET client_encoding = 'UTF8'; SET standard_conforming_strings = on; SET DateStyle = 'ISO, YMD';
SET IntervalStyle = 'postgres'; SET TimeZone = 'UTC'; SET extra_float_digits = 3;`;

/** A value as an escaped string literal on one line (E'...': no raw line break inside). */
export function literal(value) {
  if (value === null) return 'NULL';
  const escaped = value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r');
  return `E'${escaped}'`;
}

/** Tables with parents first (foreign keys), then by name. */
export function inDependencyOrder(tables, foreignKeys) {
  const parents = new Map(tables.map((t) => [t, new Set()]));
  for (const { child, parent } of foreignKeys)
    if (child !== parent && parents.has(child)) parents.get(child).add(parent);
  const order = [];
  const placed = new Set();
  while (order.length < tables.length) {
    const ready = tables.filter(
      (t) => !placed.has(t) && [...parents.get(t)].every((p) => placed.has(p) || !parents.has(p)),
    );
    if (!ready.length)
      throw new Error(`foreign keys form a cycle among ${tables.filter((t) => !placed.has(t)).join(', ')}`);
    for (const t of ready.sort()) {
      order.push(t);
      placed.add(t);
    }
  }
  return order;
}

/** What the dump needs to know about the database, read inside its snapshot. */
async function describe(client) {
  const rows = async (sql) => (await client.query(sql)).rows;
  const tables = (
    await rows(`SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND c.relname <> '_corridor_migrations'`)
  ).map((r) => r.name);
  const foreignKeys = await rows(`SELECT c.relname AS child, f.relname AS parent FROM pg_constraint k
      JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class f ON f.oid = k.confrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace WHERE k.contype = 'f' AND n.nspname = 'public'`);
  const columns = new Map(tables.map((t) => [t, []]));
  for (const r of await rows(`SELECT c.relname AS t, a.attname AS col FROM pg_attribute a
      JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      ORDER BY c.relname, a.attnum`))
    columns.get(r.t)?.push(r.col);
  const triggered = (
    await rows(`SELECT DISTINCT c.relname AS name FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND NOT g.tgisinternal`)
  ).map((r) => r.name);
  const sequences = [];
  for (const { name } of await rows(`SELECT c.relname AS name FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'S' ORDER BY 1`))
    sequences.push({ name, ...(await rows(`SELECT last_value::text AS value, is_called FROM ${q(name)}`))[0] });
  const applied = await rows(`SELECT name, checksum, applied_at::text AS at FROM _corridor_migrations ORDER BY name`);
  const [{ now }] = await rows(`SELECT now()::text AS now`);
  return { tables: inDependencyOrder(tables, foreignKeys), columns, triggered, sequences, applied, now };
}

/** The SQL of each migration the database has applied, from this code's files, checksum-checked. */
async function appliedMigrations(applied, dir) {
  const code = new Map((await readMigrations(dir)).map((m) => [m.name, m]));
  return applied.map((a) => {
    const m = code.get(a.name);
    if (!m)
      throw new Error(
        `the database has migration ${a.name}, which this code does not know: back it up with the code that made it`,
      );
    if (m.checksum !== a.checksum)
      throw new Error(`migration ${a.name} differs from the one the database applied (checksum)`);
    if (m.sql.split('\n').some((l) => l.startsWith('-- corridor:')))
      throw new Error(`migration ${a.name} has a line starting "-- corridor:", which a dump uses to mark its steps`);
    return m;
  });
}

/**
 * Writes the dump of the database `client` is connected to through `write(text)` (awaited), in
 * one snapshot. `inSnapshot(client)` gives more "name: value" lines for the file's opening comment,
 * read in the same snapshot. Returns { tables, rows, takenAt, migrations }.
 */
export async function writeDump(client, write, { inSnapshot = async () => [], migrationsDir } = {}) {
  const hash = createHash('sha256');
  const out = async (text) => {
    hash.update(text);
    await write(text);
  };
  await client.query(SESSION);
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
  try {
    const db = await describe(client);
    const migrations = await appliedMigrations(db.applied, migrationsDir);
    const header = await inSnapshot(client);
    await out(
      [
        `-- ${FORMAT}`,
        `-- taken at: ${db.now}`,
        `-- migrations: ${db.applied.length}`,
        `-- last migration: ${db.applied.at(-1)?.name ?? 'none'}`,
      ]
        .concat(
          header.map((h) => `-- ${h}`),
          [SESSION, 'BEGIN;', ''],
        )
        .join('\n'),
    );
    for (const m of migrations) await out(`${STEP} migration ${m.name}\n${m.sql.replace(/\s*$/, '')}\n`);
    await out(`${STEP} migrations recorded\nCREATE TABLE IF NOT EXISTS _corridor_migrations (
  name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());\n`);
    for (const a of db.applied)
      await out(
        `INSERT INTO _corridor_migrations (name, checksum, applied_at) VALUES (${[a.name, a.checksum, a.at].map(literal).join(', ')});\n`,
      );
    // Rows a migration itself wrote (seed rows, counters) come back with the data instead.
    await out(`${STEP} data\nTRUNCATE ${db.tables.map(q).join(', ')};\nSET CONSTRAINTS ALL DEFERRED;\n`);
    for (const t of db.triggered) await out(`ALTER TABLE ${q(t)} DISABLE TRIGGER USER;\n`);
    let rows = 0;
    for (const table of db.tables) rows += await dumpTable(client, table, db.columns.get(table), out);
    await out(`${STEP} sequences and triggers\n`);
    for (const s of db.sequences)
      await out(`SELECT pg_catalog.setval(${literal(q(s.name))}, ${s.value}, ${s.is_called ? 'true' : 'false'});\n`);
    for (const t of db.triggered) await out(`ALTER TABLE ${q(t)} ENABLE TRIGGER USER;\n`);
    await out(`COMMIT;\n${STEP} end\n`);
    await write(`${END} tables=${db.tables.length} rows=${rows} sha256=${hash.digest('hex')}\n`);
    return { tables: db.tables.length, rows, takenAt: db.now, migrations: db.applied.length };
  } finally {
    await client.query('COMMIT').catch(() => {});
  }
}

/** One table's rows, in batches of INSERTs read through a cursor (memory stays flat). */
async function dumpTable(client, table, columns, out) {
  const list = columns.map(q).join(', ');
  await client.query(`DECLARE corridor_dump NO SCROLL CURSOR FOR SELECT ${list} FROM ${q(table)}`);
  let count = 0;
  await out(`${STEP} table ${table}\n`);
  for (;;) {
    const { rows } = await client.query({
      text: `FETCH ${BATCH} FROM corridor_dump`,
      rowMode: 'array',
      types: RAW_TYPES,
    });
    if (!rows.length) break;
    count += rows.length;
    await out(
      `INSERT INTO ${q(table)} (${list}) VALUES ${rows.map((r) => `(${r.map(literal).join(', ')})`).join(', ')};\n`,
    );
  }
  await client.query('CLOSE corridor_dump');
  return count;
}

/**
 * The file's lines (without their line breaks), read only as fast as they are used: readline's
 * iterator reads ahead without limit, which held a 290 MB dump in memory while it loaded.
 */
async function* linesOf(file) {
  let carry = '';
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const lines = (carry + chunk).split('\n');
    carry = lines.pop();
    yield* lines;
  }
  if (carry) yield carry;
}

/**
 * Checks a dump file whole before anything is loaded: its format line, its closing line and the
 * checksum there. Returns { tables, rows, header } (header: the opening comment's lines); throws on
 * a file that is not a complete dump (cut short, altered, another kind).
 */
export async function verifyDump(file) {
  const hash = createHash('sha256');
  const header = [];
  let end = null;
  let first = true;
  let opening = true; // still in the opening comment
  for await (const line of linesOf(file)) {
    if (first && line !== `-- ${FORMAT}`)
      throw new Error(`${file} is not a Corridor backup (it does not begin with "-- ${FORMAT}")`);
    if (end) throw new Error(`${file} is damaged: it goes on after its closing line`);
    if (line.startsWith(`${END} `)) end = line;
    else hash.update(`${line}\n`);
    opening &&= line.startsWith('-- ');
    if (opening) header.push(line.slice(3));
    first = false;
  }
  const closing = end && /^tables=(\d+) rows=(\d+) sha256=([0-9a-f]{64})$/.exec(end.slice(END.length + 1));
  if (!closing) throw new Error(`${file} is incomplete: its closing line is missing (was it cut short?)`);
  if (hash.digest('hex') !== closing[3])
    throw new Error(`${file} is damaged: its checksum does not match its contents`);
  return { tables: Number(closing[1]), rows: Number(closing[2]), header: headerOf(header) };
}

/** The opening comment's "name: value" lines as an object. */
function headerOf(lines) {
  return Object.fromEntries(
    lines
      .map((l) => /^([a-z][a-z ]*): (.*)$/.exec(l))
      .filter(Boolean)
      .map((m) => [m[1], m[2]]),
  );
}

/**
 * Loads a verified dump file through `client` into an empty database, step by step (a table's
 * rows one INSERT at a time); the file's own transaction makes it all or nothing.
 */
export async function loadDump(client, file) {
  let step = [];
  const run = async () => {
    const text = step.join('\n').trim();
    step = [];
    if (text) await client.query(text);
  };
  try {
    for await (const line of linesOf(file)) {
      if (line.startsWith(STEP) || line.startsWith(`${END} `)) await run();
      // A table's rows go as they come (one batch per line): memory stays flat however large.
      else if (!step.length && line.startsWith('INSERT INTO ')) await client.query(line);
      else step.push(line);
    }
    await run();
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
}
