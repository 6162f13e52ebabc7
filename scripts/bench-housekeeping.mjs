// `npm run bench -- --housekeeping [--rows N]`: does housekeeping starve requests? (issue 28
// point 9). On a fresh PostgreSQL database (BENCH_DATABASE_URL / TEST_DATABASE_URL's server,
// dropped afterwards): a customer with some payments, then N settled webhook events (1,000,000 by
// default) past the retention, written straight into the database while the server is stopped.
// The server then starts and its worker's first retention pass begins on that backlog at once;
// meanwhile the bench sends requests one after the other (GET /customers/{id}, GET
// /customers?limit=20, GET /transactions?customerId=) until the backlog is gone, then the same
// requests as many times again on the now quiet database. Prints p50 and p99 of each, during and
// after, and the p99 ratio (the issue asks for within 2x). Timings live here, never in tests.
import pg from 'pg';
import { migrate } from './migrate.mjs';
import { api, startServer } from './bench/server.mjs';

const argv = process.argv.slice(2);
const rowsAt = argv.indexOf('--rows');
const ROWS = rowsAt >= 0 ? Number(argv[rowsAt + 1]) : 1_000_000;
if (!Number.isInteger(ROWS) || ROWS < 1) throw new Error('--rows needs a whole number of events');
const DAY = 24 * 3600_000;
const base =
  process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/test';
const log = (m) => console.log(`[housekeeping ${new Date().toISOString().slice(11, 19)}] ${m}`);

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const ms = (v) => `${v.toFixed(1)} ms`;

async function admin(sql) {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** A customer with a few payments (so the transaction list has rows to find); returns the paths to time. */
async function prepare(server) {
  const customer = await api(server.base, 'POST', '/customers', {
    customerType: 'INDIVIDUAL',
    fullName: 'Bench Housekeeping',
    currencies: ['USD'],
  });
  const accounts = await api(
    server.base,
    'GET',
    `/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}`,
  );
  const usd = accounts.data.find((a) => a.balance.currency.code === 'USD');
  for (let i = 0; i < 20; i++)
    await api(server.base, 'POST', `/sandbox/internal-accounts/${usd.id}/fund`, { amount: 1000 + i });
  const id = encodeURIComponent(customer.id);
  return [
    ['GET /customers/{id}', `/customers/${id}`],
    ['GET /customers?limit=20', '/customers?limit=20'],
    ['GET /transactions?customerId=', `/transactions?customerId=${id}`],
  ];
}

/** The backlog: ROWS settled events 100 days old (the retention keeps 90), in chunks. */
async function seed(url, platformId) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const at = new Date(Date.now() - 100 * DAY).toISOString();
    for (let done = 0; done < ROWS; done += 100_000) {
      await c.query(
        `INSERT INTO "Event" ("id", "platformId", "type", "payload", "createdAt", "status", "subjectId")
         SELECT 'Webhook:bench-' || $1::int || '-' || g, $2, 'CUSTOMER.UPDATED', '{"id":"x","type":"CUSTOMER.UPDATED"}',
           $3::timestamp(3), 'DELIVERED', 'Customer:bench-' || (g % 1000)
         FROM generate_series(1, $4::int) g`,
        [done, platformId, at, Math.min(100_000, ROWS - done)],
      );
    }
    await c.query('ANALYZE "Event"');
  } finally {
    await c.end();
  }
}

async function backlogLeft(c) {
  const cutoff = new Date(Date.now() - 90 * DAY).toISOString();
  const r = await c.query(
    `SELECT EXISTS (SELECT 1 FROM "Event" WHERE "createdAt" < $1::timestamp(3) AND "status" <> 'PENDING') AS left`,
    [cutoff],
  );
  return r.rows[0].left;
}

/** Sends the requests in turn while `going()` holds (or `count` rounds); latencies per operation. */
async function measure(server, ops, { going, rounds }) {
  const times = new Map(ops.map(([name]) => [name, []]));
  for (let round = 0; rounds === undefined ? going() : round < rounds; round++) {
    for (const [name, path] of ops) {
      const t = performance.now();
      await api(server.base, 'GET', path);
      times.get(name).push(performance.now() - t);
    }
  }
  return times;
}

export async function benchHousekeeping() {
  const name = `corridor_bench_hk_${process.pid}_${Date.now()}`;
  await admin(`CREATE DATABASE ${name} TEMPLATE template0`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const env = { DATABASE_URL: url.toString() };
  let server;
  try {
    await migrate(url.toString());
    server = await startServer('housekeeping', env);
    const ops = await prepare(server);
    const config = await api(server.base, 'GET', '/config');
    await server.stop();
    server = undefined;
    log(`seeding ${ROWS.toLocaleString('en')} settled events 100 days old`);
    await seed(url.toString(), config.id);

    const watch = new pg.Client({ connectionString: url.toString() });
    await watch.connect();
    let left = true;
    const poll = setInterval(async () => (left = await backlogLeft(watch).catch(() => left)), 1000);
    try {
      // The worker's first retention pass starts with its first tick, a second after start.
      server = await startServer('housekeeping', env);
      const t0 = Date.now();
      log('server started: measuring while the retention pass works off the backlog');
      const during = await measure(server, ops, { going: () => left });
      const pruneSeconds = (Date.now() - t0) / 1000;
      const rounds = during.get(ops[0][0]).length;
      log(
        `backlog gone after ${pruneSeconds.toFixed(0)} s (${rounds} rounds of requests); measuring as many on the quiet database`,
      );
      const after = await measure(server, ops, { rounds: Math.max(rounds, 100) });
      console.log(`\n### Housekeeping: ${ROWS.toLocaleString('en')} events pruned while requests ran (PostgreSQL)\n`);
      console.log(
        `Pruned in ${pruneSeconds.toFixed(0)} s (${Math.round(ROWS / pruneSeconds).toLocaleString('en')} rows/s).\n`,
      );
      console.log('| Request | p50 during | p99 during | p50 after | p99 after | p99 during / after |');
      console.log('|---|---|---|---|---|---|');
      for (const [op] of ops) {
        const d = during.get(op).sort((a, b) => a - b);
        const a = after.get(op).sort((x, y) => x - y);
        const ratio = quantile(d, 0.99) / quantile(a, 0.99);
        console.log(
          `| ${op} | ${ms(quantile(d, 0.5))} | ${ms(quantile(d, 0.99))} | ${ms(quantile(a, 0.5))} | ${ms(quantile(a, 0.99))} | ${ratio.toFixed(2)}x${ratio <= 2 ? '' : ' (over 2x)'} |`,
        );
      }
    } finally {
      clearInterval(poll);
      await watch.end().catch(() => {});
    }
  } finally {
    await server?.stop();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchHousekeeping();
