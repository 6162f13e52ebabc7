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
// `npm run bench -- --against <folder>` runs another built checkout (e.g. an old commit's worktree
// after `npm install && npm run build` there) in the same run, interleaved in pairs, and prints
// this build's ratios; BENCH_STATEMENTS=1 lists each statement's executions and time per flow.
// CORRIDOR_CPU_PROF_DIR=<dir> leaves a CPU profile of every server process in <dir> (scripts/start.mjs).
// The pieces live in scripts/bench/: server.mjs (server and API), measure.mjs (load and
// counters), report.mjs (the printed figures).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { SECONDS, WARMUP_SECONDS, backlog, drained, load, stats } from './bench/measure.mjs';
import { report } from './bench/report.mjs';
import { call, setup, startServer } from './bench/server.mjs';

async function benchDatabase(label, env, appDir) {
  const server = await startServer(label, { ...env, CORRIDOR_BENCH_STATS: '1' }, appDir);
  const embeddedHost = env.DATABASE_URL ? null : server.pid;
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
    const bareBefore = await stats(server.base, embeddedHost);
    const bareResult = await load(server.base, SECONDS, bare);
    const bareAfter = await stats(server.base, embeddedHost);
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
    const before = await stats(server.base, embeddedHost);
    const flowResult = await load(server.base, SECONDS, flow);
    // The worker settles payouts behind the API (each after its sandbox delay); the flow's cost
    // includes its settlement, so the counters are read once the worker has caught up.
    const pending = await backlog(server.base);
    const drainSeconds = await drained(server.base);
    const after = await stats(server.base, embeddedHost);
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
      // Per flow, by statement text (servers that count them): executions and ms until the answer.
      statements: Object.entries(after?.byText ?? {})
        .map(([text, v]) => ({
          text,
          n: (v.n - (before?.byText?.[text]?.n ?? 0)) / n,
          ms: (v.ms - (before?.byText?.[text]?.ms ?? 0)) / n,
        }))
        .filter((s) => s.n > 0)
        .sort((a, b) => b.ms - a.ms),
    };
  } finally {
    await server.stop();
  }
}

// `--housekeeping [--rows N]`: request latency while a retention pass prunes a large backlog,
// against the same requests once it is done (scripts/bench-housekeeping.mjs).
if (process.argv.includes('--housekeeping')) {
  const { benchHousekeeping } = await import('./bench-housekeeping.mjs');
  await benchHousekeeping();
  process.exit(0);
}

// `--lists`: the list operations on a seeded database instead (scripts/bench-lists.mjs).
if (process.argv.includes('--lists')) {
  const { benchLists } = await import('./bench-lists.mjs');
  await benchLists();
  process.exit(0);
}

// BENCH_DATABASES=embedded or =postgres runs one of the two.
const only = process.env.BENCH_DATABASES;
const pgBase =
  process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/test';

/** One run on a fresh database of the kind named ('embedded' or 'postgres'); null if PostgreSQL is not reachable. */
async function benchOn(kind, appDir, label) {
  if (kind === 'embedded') {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'corridor-bench-'));
    try {
      return await benchDatabase(
        label ?? 'embedded database (PGlite)',
        { CORRIDOR_DATA_DIR: dataDir, DATABASE_URL: '' },
        appDir,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  let created;
  try {
    const admin = new pg.Client({ connectionString: pgBase, connectionTimeoutMillis: 3000 });
    await admin.connect();
    created = `corridor_bench_${process.pid}_${Date.now()}`;
    await admin.query(`CREATE DATABASE ${created} TEMPLATE template0`);
    await admin.end();
  } catch (err) {
    console.log(`\nPostgreSQL not reachable at ${pgBase} (${err.message}); skipped.`);
    return null;
  }
  const url = new URL(pgBase);
  url.pathname = `/${created}`;
  try {
    return await benchDatabase(label ?? 'PostgreSQL', { DATABASE_URL: url.toString() }, appDir);
  } finally {
    const admin = new pg.Client({ connectionString: pgBase });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${created} WITH (FORCE)`);
    await admin.end();
  }
}

const kinds = only ? [only] : ['embedded', 'postgres'];
const againstAt = process.argv.indexOf('--against');
if (againstAt === -1) {
  for (const kind of kinds) {
    const r = await benchOn(kind);
    if (r) report(r);
  }
} else {
  // `--against <folder>`: another build's checkout (built: `npm run build` there) runs in the same
  // bench, interleaved in pairs per database (BENCH_PAIRS, default 2), the order alternating from
  // pair to pair so that neither side always runs first on a warmer or quieter machine; each pair
  // prints both reports and this build's ratios to the other.
  const other = path.resolve(process.argv[againstAt + 1] ?? '');
  if (!existsSync(path.join(other, 'scripts', 'start.mjs')) || !existsSync(path.join(other, '.next')))
    throw new Error(`--against ${other}: not a built Corridor checkout (scripts/start.mjs and .next/ expected)`);
  const pairs = Number(process.env.BENCH_PAIRS || 2);
  const rows = [];
  for (let i = 0; i < pairs; i++)
    for (const kind of kinds) {
      const sides = i % 2 === 0 ? ['this', 'other'] : ['other', 'this'];
      const got = {};
      for (const side of sides) {
        got[side] = await benchOn(
          kind,
          side === 'this' ? undefined : other,
          `${kind} - ${side === 'this' ? 'this build' : other}`,
        );
        if (got[side]) report(got[side]);
      }
      if (got.this && got.other) rows.push(pairRow(i + 1, kind, got.this, got.other));
    }
  console.log(`\n== pairs: this build / ${other} ==`);
  for (const r of rows) console.log(r);
}

function pairRow(pair, kind, a, b) {
  const f = (n) => (n === null || n === undefined ? '?' : n.toFixed(2));
  const cpu = (r) => (r.perFlow ? `${f(r.perFlow.serverCpuMs)} + ${f(r.perFlow.databaseCpuMs)} ms` : '?');
  const post = (r) => r.postCustomer.perSecond / r.bare.perSecond;
  return [
    `pair ${pair} ${kind.padEnd(8)}`,
    `flows/s ${a.flow.perSecond.toFixed(1)} / ${b.flow.perSecond.toFixed(1)} = ${f(a.flow.perSecond / b.flow.perSecond)}x`,
    `p99 ${a.flow.p99.toFixed(1)} / ${b.flow.p99.toFixed(1)} ms`,
    `CPU/flow (server + db) ${cpu(a)} / ${cpu(b)}`,
    `statements/flow ${f(a.perFlow?.statements)} / ${f(b.perFlow?.statements)}`,
    `POST /customers ${f(post(a))} / ${f(post(b))} x bare`,
  ].join('   ');
}
