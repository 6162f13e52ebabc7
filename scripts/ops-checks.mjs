// The checks `npm run backup`, `restore`, `db:move` and `ledger:check` share: which keys a
// database's secrets need, whether a database is empty or in use, and the ledger's balance.
import { existsSync } from 'node:fs';
import { keyFilePath, keyId, loadKeyring } from '../lib/core/crypto/keyring.mjs';
import { SEALED_COLUMNS } from '../lib/core/crypto/sealed-columns.mjs';
import { ledgerViolations } from './soak/invariants.mjs';

const q = (name) => `"${name.replace(/"/g, '""')}"`;

/** The keys this environment would give a server, without generating a key file; null if none. */
export function configuredKeys(env = process.env) {
  if (!env.CORRIDOR_SECRET_KEY && !existsSync(keyFilePath(env))) return null;
  const ring = loadKeyring(env);
  return { hashKey: keyId(ring.hashKey), masterKeys: ring.keys.map((k) => k.id) };
}

/** Sealed secrets per master key id (`v1`: the older layouts, which name no key). */
export async function sealedCensus(client) {
  const counts = {};
  for (const col of SEALED_COLUMNS) {
    const c = q(col.column);
    const { rows } = await client.query(
      `SELECT CASE WHEN left(${c}, 3) = 'v2.' THEN split_part(${c}, '.', 2) ELSE 'v1' END AS id, count(*)::int AS n
       FROM ${q(col.table)} WHERE ${c} IS NOT NULL GROUP BY 1`,
    );
    for (const { id, n } of rows) counts[id] = (counts[id] ?? 0) + n;
  }
  return counts;
}

/** The header lines a backup records about keys: which it needs, which hash key it was made with. */
export async function keyHeader(client, keys = configuredKeys()) {
  const census = await sealedCensus(client);
  const sealed = Object.entries(census).map(([id, n]) => `${id}=${n}`);
  return [`sealed secrets: ${sealed.join(' ') || 'none'}`, `hash key: ${keys?.hashKey ?? 'unknown'}`];
}

/**
 * Why the keys this environment has cannot serve a backup with this header, or null. The hash key
 * must be the same (or no API secret, code or signed link verifies), and every master key the
 * backup's secrets are sealed under must be known (or they cannot be opened).
 */
export function keyProblem(header, keys = configuredKeys()) {
  const where = 'the key file that goes with this backup (CORRIDOR_DATA_DIR/secret.key) or CORRIDOR_SECRET_KEY';
  if (!keys) return `this environment has no keys: put in place ${where} first`;
  if (header['hash key'] && header['hash key'] !== 'unknown' && header['hash key'] !== keys.hashKey)
    return `the backup was made with hash key ${header['hash key']} and this environment has ${keys.hashKey}: API secrets would not verify; put in place ${where}`;
  const needed = (header['sealed secrets'] ?? '')
    .split(' ')
    .map((s) => s.split('=')[0])
    .filter((id) => id && id !== 'none' && id !== 'v1');
  const missing = needed.filter((id) => !keys.masterKeys.includes(id));
  if (missing.length)
    return `the backup's secrets are sealed under master key(s) ${missing.join(', ')}, which this environment does not have: put in place ${where}`;
  return null;
}

/** The tables of the public schema; a restore or a move goes only into a database without any. */
export async function tablesIn(client) {
  const { rows } = await client.query(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY 1`,
  );
  return rows.map((r) => r.name);
}

/**
 * The other client connections to this database (server processes, workers, psql sessions): a
 * move must not begin while anything may still write to the source. Server processes take their
 * liveness lock and their cache listener only when first needed, so connections are what tells.
 */
export async function otherConnections(client) {
  const { rows } = await client.query(
    `SELECT coalesce(nullif(application_name, ''), 'unnamed') AS name, count(*)::int AS n FROM pg_stat_activity
     WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend' GROUP BY 1`,
  );
  return rows;
}

/**
 * The ledger audit, in one snapshot: per platform and currency the accounts sum to zero, every
 * posting balances, every balance equals its entries, no account that may not go negative is.
 * Returns { violations, accounts, entries, postings, currencies }.
 */
export async function ledgerAudit(client) {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
  try {
    const violations = await ledgerViolations(client);
    const { rows } = await client.query(`SELECT
      (SELECT count(*) FROM "LedgerAccount")::int AS accounts, (SELECT count(*) FROM "LedgerEntry")::int AS entries,
      (SELECT count(*) FROM "LedgerTransfer")::int AS postings,
      (SELECT count(DISTINCT ("platformId", "currency")) FROM "LedgerAccount")::int AS currencies`);
    return { violations, ...rows[0] };
  } finally {
    await client.query('COMMIT').catch(() => {});
  }
}

/** The audit as lines for a person, and whether it passed. */
export function auditLines(audit) {
  const head = `ledger: ${audit.accounts} accounts, ${audit.entries} entries, ${audit.postings} postings, ${audit.currencies} platform currencies`;
  if (!audit.violations.length)
    return { ok: true, lines: [`${head}: balanced (each currency sums to zero, every balance equals its entries)`] };
  return { ok: false, lines: [`${head}: NOT balanced`, ...audit.violations.map((v) => `  ${v.rule}: ${v.detail}`)] };
}
