// `npm run bench`: speed of the running service over real HTTP, on the embedded database and on
// PostgreSQL (when reachable). For each: a production server (scripts/start.mjs, which runs
// scripts/server.mjs with NODE_ENV=production) is started on a fresh database with known
// credentials, then
//   - bare route:    GET /api/health (Next.js + HTTP, a constant JSON body, no database)
//   - read / write:  GET /customers/{id} and POST /customers, with their ratio to the bare route
//   - payment flow:  POST /quotes + POST /quotes/{id}/execute (internal USD -> external EUR
//                    account)
// each at 16 concurrent
// and it prints requests or flows per second with p50/p99 latency, and where a flow's time goes:
// SQL statements and time waiting on the database (counted at the driver inside the server), CPU
// time of the server processes (the bare route's share is the HTTP layer) and of the database.
// Tests never assert timings; this is the place for them. `npm run bench -- --lists` times the
// list operations on a seeded database instead (scripts/bench-lists.mjs, scripts/seed.mjs).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Connection } from './bench-client.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 16);
const SECONDS = Number(process.env.BENCH_SECONDS || 15);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS || 3);
const ID = 'bench-client';
const SECRET = 'bench-secret-0123456789abcdef0123456789abcdef';
const AUTH = `Basic ${Buffer.from(`${ID}:${SECRET}`).toString('base64')}`;

function percentile(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;
}

async function startServer(label, env) {
  const port = 3900 + Math.floor(Math.random() * 90);
  const child = spawn(process.execPath, [path.join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      CORRIDOR_CLIENT_ID: ID,
      CORRIDOR_CLIENT_SECRET: SECRET,
      CORRIDOR_BENCH_STATS: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    try {
      const r = await fetch(`${base}/api/2025-10-13/config`, { headers: { authorization: AUTH } });
      if (r.status === 200) return { base, pid: child.pid, stop: () => stopServer(child), log: () => log };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  stopServer(child);
  throw new Error(`[${label}] server did not start:\n${log}`);
}

function stopServer(child) {
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
  return new Promise((r) => setTimeout(r, 1500));
}

async function api(base, method, p, body) {
  const res = await fetch(`${base}/api/2025-10-13${p}`, {
    method,
    headers: { authorization: AUTH, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${p} -> ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** The same call over one of the bench's raw keep-alive connections. */
async function call(conn, method, p, body) {
  const res = await conn.request(method, `/api/2025-10-13${p}`, { authorization: AUTH }, body);
  if (res.status >= 300) throw new Error(`${method} ${p} -> ${res.status} ${res.body}`);
  return res.body ? JSON.parse(res.body) : undefined;
}

async function setup(base) {
  const customer = await api(base, 'POST', '/customers', {
    customerType: 'INDIVIDUAL',
    fullName: 'Bench Sender',
    currencies: ['USD', 'EUR'],
  });
  const accounts = await api(base, 'GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}`);
  const usd = accounts.data.find((a) => a.balance.currency.code === 'USD' && a.type === 'INTERNAL_FIAT');
  // Large enough for every flow of the run.
  for (let i = 0; i < 50; i++)
    await api(base, 'POST', `/sandbox/internal-accounts/${usd.id}/fund`, { amount: 100000000000 });
  const ext = await api(base, 'POST', '/customers/external-accounts', {
    customerId: customer.id,
    currency: 'EUR',
    accountInfo: {
      accountType: 'EUR_ACCOUNT',
      iban: 'DE89370400440532013123',
      beneficiary: {
        beneficiaryType: 'INDIVIDUAL',
        fullName: 'Bench Receiver',
        countryOfResidence: 'DE',
        address: { line1: 'Hauptstr. 1', postalCode: '10115', country: 'DE' },
      },
    },
  });
  return { source: usd.id, destination: ext.id, customerId: customer.id };
}

async function load(base, seconds, fn) {
  const latencies = [];
  let errors = 0;
  let firstError;
  const u = new URL(base);
  const conns = await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      const c = new Connection(u.hostname, Number(u.port));
      await c.connect();
      return c;
    }),
  );
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    conns.map(async (conn) => {
      while (Date.now() < end) {
        const t = performance.now();
        try {
          await fn(conn);
          latencies.push(performance.now() - t);
        } catch (err) {
          errors++;
          firstError ??= err.message;
        }
      }
    }),
  );
  for (const c of conns) c.close();
  latencies.sort((a, b) => a - b);
  return {
    count: latencies.length,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
    firstError,
  };
}

/** Statement counters and CPU time summed over the server processes (each answers for itself). */
async function stats(base) {
  const byPid = new Map();
  for (let i = 0; i < 40; i++) {
    const r = await fetch(`${base}/api/bench-stats`);
    if (!r.ok) return null;
    const s = await r.json();
    byPid.set(s.pid, s);
  }
  const sum = { statements: 0, dbMs: 0, transactions: 0, cpuMs: 0, processes: byPid.size };
  for (const s of byPid.values()) for (const k of ['statements', 'dbMs', 'transactions', 'cpuMs']) sum[k] += s[k];
  sum.databaseCpuMs = databaseCpuMs();
  return sum;
}

/**
 * CPU time (ms) of the database processes on this machine, when they can be seen (Linux /proc):
 * the PostgreSQL server's processes, or the process hosting the embedded database.
 */
let embeddedHost = null;
function databaseCpuMs() {
  let total = 0;
  try {
    const tick = 10; // ms per clock tick (USER_HZ 100)
    for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      try {
        const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        if (!(cmd.startsWith('postgres') || Number(pid) === embeddedHost)) continue;
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        total += (Number(f[11]) + Number(f[12])) * tick;
      } catch {
        /* gone */
      }
    }
  } catch {
    return null;
  }
  return total;
}

async function backlog(base) {
  return (await api(base, 'GET', '/transactions?status=PROCESSING&limit=1')).totalCount;
}

/** Waits until the worker has settled every payout in flight; returns the seconds it took. */
async function drained(base) {
  const start = Date.now();
  while ((await backlog(base)) > 0 && Date.now() - start < 120_000) await new Promise((r) => setTimeout(r, 250));
  return (Date.now() - start) / 1000;
}

async function benchDatabase(label, env) {
  const server = await startServer(label, env);
  embeddedHost = env.DATABASE_URL ? null : server.pid;
  try {
    const { source, destination, customerId } = await setup(server.base);
    const bare = async (conn) => {
      const r = await conn.request('GET', '/api/health', {});
      if (r.status !== 200) throw new Error(`health ${r.status}`);
    };
    const quoteBody = {
      source: { sourceType: 'ACCOUNT', accountId: source },
      destination: { destinationType: 'ACCOUNT', accountId: destination },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1000,
    };
    const flow = async (conn) => {
      const q = await call(conn, 'POST', '/quotes', quoteBody);
      await call(conn, 'POST', `/quotes/${q.id}/execute`);
    };
    await load(server.base, WARMUP_SECONDS, bare);
    const bareBefore = await stats(server.base);
    const bareResult = await load(server.base, SECONDS, bare);
    const bareAfter = await stats(server.base);
    // The foundation's read and write beside the bare route: one customer read, one created.
    const getCustomer = (conn) => call(conn, 'GET', `/customers/${encodeURIComponent(customerId)}`);
    const postCustomer = (conn) =>
      call(conn, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Bench Person' });
    await load(server.base, WARMUP_SECONDS, getCustomer);
    const getResult = await load(server.base, SECONDS, getCustomer);
    await load(server.base, WARMUP_SECONDS, postCustomer);
    const postResult = await load(server.base, SECONDS, postCustomer);
    await load(server.base, WARMUP_SECONDS, flow);
    await drained(server.base);
    const before = await stats(server.base);
    const flowResult = await load(server.base, SECONDS, flow);
    // The worker settles payouts behind the API (each after its sandbox delay); the flow's cost
    // includes its settlement, so the counters are read once the worker has caught up.
    const pending = await backlog(server.base);
    const drainSeconds = await drained(server.base);
    const after = await stats(server.base);
    const n = flowResult.count;
    const per = (k) => (after[k] - before[k]) / n;
    return {
      label,
      processes: after?.processes,
      bare: {
        ...bareResult,
        serverCpuMs: bareAfter && bareResult.count ? (bareAfter.cpuMs - bareBefore.cpuMs) / bareResult.count : null,
      },
      getCustomer: getResult,
      postCustomer: postResult,
      flow: flowResult,
      perFlow:
        before && after && n
          ? {
              statements: per('statements'),
              transactions: per('transactions'),
              dbMs: per('dbMs'),
              serverCpuMs: per('cpuMs'),
              databaseCpuMs: after.databaseCpuMs === null ? null : per('databaseCpuMs'),
            }
          : null,
      drain: { pending, seconds: drainSeconds },
    };
  } finally {
    await server.stop();
  }
}

function report(r) {
  const f = (n) => n.toFixed(1);
  const f2 = (n) => n.toFixed(2);
  console.log(
    `\n== ${r.label} (${CONCURRENCY} concurrent, ${SECONDS} s each, ${r.processes ?? '?'} server process(es), ${availableParallelism()} CPUs) ==`,
  );
  console.log(
    `bare route   GET /api/health         ${f(r.bare.perSecond)} req/s   p50 ${f(r.bare.p50)} ms   p99 ${f(r.bare.p99)} ms   errors ${r.bare.errors}${r.bare.serverCpuMs !== null ? `   server CPU ${f2(r.bare.serverCpuMs)} ms/request` : ''}`,
  );
  const ratio = (x) => (r.bare.perSecond ? ` = ${(x.perSecond / r.bare.perSecond).toFixed(2)} x bare` : '');
  console.log(
    `read         GET /customers/{id}     ${f(r.getCustomer.perSecond)} req/s   p50 ${f(r.getCustomer.p50)} ms   p99 ${f(r.getCustomer.p99)} ms   errors ${r.getCustomer.errors}${ratio(r.getCustomer)}`,
  );
  console.log(
    `write        POST /customers         ${f(r.postCustomer.perSecond)} req/s   p50 ${f(r.postCustomer.p50)} ms   p99 ${f(r.postCustomer.p99)} ms   errors ${r.postCustomer.errors}${ratio(r.postCustomer)}${r.postCustomer.firstError ? ` (${r.postCustomer.firstError.slice(0, 200)})` : ''}`,
  );
  console.log(
    `payment flow quote + execute          ${f(r.flow.perSecond)} flows/s p50 ${f(r.flow.p50)} ms   p99 ${f(r.flow.p99)} ms   errors ${r.flow.errors}${r.flow.firstError ? ` (${r.flow.firstError.slice(0, 200)})` : ''}`,
  );
  if (r.perFlow) {
    const p = r.perFlow;
    console.log(
      `per flow     ${f(p.statements)} SQL statements (both requests and the settlement), ${f(p.transactions)} interactive transactions, ${f(p.dbMs)} ms waiting on the database`,
    );
    const http = r.bare.serverCpuMs !== null ? 2 * r.bare.serverCpuMs : null;
    console.log(
      `  CPU        server ${f2(p.serverCpuMs)} ms${http !== null ? ` (HTTP layer ~${f2(http)} ms for the two requests, application + Prisma + driver + worker ~${f2(p.serverCpuMs - http)} ms)` : ''}${p.databaseCpuMs !== null ? `, database ${f2(p.databaseCpuMs)} ms` : ''}`,
    );
  }
  console.log(
    `settlement   ${r.drain.pending} payouts in flight when the load stopped, all settled ${f(r.drain.seconds)} s later`,
  );
}

// `--lists`: the list operations on a seeded database instead (scripts/bench-lists.mjs).
if (process.argv.includes('--lists')) {
  const { benchLists } = await import('./bench-lists.mjs');
  await benchLists();
  process.exit(0);
}

// BENCH_DATABASES=embedded or =postgres runs one of the two.
const only = process.env.BENCH_DATABASES;
if (!only || only === 'embedded') {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'corridor-bench-'));
  try {
    report(await benchDatabase('embedded database (PGlite)', { CORRIDOR_DATA_DIR: dataDir, DATABASE_URL: '' }));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const pgBase =
  process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/test';
let created;
if (!only || only === 'postgres')
  try {
    const admin = new pg.Client({ connectionString: pgBase, connectionTimeoutMillis: 3000 });
    await admin.connect();
    created = `corridor_bench_${process.pid}`;
    await admin.query(`CREATE DATABASE ${created}`);
    await admin.end();
  } catch (err) {
    console.log(`\nPostgreSQL not reachable at ${pgBase} (${err.message}); skipped.`);
  }
if (created) {
  const url = new URL(pgBase);
  url.pathname = `/${created}`;
  try {
    report(await benchDatabase('PostgreSQL', { DATABASE_URL: url.toString() }));
  } finally {
    const admin = new pg.Client({ connectionString: pgBase });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${created} WITH (FORCE)`);
    await admin.end();
  }
}
