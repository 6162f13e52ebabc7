// `npm run restore -- FILE`: loads a backup (npm run backup) into the database the server would
// use — DATABASE_URL, else the embedded one in CORRIDOR_DATA_DIR (no server may hold it) — which
// must be empty: a restore never overwrites. Before writing anything it checks the file whole
// (complete, unaltered) and that this environment has the keys the backup's secrets need. Then it
// loads everything in one transaction, applies the migrations this code has beyond the backup's,
// and audits the ledger; exit 1 if anything fails.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { loadDump, verifyDump } from './db-dump.mjs';
import { resolveDatabase } from './embedded-db.mjs';
import { migrate } from './migrate.mjs';
import { auditLines, keyProblem, ledgerAudit, tablesIn } from './ops-checks.mjs';

const log = (line) => console.log(`[restore] ${line}`);

/**
 * Loads the verified backup `file` into the empty database at `url`, migrates it forward and
 * audits its ledger. Returns { rows, applied, audit }; throws (having written nothing) if the
 * database is not empty or the file does not load.
 */
export async function restoreInto(url, file, { verified } = {}) {
  const info = verified ?? (await verifyDump(file));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await tablesIn(client);
    if (tables.length)
      throw new Error(
        `the target database is not empty (${tables.length} tables, e.g. ${tables[0]}): restore into a new CORRIDOR_DATA_DIR or a new PostgreSQL database`,
      );
    await loadDump(client, file);
  } finally {
    await client.end().catch(() => {});
  }
  const applied = await migrate(url);
  const check = new pg.Client({ connectionString: url });
  await check.connect();
  try {
    return { rows: info.rows, applied, audit: await ledgerAudit(check) };
  } finally {
    await check.end().catch(() => {});
  }
}

async function main() {
  const file = process.argv.slice(2).find((a) => !a.startsWith('--'));
  if (!file) throw new Error('name the backup file: npm run restore -- FILE');
  const info = await verifyDump(path.resolve(file));
  log(`${file}: complete, ${info.tables} tables, ${info.rows} rows, taken at ${info.header['taken at']}`);
  const problem = keyProblem(info.header);
  if (problem) throw new Error(problem);
  const database = await resolveDatabase();
  const started = Date.now();
  try {
    const r = await restoreInto(database.url, path.resolve(file), { verified: info });
    log(
      `loaded ${r.rows} rows into ${database.embedded ? 'the embedded database' : 'PostgreSQL'} (${Date.now() - started} ms)`,
    );
    if (r.applied.length) log(`applied ${r.applied.length} newer migration(s): ${r.applied.join(', ')}`);
    const { ok, lines } = auditLines(r.audit);
    for (const line of lines) log(line);
    if (!ok) process.exitCode = 1;
  } finally {
    await database.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main().catch((err) => {
    console.error(`[restore] failed: ${err.message}`);
    process.exitCode = 1;
  });
}
