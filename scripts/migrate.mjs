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

/** Applies pending migrations; returns the names applied. Idempotent. */
export async function migrate(connectionString, { log = () => {}, dir } = {}) {
  const migrations = await readMigrations(dir);
  const client = new pg.Client({ connectionString });
  await client.connect();
  const applied = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS _corridor_migrations (
      name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await client.query('SELECT name, checksum FROM _corridor_migrations');
    const done = new Map(rows.map((r) => [r.name, r.checksum]));
    const known = new Set(migrations.map((m) => m.name));
    const unknown = [...done.keys()].filter((n) => !known.has(n));
    if (unknown.length) {
      throw new Error(
        `database has migrations this code does not know: ${unknown.join(', ')} (is the code older than the database?)`,
      );
    }
    for (const m of migrations) {
      const prior = done.get(m.name);
      if (prior) {
        if (prior !== m.checksum)
          throw new Error(`migration ${m.name} was changed after it was applied (checksum mismatch)`);
        continue;
      }
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

// `npm run db:migrate`: against DATABASE_URL, or the embedded database when it is unset.
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const { resolveDatabase } = await import('./embedded-db.mjs');
  const database = await resolveDatabase();
  try {
    const names = await migrate(database.url, { log: console.log });
    console.log(names.length ? `${names.length} migration(s) applied` : 'database is up to date');
  } catch (err) {
    console.error(err.message);
    process.exitCode = 1;
  } finally {
    await database.stop();
  }
}
