// `npm run seed -- --customers N --payments N`: grows a database to a chosen size with exactly the
// rows the app writes. A production server (scripts/start.mjs) is started on the database and
// writes one template through the API: a customer (with its internal accounts), a sandbox funding
// and an external account, then one payment (quote + execute, settled by the worker). The server
// stops; the rows those calls added (found by diffing every table's ids) are copied N times by
// INSERT ... SELECT over generate_series, every uuid of the template replaced by a fresh one
// (md5 of the old uuid and the copy number), timestamps spread back over --days. Payment j goes
// to copied customer 1 + (j-1) % customers, two payments per timestamp (ties in createdAt).
// Ledger balances are then recomputed from the entries; the script checks that every transfer
// sums to zero per currency.
//
// Database: DATABASE_URL (PostgreSQL), else the embedded one under CORRIDOR_DATA_DIR.
// Credentials: CORRIDOR_CLIENT_ID / CORRIDOR_CLIENT_SECRET as for scripts/bench-lists.mjs.
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { resolveDatabase } from './embedded-db.mjs';
import { migrate } from './migrate.mjs';
import { api, startServer } from './bench/server.mjs';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

/** Every table's ids (tables with an `id` column). */
async function snapshot(client) {
  const { rows: tables } = await client.query(
    `SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'id'`,
  );
  const ids = new Map();
  for (const { table_name: t } of tables) {
    const { rows } = await client.query(`SELECT "id" FROM "${t}"`);
    ids.set(t, new Set(rows.map((r) => r.id)));
  }
  return ids;
}

function added(before, after) {
  const out = new Map();
  for (const [t, ids] of after) {
    const fresh = [...ids].filter((id) => !before.get(t)?.has(id));
    if (fresh.length) out.set(t, fresh);
  }
  return out;
}

async function makeCustomer(base, funding) {
  const customer = await api(base, 'POST', '/customers', {
    customerType: 'INDIVIDUAL',
    fullName: 'Seed Sender',
    currencies: ['USD', 'EUR'],
  });
  const accounts = await api(base, 'GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}`);
  const usd = accounts.data.find((a) => a.balance.currency.code === 'USD' && a.type === 'INTERNAL_FIAT');
  await api(base, 'POST', `/sandbox/internal-accounts/${usd.id}/fund`, { amount: funding });
  const ext = await api(base, 'POST', '/customers/external-accounts', {
    customerId: customer.id,
    currency: 'EUR',
    accountInfo: {
      accountType: 'EUR_ACCOUNT',
      iban: 'DE89370400440532013123',
      beneficiary: {
        beneficiaryType: 'INDIVIDUAL',
        fullName: 'Seed Receiver',
        countryOfResidence: 'DE',
        address: { line1: 'Hauptstr. 1', postalCode: '10115', country: 'DE' },
      },
    },
  });
  return { customer, usd, ext };
}

async function pay(base, t) {
  const q = await api(base, 'POST', '/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: t.usd.id },
    destination: { destinationType: 'ACCOUNT', accountId: t.ext.id },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 1000,
  });
  const executed = await api(base, 'POST', `/quotes/${q.id}/execute`);
  const txId = executed.transactionId;
  for (let i = 0; i < 240; i++) {
    const now = await api(base, 'GET', `/transactions/${encodeURIComponent(txId)}`);
    if (now.status === 'COMPLETED') return now;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`template payment ${txId} did not complete`);
}

/** Columns of a table: name, type, and whether the column fills itself (a sequence). */
async function columns(client, table) {
  const { rows } = await client.query(
    `SELECT column_name, data_type, column_default, is_generated FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position`,
    [table],
  );
  return rows.filter((c) => !(c.column_default ?? '').startsWith('nextval(') && c.is_generated !== 'ALWAYS');
}

/**
 * INSERT ... SELECT copying a table's template rows `count` times. `subs` lists the template's
 * values to replace in every textual column: a uuid u of group k becomes md5(u || k || copy)
 * as a uuid; a literal (a UMA address's local part, a platform customer id) becomes
 * 's' || 14 hex digits of such an md5. Timestamps move back by `shift`.
 */
async function copyRows(client, table, ids, count, subs, copyNumber, shift) {
  const cols = await columns(client, table);
  const { rows: tmpl } = await client.query(`SELECT * FROM "${table}" WHERE "id" = ANY($1)`, [ids]);
  const exprs = cols.map((c) => {
    const name = `"${c.column_name}"`;
    if (/^timestamp/.test(c.data_type)) return `${name} - ${shift}`;
    const textual = ['text', 'jsonb', 'json', 'character varying', 'ARRAY'].includes(c.data_type);
    if (!textual) return name;
    const values = tmpl.map((r) => JSON.stringify(r[c.column_name] ?? null));
    let e = c.data_type === 'text' || c.data_type === 'character varying' ? name : `${name}::text`;
    let touched = false;
    for (const { from, group, literal } of subs)
      if (values.some((v) => v.includes(from))) {
        const md5 = `md5('${from}:${group}' || ${copyNumber(group)})`;
        e = `replace(${e}, '${from}', ${literal ? `'s' || left(${md5}, 14)` : `${md5}::uuid::text`})`;
        touched = true;
      }
    if (!touched) return name;
    return c.data_type === 'ARRAY' ? `${e}::text[]` : c.data_type.startsWith('json') ? `${e}::${c.data_type}` : e;
  });
  const list = cols.map((c) => `"${c.column_name}"`).join(', ');
  const sql = `INSERT INTO "${table}" (${list}) SELECT ${exprs.join(', ')}
    FROM "${table}", generate_series(1, ${count}) AS g WHERE "id" = ANY($1)`;
  const t = Date.now();
  const r = await client.query(sql, [ids]);
  console.log(`  ${table}: ${r.rowCount} rows (${((Date.now() - t) / 1000).toFixed(1)} s)`);
}

/** The uuids the template made (its rows' ids name them; a platform's uuid is older). */
const uuidsOf = (rows, old) =>
  [...new Set([...rows.values()].flat().flatMap((id) => id.match(UUID) ?? []))].filter((u) => !old.has(u));

/** Rows named by one of the template's uuids; the others (a platform's ledger accounts made on first use) stay single. */
const copied = (ids, uuids) => ids.filter((id) => uuids.some((u) => id.includes(u)));

async function main() {
  const customers = option('customers', 1000);
  const payments = option('payments', 10000);
  const days = option('days', 365);
  const database = await resolveDatabase();
  await migrate(database.url);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const serverEnv = database.embedded ? {} : { DATABASE_URL: database.url };
  if (database.embedded) {
    await client.end();
    await database.stop();
  }
  console.log(`seeding ${customers} customers and ${payments} payments over ${days} days`);
  // One web process: the template's calls are few, and a second would only take memory.
  const server = await startServer('seed', {
    ...serverEnv,
    CORRIDOR_WEB_CONCURRENCY: process.env.CORRIDOR_WEB_CONCURRENCY || '1',
  });
  let custRows;
  let payRows;
  let literals;
  let db = database;
  let c = client;
  try {
    const peek = database.embedded ? null : c;
    const s0 = peek ? await snapshot(peek) : null;
    const t = await makeCustomer(server.base, 100_000_000_000);
    // Unique per platform among active customers: the UMA address's local part and the
    // platform's customer id are replaced like the uuids.
    literals = [t.customer.umaAddress.slice(1).split('@')[0], t.customer.platformCustomerId].filter(
      (v) => v && !new RegExp(UUID.source).test(v),
    );
    const s1 = peek ? await snapshot(peek) : null;
    await pay(server.base, t);
    // Let the worker finish the payment's webhook bookkeeping before the copy.
    await new Promise((r) => setTimeout(r, 3000));
    const s2 = peek ? await snapshot(peek) : null;
    if (peek) {
      custRows = added(s0, s1);
      payRows = added(s1, s2);
    } else {
      custRows = t;
      payRows = null;
    }
  } finally {
    await server.stop();
  }
  if (database.embedded) {
    // The embedded database is single-process: snapshots are taken after the server stopped,
    // by the template's timestamps (everything the template calls wrote is newer than its customer).
    db = await resolveDatabase();
    c = new pg.Client({ connectionString: db.url });
    await c.connect();
    ({ custRows, payRows } = await templateByTime(c, custRows));
  }
  try {
    await copy(c, custRows, payRows, customers, payments, days, literals);
  } finally {
    await c.end();
    await db.stop();
  }
}

/** Embedded: the template's rows told apart by time (customer rows before the quote's createdAt). */
async function templateByTime(c, t) {
  const { rows } = await c.query(`SELECT "createdAt" FROM "Customer" WHERE "id" = $1`, [t.customer.id]);
  const { rows: q } = await c.query(`SELECT min("createdAt") AS at FROM "Quote"`);
  const from = rows[0].createdAt;
  const split = q[0].at;
  const { rows: tables } = await c.query(
    `SELECT c1.table_name FROM information_schema.columns c1 JOIN information_schema.columns c2
       ON c1.table_name = c2.table_name AND c2.table_schema = 'public' AND c2.column_name = 'createdAt'
      WHERE c1.table_schema = 'public' AND c1.column_name = 'id'`,
  );
  const custRows = new Map();
  const payRows = new Map();
  for (const { table_name: tb } of tables) {
    const a = await c.query(`SELECT "id" FROM "${tb}" WHERE "createdAt" >= $1 AND "createdAt" < $2`, [from, split]);
    const b = await c.query(`SELECT "id" FROM "${tb}" WHERE "createdAt" >= $1`, [split]);
    if (a.rows.length)
      custRows.set(
        tb,
        a.rows.map((r) => r.id),
      );
    if (b.rows.length)
      payRows.set(
        tb,
        b.rows.map((r) => r.id),
      );
  }
  return { custRows, payRows };
}

/** The list counters (kept by triggers, which the bulk copy bypassed), recomputed from the rows. */
export async function recount(c) {
  const { rows } = await c.query(`SELECT to_regclass('"ListCount"') IS NOT NULL AS present`);
  if (!rows[0].present) return;
  await c.query(`DELETE FROM "ListCount"`);
  await c.query(`INSERT INTO "ListCount" ("platformId", "list", "key", "slot", "n")
    SELECT "platformId", 'transactions', '', 0, count(*) FROM "Transaction" GROUP BY 1
    UNION ALL SELECT "platformId", 'transactions', 'status:' || "status", 0, count(*) FROM "Transaction" GROUP BY 1, 3
    UNION ALL SELECT "platformId", 'customers', 'all', 0, count(*) FROM "Customer" GROUP BY 1
    UNION ALL SELECT "platformId", 'customers', 'active', 0, count(*) FROM "Customer" WHERE "deletedAt" IS NULL GROUP BY 1
    UNION ALL SELECT "platformId", 'internalAccounts', CASE WHEN "customerId" IS NULL THEN 'platform' ELSE 'customers' END, 0, count(*)
      FROM "InternalAccount" GROUP BY 1, 3`);
  // The overview's running totals, from the rows (the function of migration 20261128100000).
  await c.query(`SELECT corridor_rebuild_running_totals()`);
}

async function copy(c, custRows, payRows, customers, payments, days, literals) {
  const { rows: platforms } = await c.query(`SELECT "id" FROM "Platform"`);
  const old = new Set(platforms.flatMap((p) => p.id.match(UUID) ?? []));
  const custUuids = uuidsOf(custRows, old);
  const payUuids = uuidsOf(payRows, old);
  const cust = [
    ...custUuids.map((from) => ({ from, group: 'c' })),
    ...literals.map((from) => ({ from, group: 'c', literal: true })),
  ];
  const pay = payUuids.map((from) => ({ from, group: 'p' }));
  const spanMs = days * 86_400_000;
  await c.query('SET session_replication_role = replica'); // bulk copy: constraint triggers off, checked below
  await c.query('BEGIN');
  console.log('customers:');
  const custShift = `(interval '1 millisecond' * floor(g::float8 * ${spanMs} / ${customers}))`;
  for (const [table, ids] of custRows)
    if (copied(ids, custUuids).length)
      await copyRows(c, table, copied(ids, custUuids), customers, cust, () => 'g', custShift);
  console.log('payments:');
  // Two payments per timestamp, so lists meet ties in createdAt.
  const payShift = `(interval '1 millisecond' * floor(floor(g / 2)::float8 * ${spanMs} / ${Math.max(1, payments / 2)}))`;
  const customerOf = `(1 + (g - 1) % ${customers})`;
  for (const [table, all] of payRows) {
    const ids = copied(all, payUuids);
    if (!ids.length) continue;
    await copyRows(c, table, ids, payments, [...pay, ...cust], (k) => (k === 'p' ? 'g' : customerOf), payShift);
  }
  console.log('ledger balances from the entries...');
  await c.query(`UPDATE "LedgerAccount" a SET "balance" = s.total FROM
    (SELECT "ledgerAccountId", sum("amount") AS total FROM "LedgerEntry" GROUP BY 1) s
    WHERE s."ledgerAccountId" = a."id" AND a."balance" <> s.total`);
  const { rows: bad } = await c.query(`SELECT count(*)::int AS n FROM
    (SELECT "transferId", "currency" FROM "LedgerEntry" GROUP BY 1, 2 HAVING sum("amount") <> 0) x`);
  if (bad[0].n) throw new Error(`${bad[0].n} ledger transfers do not balance`);
  await recount(c);
  await c.query('COMMIT');
  await c.query('SET session_replication_role = DEFAULT');
  console.log('analyze...');
  await c.query('ANALYZE');
  const { rows: size } = await c.query(`SELECT pg_database_size(current_database()) AS bytes,
    (SELECT count(*) FROM "Transaction") AS tx, (SELECT count(*) FROM "Customer") AS cu`);
  console.log(
    `done: ${size[0].cu} customers, ${size[0].tx} transactions, database ${(size[0].bytes / 1048576).toFixed(0)} MiB`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
