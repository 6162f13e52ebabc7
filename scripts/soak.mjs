// `npm run soak`: the crash soak. A real production server (`npm start`) on its own embedded data
// directory or its own fresh PostgreSQL database, driven the way a demanding integrator drives it:
// mixed money operations (sandbox funding, transfers in and out, quotes with and without
// immediatelyExecute, quote execution, real-time-funding payments, cancellations) from concurrent
// clients, each with an Idempotency-Key, some sent twice (at once, later, or with a changed body);
// the server killed with SIGKILL (its whole process group) and restarted while clients retry
// every request that failed by connection error or 5xx with the same key and body; once, a row
// lock held past the 15 s transaction timeout. Then the invariants, checked through the database
// and the API (scripts/soak/judge.mjs and invariants.mjs list them); any violation is printed and
// the exit status is 1. Whatever happens — a violation, a failure, Ctrl-C — the server's process
// group is stopped and the scratch database dropped (scripts/soak/teardown.mjs). Options: --help.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Client } from './soak/http.mjs';
import { Server, ensureBuild, freePort, provisionDatabase } from './soak/server.mjs';
import { Operations, setupCustomers } from './soak/operations.mjs';
import { DUP_KINDS, Load, crashEvent, lockEvent } from './soak/load.mjs';
import { findEffects } from './soak/effects.mjs';
import { judge } from './soak/judge.mjs';
import { namedIds, report, writeRecord } from './soak/report.mjs';
import { Teardown } from './soak/teardown.mjs';
import { apiViolations, jobViolations, ledgerViolations } from './soak/invariants.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const HELP = `npm run soak -- [options]
  --ops N             keyed money operations (default 2000)
  --concurrency N     concurrent clients (default 16)
  --kills N           SIGKILL + restart of the server during the load (default 2)
  --db DB             embedded (default), postgres (a fresh database on TEST_DATABASE_URL's server,
                      default 127.0.0.1:5432, dropped afterwards) or a postgresql:// server URL
  --seed N            seed of the operation mix (default: random, printed)
  --dup-rate F        share of operations sent again under the same key (default 0.15)
  --dup-kinds LIST    which duplicates, comma-separated (default all: dup-concurrent,dup-later,
                      changed-concurrent,changed-later)
  --lock-seconds N    how long the row lock is held (default 25; 0: no lock)
  --client-timeout N  seconds a client waits for an answer before it retries (default 30)
  --lock-client-timeout N  the same for the clients acting on the locked account (default 5)
  --settle-seconds N  time the worker gets after the load before jobs are judged (default 30)
  --customers N       customers sharing the load (default 6)
  --servers N         servers (each its own npm start on its own port) sharing the one PostgreSQL
                      database (default 1; more needs --db postgres or a URL): requests go to each
                      in turn, and the kills take them in turn
  --processes N       server processes on PostgreSQL (CORRIDOR_WEB_CONCURRENCY; default: npm start's)
  --pool-size N       connections per server process on PostgreSQL (CORRIDOR_DB_POOL_SIZE; default 20)
  --keep              keep the data directory / database and the server log
  --no-build          use the existing build even when sources are newer (default: rebuild then)
Exit status: 0 no violation; 1 violations (their operations' attempts are written to a JSON file,
named in the output); 2 the soak itself failed; 3 no violation, but the row lock could not be
taken. The server and the scratch database are removed in every case, Ctrl-C included.`;

function options(argv) {
  const o = {
    ops: 2000,
    concurrency: 16,
    kills: 2,
    db: 'embedded',
    seed: randomBytes(4).readUInt32BE(0),
    dupRate: 0.15,
    dupKinds: DUP_KINDS,
    lockSeconds: 25,
    settleSeconds: 30,
    clientTimeout: 30,
    lockClientTimeout: 5,
    customers: 6,
    processes: undefined,
    servers: 1,
    poolSize: 20,
    keep: false,
    build: true,
  };
  const names = {
    '--ops': 'ops',
    '--concurrency': 'concurrency',
    '--kills': 'kills',
    '--db': 'db',
    '--seed': 'seed',
    '--dup-rate': 'dupRate',
    '--dup-kinds': 'dupKinds',
    '--lock-seconds': 'lockSeconds',
    '--settle-seconds': 'settleSeconds',
    '--client-timeout': 'clientTimeout',
    '--lock-client-timeout': 'lockClientTimeout',
    '--customers': 'customers',
    '--processes': 'processes',
    '--servers': 'servers',
    '--pool-size': 'poolSize',
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s);
    if (flag === '--help' || flag === '-h') {
      console.log(HELP);
      process.exit(0);
    }
    if (flag === '--keep') o.keep = true;
    else if (flag === '--no-build') o.build = false;
    else if (names[flag]) {
      const value = inline ?? argv[++i];
      const text = flag === '--db' || flag === '--dup-kinds';
      o[names[flag]] = flag === '--dup-kinds' ? value.split(',') : text ? value : Number(value);
      if (!text && !Number.isFinite(o[names[flag]])) throw new Error(`${flag} needs a number`);
    } else throw new Error(`unknown option ${argv[i]}\n${HELP}`);
  }
  if (!['embedded', 'postgres'].includes(o.db) && !/^postgres(ql)?:\/\//.test(o.db))
    throw new Error('--db must be embedded, postgres or a postgresql:// URL');
  if (!o.dupKinds.length || o.dupKinds.some((k) => !DUP_KINDS.includes(k)))
    throw new Error(`--dup-kinds takes a comma-separated list of ${DUP_KINDS.join(', ')}`);
  if (o.customers < 2) throw new Error('--customers must be at least 2');
  if (!Number.isInteger(o.servers) || o.servers < 1) throw new Error('--servers must be 1 or more');
  if (o.servers > 1 && o.db === 'embedded')
    throw new Error('--servers above 1 needs PostgreSQL (--db postgres): the embedded database serves one process');
  return o;
}

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const log = (m) => console.log(`[soak ${new Date().toISOString().slice(11, 19)}] ${m}`);

/** Kills spread evenly over the run (the servers in turn), the lock in the middle slot. */
function schedule(o, servers, database, customers, secret) {
  const events = Array.from({ length: o.kills }, (_, i) => crashEvent(servers[i % servers.length], i + 1));
  if (o.lockSeconds > 0) {
    const bases = servers.map((s) => s.base);
    const client = new Client(bases, 'soak-client', secret, o.lockClientTimeout * 1000);
    const lock = lockEvent({ dbUrl: database.url, customer: customers[1], seconds: o.lockSeconds, client });
    events.splice(Math.floor(events.length / 2) + (events.length % 2), 0, lock);
  }
  return events.map((e, i) => ({ ...e, at: (i + 1) / (events.length + 1) }));
}

/** The servers, on a fresh database; all torn down by `teardown` whatever happens. */
async function startServers(o, teardown) {
  const database = await provisionDatabase(o.db, { keep: o.keep });
  teardown.add(
    o.keep ? `keeping ${database.label}` : `removing ${database.label}`,
    async () => {
      await database.dispose();
      if (o.keep) log(`kept ${database.workDir} (${database.label})`);
    },
    () => database.disposeSync(),
  );
  const secret = randomBytes(24).toString('hex');
  const servers = [];
  // One after the other: the first bootstraps the platform the others then find.
  for (let i = 0; i < o.servers; i++) {
    const server = new Server({
      root,
      port: await freePort(),
      env: {
        ...database.env,
        ...(o.processes ? { CORRIDOR_WEB_CONCURRENCY: String(o.processes) } : {}),
        // More connections than npm start gives a local PostgreSQL: with its few (5 on 2 CPUs), the
        // requests blocked on the locked account hold them all and the whole service waits, so the
        // lock would test a stalled service instead of retries arriving while the first attempt waits.
        CORRIDOR_DB_POOL_SIZE: String(o.poolSize),
      },
      logFile: path.join(database.workDir, o.servers > 1 ? `server-${i + 1}.log` : 'server.log'),
      clientId: 'soak-client',
      secret,
    });
    teardown.add(
      `stopping server ${i + 1}`,
      () => server.stop(),
      () => server.killSync(),
    );
    log(`starting npm start on ${database.label}, port ${server.port} (log: ${server.logFile})`);
    log(`server ${i + 1} answering after ${await server.start()} ms`);
    servers.push(server);
  }
  return { database, servers, secret };
}

/** The invariants after the run, through the database (its own connection) and the API. */
async function check({ o, runId, database, servers, load, client, customers }) {
  const conn = new pg.Client({ connectionString: database.url, connectionTimeoutMillis: 30_000 });
  conn.on('error', (err) => log(`judge connection: ${err.message}`)); // surfaces at the next query
  await conn.connect();
  try {
    // Jobs claimed before any server's last (re)start may be that server's dead claims.
    const lastStart = Math.max(...servers.map((s) => s.starts.at(-1)));
    const jobs = await jobViolations(conn, lastStart, o.settleSeconds);
    const effects = await findEffects(conn, runId, load.all);
    const keyViolations = load.all.flatMap((op) => judge(op, effects.get(op.index) ?? []));
    const ledger = await ledgerViolations(conn);
    const api = await apiViolations(client, customers, namedIds(load.all));
    return { jobs, effects, violations: [...keyViolations, ...ledger, ...jobs.violations, ...api] };
  } finally {
    await conn.end().catch(() => {});
  }
}

async function main(teardown) {
  const o = options(process.argv.slice(2));
  const runId = o.seed.toString(36);
  log(
    `seed ${o.seed}: ${o.ops} operations, ${o.concurrency} clients, ${o.kills} kill(s), duplicates ${o.dupRate * 100}% (${o.dupKinds.join(', ')}), lock ${o.lockSeconds} s, database ${o.db}, ${o.servers} server(s)`,
  );
  if (o.build) ensureBuild(root, log);
  const { database, servers, secret } = await startServers(o, teardown);
  const bases = servers.map((s) => s.base);
  const client = new Client(bases, 'soak-client', secret, o.clientTimeout * 1000);
  const customers = await setupCustomers(client, o.customers);
  const rng = mulberry32(o.seed);
  const ops = new Operations({ runId, rng, customers });
  const { concurrency, dupRate, dupKinds } = o;
  const load = new Load({ client, ops, rng, total: o.ops, concurrency, dupRate, dupKinds, log });
  const t0 = Date.now();
  const progress = setInterval(() => log(`${load.finished}/${o.ops} operations answered`), 10_000);
  await load.runAll(schedule(o, servers, database, customers, secret)).finally(() => clearInterval(progress));
  const loadMs = Date.now() - t0;
  log(`load done in ${(loadMs / 1000).toFixed(1)} s; letting the worker settle (up to ${o.settleSeconds} s)`);
  const { jobs, effects, violations } = await check({ o, runId, database, servers, load, client, customers });
  report({ o, load, loadMs, jobs, effects, violations, servers });
  if (violations.length)
    log(`every attempt of the operations concerned: ${writeRecord({ o, load, effects, violations })}`);
  const lockFailed = load.events.some((e) => e.kind === 'lock' && e.failed);
  return violations.length ? 1 : lockFailed ? 3 : 0;
}

// Exit status: 0 no violation, 1 violations, 2 the soak itself failed, 3 no violation but the
// scheduled row lock could not be taken (the run was incomplete); signals: 128 + the signal.
const teardown = new Teardown(log);
teardown.install();
main(teardown).then(
  (code) => teardown.signal || teardown.exit(code),
  (err) => {
    if (teardown.signal) return; // interrupted: the signal handler is tearing down and exits
    console.error(`[soak] failed: ${err.stack ?? err.message}`);
    teardown.exit(2);
  },
);
