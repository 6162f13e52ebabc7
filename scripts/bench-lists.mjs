// `npm run bench -- --lists` (or `node scripts/bench-lists.mjs`): every list operation timed on a
// seeded database (`npm run seed`), the first page and a page 500k rows deep, with and without
// each filter the reference lists, then the console's list pages (scripts/bench-console.mjs). Database: DATABASE_URL (PostgreSQL), else the embedded one under
// CORRIDOR_DATA_DIR. A production server is started on it (CORRIDOR_APP_DIR: the checkout to run,
// this one by default, so an older commit can be measured on the same data).
// For each operation: p50 of sequential requests, then requests per second and p50 at
// BENCH_LIST_CONCURRENCY (8) for BENCH_LIST_SECONDS (3). Prints a markdown table and the database
// size per payment.
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Connection } from './bench-client.mjs';
import { resolveDatabase } from './embedded-db.mjs';
import { startServer } from './bench/server.mjs';
import { consolePages, STAFF_ENV, staffCookie } from './bench-console.mjs';

const SEQUENTIAL = Number(process.env.BENCH_LIST_SEQUENTIAL || 15);
const CONCURRENCY = Number(process.env.BENCH_LIST_CONCURRENCY || 8);
const SECONDS = Number(process.env.BENCH_LIST_SECONDS || 3);
const DEEP = Number(process.env.BENCH_LIST_DEEP || 500_000);

const cursorAt = (row) => Buffer.from(JSON.stringify([row.createdAt.toISOString(), row.id])).toString('base64url');
const q = encodeURIComponent;

/** Sample values for the filters, read from the database before the server starts. */
async function samples() {
  const database = await resolveDatabase();
  const c = new pg.Client({ connectionString: database.url });
  await c.connect();
  try {
    const one = async (sql, params = []) => (await c.query(sql, params)).rows[0];
    const total = Number((await one(`SELECT count(*) AS n FROM "Transaction"`)).n);
    const customers = Number((await one(`SELECT count(*) AS n FROM "Customer"`)).n);
    const t = await one(
      `SELECT "customerId", "platformCustomerId", "internalAccountId", "externalAccountId",
      "source" ->> 'accountId' AS sender, "destination" ->> 'accountId' AS receiver FROM "Transaction"
      WHERE "customerId" IS NOT NULL ORDER BY "createdAt" DESC LIMIT 1 OFFSET $1`,
      [Math.min(1000, Math.floor(total / 2))],
    );
    const deep = Math.min(DEEP, Math.max(0, total - 50));
    const deepRow = await one(
      `SELECT "createdAt", "id" FROM "Transaction" ORDER BY "createdAt" DESC, "id" DESC OFFSET $1 LIMIT 1`,
      [deep],
    );
    const mid = await one(`SELECT "createdAt" FROM "Transaction" ORDER BY "createdAt" DESC OFFSET $1 LIMIT 1`, [
      Math.floor(total / 2),
    ]);
    const cust = await one(
      `SELECT "id", "platformCustomerId", "umaAddress" FROM "Customer" ORDER BY "createdAt" DESC OFFSET $1 LIMIT 1`,
      [Math.min(100, Math.floor(customers / 2))],
    );
    const custDeep = await one(
      `SELECT "createdAt", "id" FROM "Customer" WHERE "deletedAt" IS NULL ORDER BY "createdAt" DESC, "id" DESC OFFSET $1 LIMIT 1`,
      [Math.floor(customers / 2)],
    );
    const size = await one(`SELECT pg_database_size(current_database()) AS bytes`);
    const tables = (
      await c.query(`SELECT relname AS name, pg_total_relation_size(oid) AS bytes FROM pg_class
        WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace ORDER BY 2 DESC LIMIT 8`)
    ).rows;
    return { t, total, deep, deepRow, mid, cust, custDeep, bytes: Number(size.bytes), tables };
  } finally {
    await c.end();
    await database.stop();
  }
}

function operations(s) {
  const since = s.mid.createdAt.toISOString();
  return [
    ['GET /customers?limit=20', '/customers?limit=20'],
    ['customers cursor half way', `/customers?limit=20&cursor=${cursorAt(s.custDeep)}`],
    ['GET /customers?platformCustomerId', `/customers?platformCustomerId=${q(s.cust.platformCustomerId)}`],
    ['GET /customers?umaAddress', `/customers?umaAddress=${q(s.cust.umaAddress)}`],
    ['GET /customers?customerType=INDIVIDUAL', '/customers?customerType=INDIVIDUAL'],
    ['GET /transactions?limit=20', '/transactions?limit=20'],
    ['GET /transactions?status=COMPLETED', '/transactions?status=COMPLETED'],
    [`transactions cursor ${s.deep} rows deep`, `/transactions?limit=20&cursor=${cursorAt(s.deepRow)}`],
    ['GET /transactions?customerId', `/transactions?customerId=${q(s.t.customerId)}`],
    ['GET /transactions?platformCustomerId', `/transactions?platformCustomerId=${q(s.t.platformCustomerId)}`],
    ['GET /transactions?reference (none match)', '/transactions?reference=no-such-reference'],
    ['GET /transactions?accountIdentifier', `/transactions?accountIdentifier=${q(s.t.externalAccountId)}`],
    ['GET /transactions?senderAccountIdentifier', `/transactions?senderAccountIdentifier=${q(s.t.sender)}`],
    ['GET /transactions?receiverAccountIdentifier', `/transactions?receiverAccountIdentifier=${q(s.t.receiver)}`],
    ['GET /transactions?type=OUTGOING', '/transactions?type=OUTGOING'],
    ['GET /transactions?startDate (half)', `/transactions?startDate=${q(since)}`],
    ['GET /customers/internal-accounts', '/customers/internal-accounts'],
    ['GET /customers/internal-accounts?customerId', `/customers/internal-accounts?customerId=${q(s.cust.id)}`],
    ['GET /customers/external-accounts', '/customers/external-accounts'],
    ['GET /customers/external-accounts?customerId', `/customers/external-accounts?customerId=${q(s.cust.id)}`],
    ['GET /platform/internal-accounts', '/platform/internal-accounts'],
    ['GET /tokens', '/tokens'],
    ['GET /verifications', '/verifications'],
    ['GET /documents', '/documents'],
    ['GET /beneficial-owners?customerId', `/beneficial-owners?customerId=${q(s.cust.id)}`],
    ['GET /agents', '/agents'],
    ['GET /agents/approvals', '/agents/approvals'],
    ['GET /cards', '/cards'],
    ['GET /stablecoins', '/stablecoins'],
  ];
}

async function measure(base, headers, path) {
  const u = new URL(base);
  const conn = new Connection(u.hostname, Number(u.port));
  await conn.connect();
  const seq = [];
  let status = 0;
  for (let i = 0; i < SEQUENTIAL; i++) {
    const t = performance.now();
    const r = await conn.request('GET', path, headers);
    seq.push(performance.now() - t);
    status = r.status;
  }
  conn.close();
  seq.sort((a, b) => a - b);
  const conns = await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      const c = new Connection(u.hostname, Number(u.port));
      await c.connect();
      return c;
    }),
  );
  const lat = [];
  const end = Date.now() + SECONDS * 1000;
  await Promise.all(
    conns.map(async (c) => {
      while (Date.now() < end) {
        const t = performance.now();
        await c.request('GET', path, headers);
        lat.push(performance.now() - t);
      }
    }),
  );
  for (const c of conns) c.close();
  lat.sort((a, b) => a - b);
  return {
    status,
    p50: seq[Math.floor(seq.length / 2)],
    max: seq[seq.length - 1],
    perSecond: lat.length / SECONDS,
    loadP50: lat[Math.floor(lat.length / 2)] ?? 0,
  };
}

export async function benchLists(label = process.env.BENCH_LIST_LABEL || '') {
  const s = await samples();
  // The seed spreads a year of events; the server's retention would spend the run deleting the
  // older ones (a one-time backlog), so the timings would measure that instead of the lists.
  const env = {
    ...STAFF_ENV,
    CORRIDOR_EVENT_RETENTION_DAYS: process.env.CORRIDOR_EVENT_RETENTION_DAYS || 'never',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  };
  const server = await startServer('lists', env);
  const rows = [];
  try {
    const api = { authorization: server.auth };
    for (const [name, path] of operations(s))
      rows.push([name, await measure(server.base, api, `/api/2025-10-13${path}`)]);
    const staff = { cookie: await staffCookie(server.base) };
    for (const [name, path] of consolePages(s)) rows.push([name, await measure(server.base, staff, path)]);
  } finally {
    await server.stop();
  }
  const f = (n) => (n < 10 ? n.toFixed(2) : n.toFixed(1));
  console.log(
    `\n## ${label} ${s.total} transactions; ${SEQUENTIAL} sequential, then ${CONCURRENCY} concurrent for ${SECONDS} s`,
  );
  console.log('| Operation | HTTP | p50 ms (max) | req/s at ' + CONCURRENCY + ' | p50 ms at ' + CONCURRENCY + ' |');
  console.log('|---|---|---|---|---|');
  for (const [name, r] of rows)
    console.log(`| ${name} | ${r.status} | ${f(r.p50)} (${f(r.max)}) | ${r.perSecond.toFixed(0)} | ${f(r.loadP50)} |`);
  console.log(
    `\ndatabase ${(s.bytes / 1048576).toFixed(0)} MiB = ${(s.bytes / Math.max(1, s.total) / 1024).toFixed(1)} KiB per payment; largest tables: ${s.tables
      .map((t) => `${t.name} ${(Number(t.bytes) / 1048576).toFixed(0)} MiB`)
      .join(', ')}`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await benchLists();
