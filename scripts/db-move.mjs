// `npm run db:move -- --to postgresql://…` (or `-- --to-data-dir DIR` for an embedded database):
// carries the whole state of the database the server uses (DATABASE_URL, else the embedded one in
// CORRIDOR_DATA_DIR) into an empty database: a backup (scripts/db-dump.mjs) loaded straight into
// it, then checked — the same row count in every table, the same balance on every ledger account,
// the ledger audited. The source is left as it was. No server may be using the source (the
// embedded database refuses while one holds it; on PostgreSQL any other connection to the source
// database refuses it), or what it wrote after the copy began would stay behind.
//
// The keys are not in the database: start the servers on the new database with the same key file
// (CORRIDOR_DATA_DIR/secret.key) or the same CORRIDOR_SECRET_KEY and CORRIDOR_HASH_KEY, and every
// API credential, sealed secret and signed link keeps working.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { backup } from './backup.mjs';
import { isPostgresUrl, resolveDatabase, startEmbedded } from './embedded-db.mjs';
import { auditLines, otherConnections, tablesIn } from './ops-checks.mjs';
import { restoreInto } from './restore.mjs';

const log = (line) => console.log(`[db:move] ${line}`);

function targetOf(argv) {
  const to = argv.indexOf('--to');
  const dir = argv.indexOf('--to-data-dir');
  if (to >= 0 && isPostgresUrl(argv[to + 1])) return { url: argv[to + 1] };
  if (dir >= 0 && argv[dir + 1]) return { dataDir: path.resolve(argv[dir + 1]) };
  throw new Error('say where to: npm run db:move -- --to postgresql://user@host/db  (or --to-data-dir DIR)');
}

/** Row count per table, and one fingerprint of every ledger account's balance. */
async function inventory(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const counts = {};
    for (const t of await tablesIn(client))
      counts[t] = Number((await client.query(`SELECT count(*) AS n FROM "${t.replace(/"/g, '""')}"`)).rows[0].n);
    const { rows } = await client.query(
      `SELECT md5(coalesce(string_agg("id" || '=' || "balance", ',' ORDER BY "id"), '')) AS f FROM "LedgerAccount"`,
    );
    await client.query('COMMIT');
    return { counts, balances: rows[0].f };
  } finally {
    await client.end().catch(() => {});
  }
}

async function checkSourceIdle(database) {
  if (database.embedded) return; // resolveDatabase took its lock: no server holds it
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const others = await otherConnections(client);
    if (others.length)
      throw new Error(
        `the source database has ${others.reduce((n, o) => n + o.n, 0)} other connection(s) (${others.map((o) => o.name).join(', ')}): stop the servers using it first, or what they write after the copy began would stay behind`,
      );
  } finally {
    await client.end().catch(() => {});
  }
}

/** Moves the database at `sourceUrl` into the empty database at `targetUrl`; returns the checks. */
export async function move(sourceUrl, targetUrl, { source }) {
  const work = mkdtempSync(path.join(tmpdir(), 'corridor-move-'));
  try {
    const file = path.join(work, 'move.sql');
    await backup(sourceUrl, file, { source });
    const restored = await restoreInto(targetUrl, file);
    const [from, to] = [await inventory(sourceUrl), await inventory(targetUrl)];
    const differ = Object.keys(from.counts).filter((t) => from.counts[t] !== to.counts[t]);
    if (differ.length)
      throw new Error(
        `row counts differ after the move: ${differ.map((t) => `${t} ${from.counts[t]} → ${to.counts[t]}`)}`,
      );
    if (from.balances !== to.balances) throw new Error('ledger account balances differ after the move');
    return { ...restored, tables: Object.keys(from.counts).length };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function main() {
  const target = targetOf(process.argv.slice(2));
  const database = await resolveDatabase();
  const embeddedTarget = target.dataDir ? await startEmbedded({ dataDir: target.dataDir }) : null;
  try {
    await checkSourceIdle(database);
    const r = await move(database.url, embeddedTarget?.url ?? target.url, {
      source: database.embedded ? 'embedded' : 'postgresql',
    });
    log(`moved ${r.rows} rows in ${r.tables} tables: every table's row count and every ledger balance equal`);
    const { ok, lines } = auditLines(r.audit);
    for (const line of lines) log(line);
    if (!ok) process.exitCode = 1;
    log(
      target.dataDir
        ? `next: start the server with CORRIDOR_DATA_DIR=${target.dataDir} and DATABASE_URL unset, with the same keys`
        : 'next: start the servers with DATABASE_URL set to the new database, with the same keys (key file or CORRIDOR_SECRET_KEY)',
    );
  } finally {
    await embeddedTarget?.stop();
    await database.stop();
  }
}

main().catch((err) => {
  console.error(`[db:move] failed: ${err.message}`);
  process.exitCode = 1;
});
