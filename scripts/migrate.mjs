// The project's migration runner. Prisma's CLI cannot run its schema engine here, so the SQL files
// in prisma/migrations/<name>/migration.sql are applied by this small runner instead:
// in name order, one transaction each, recorded with a checksum so an edited migration is caught.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'prisma', 'migrations');
// Arbitrary constant: serializes concurrent runners (two app processes starting at once).
const LOCK_KEY = 734_221_901;

export async function readMigrations(dir = MIGRATIONS_DIR) {
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  const out = [];
  for (const name of names) {
    const sql = await readFile(path.join(dir, name, 'migration.sql'), 'utf8');
    out.push({ name, sql, checksum: createHash('sha256').update(sql).digest('hex') });
  }
  return out;
}

const TABLE = `CREATE TABLE IF NOT EXISTS _corridor_migrations (
  name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`;

/**
 * Where the database stands against this code's migrations: `pending` (not applied yet, in order),
 * and what forbids going on: `unknown` (applied, but not among this code's: the code is older than
 * the database), `changed` (applied with another checksum: a migration was edited after it
 * shipped) and `outOfOrder` (pending, but named before one already applied: a fresh database and
 * this one would apply them in different orders). Migrations are forward-only: a change is a new
 * migration, never an edit.
 */
export function compareMigrations(migrations, appliedRows) {
  const done = new Map(appliedRows.map((r) => [r.name, r.checksum]));
  const known = new Set(migrations.map((m) => m.name));
  const last = [...done.keys()].sort().at(-1) ?? '';
  const pending = migrations.filter((m) => !done.has(m.name));
  return {
    applied: done.size,
    pending: pending.map((m) => m.name),
    unknown: [...done.keys()].filter((n) => !known.has(n)),
    changed: migrations.filter((m) => done.has(m.name) && done.get(m.name) !== m.checksum).map((m) => m.name),
    outOfOrder: pending.filter((m) => m.name < last).map((m) => m.name),
  };
}

/** Why this code may not run its migrations on this database, or null. */
export function refusal(status) {
  if (status.unknown.length)
    return `database has migrations this code does not know: ${status.unknown.join(', ')} (is the code older than the database?)`;
  if (status.changed.length)
    return `migration ${status.changed.join(', ')} was changed after it was applied (checksum mismatch): migrations are forward-only, write a new one instead`;
  if (status.outOfOrder.length)
    return `migration ${status.outOfOrder.join(', ')} sorts before migrations this database already has: name a new migration after the newest one`;
  return null;
}

/**
 * The database's standing against this code's migrations (see compareMigrations); changes nothing.
 * @param {string} connectionString @param {{ dir?: string }} [options]
 */
export async function migrationStatus(connectionString, { dir } = {}) {
  const migrations = await readMigrations(dir);
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const exists = (await client.query(`SELECT to_regclass('_corridor_migrations') IS NOT NULL AS ok`)).rows[0].ok;
    const rows = exists ? (await client.query('SELECT name, checksum FROM _corridor_migrations')).rows : [];
    return compareMigrations(migrations, rows);
  } finally {
    await client.end();
  }
}

/**
 * Applies pending migrations; returns the names applied. Idempotent.
 * @param {string} connectionString @param {{ log?: (line: string) => void, dir?: string }} [options]
 */
export async function migrate(connectionString, { log = () => {}, dir } = {}) {
  const migrations = await readMigrations(dir);
  const client = new pg.Client({ connectionString });
  await client.connect();
  const applied = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    await client.query(TABLE);
    const { rows } = await client.query('SELECT name, checksum FROM _corridor_migrations');
    const status = compareMigrations(migrations, rows);
    const refused = refusal(status);
    if (refused) throw new Error(refused);
    for (const m of migrations.filter((x) => status.pending.includes(x.name))) {
      try {
        await client.query('BEGIN');
        await client.query(m.sql);
        await client.query('INSERT INTO _corridor_migrations (name, checksum) VALUES ($1, $2)', [m.name, m.checksum]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw new Error(`migration ${m.name} failed: ${err.message}`);
      }
      applied.push(m.name);
      log(`applied migration ${m.name}`);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => {});
    await client.end();
  }
  return applied;
}

// `npm run db:migrate`: against DATABASE_URL, or the embedded database when it is unset (which a
// running server holds: stop it first). `-- --check` changes nothing: it lists what is pending and
// exits 1 when something is, or when this code may not migrate the database.
async function main() {
  const check = process.argv.includes('--check');
  const { resolveDatabase } = await import('./embedded-db.mjs');
  const database = await resolveDatabase();
  try {
    if (check) {
      const status = await migrationStatus(database.url);
      const refused = refusal(status);
      console.log(
        `${status.applied} migration(s) applied, ${status.pending.length} pending${status.pending.length ? `: ${status.pending.join(', ')}` : ''}`,
      );
      if (refused) console.error(refused);
      process.exitCode = refused || status.pending.length ? 1 : 0;
      return;
    }
    const names = await migrate(database.url, { log: console.log });
    console.log(names.length ? `${names.length} migration(s) applied` : 'database is up to date');
  } catch (err) {
    console.error(err.message);
    process.exitCode = 1;
  } finally {
    await database.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main().catch((err) => {
    console.error(err.message);
    process.exitCode = 1;
  });
}
