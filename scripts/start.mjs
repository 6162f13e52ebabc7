// `npm start`: start the database (embedded PGlite under CORRIDOR_DATA_DIR unless DATABASE_URL
// names PostgreSQL), apply migrations (or, with CORRIDOR_MIGRATE=off, refuse to start while some
// are pending), build if there is no build yet, then run the
// Next.js server on PORT (scripts/server.mjs). The first server process bootstraps the sandbox
// platform, prints credentials and runs the background worker. On PostgreSQL several server
// processes share the port (CORRIDOR_WEB_CONCURRENCY, default: one per CPU, less one for a
// database on this machine); the embedded database serves one process only. `npm run dev` does
// the same with `next dev`.
import './node-version.mjs'; // first: an older Node.js is refused before anything else loads
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveDatabase } from './embedded-db.mjs';
import { migrate, migrationStatus, refusal } from './migrate.mjs';
import { loadKeyring } from '../lib/core/crypto/keyring.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const dev = process.argv.includes('--dev');
const port = process.env.PORT || '3000';
const nextBin = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');

// Same rule as lib/boot.ts (bootstrapCredentials), checked before anything starts: a server
// process refusing to boot would otherwise be restarted over and over.
const chosenSecret = process.env.CORRIDOR_CLIENT_SECRET;
if (chosenSecret && chosenSecret.length < 32) {
  console.error(
    `[corridor] cannot start: CORRIDOR_CLIENT_SECRET is ${chosenSecret.length} characters long; it must have at least 32 ` +
      '(for example `openssl rand -base64 32`), or leave it unset to have a random secret generated',
  );
  process.exit(1);
}

// CORRIDOR_WORKER: on (default: the first server process runs the background worker), off (this
// server serves only; a worker runs elsewhere) or only (a process for the worker alone, serving
// nothing but /api/health, /api/ready and /metrics: docs/operations.md, "Scaling out").
const workerRole = process.env.CORRIDOR_WORKER || 'on';
if (!['on', 'off', 'only'].includes(workerRole)) {
  console.error(`[corridor] cannot start: CORRIDOR_WORKER=${workerRole}; it is on (the default), off or only`);
  process.exit(1);
}

// The service's keys (lib/core/crypto/keyring.mjs), read (or, at first start, generated) before
// anything runs: a server that cannot read them would answer every request with a 500.
try {
  loadKeyring();
} catch (err) {
  console.error(`[corridor] cannot start: ${err.message}`);
  process.exit(1);
}

// CORRIDOR_MIGRATE=off: migrations are a separate step (`npm run db:migrate`, run once per
// release before the new servers start), and a server finding some pending refuses to start
// rather than run code against a schema it was not written for.
async function migrateOrCheck(url) {
  if (process.env.CORRIDOR_MIGRATE !== 'off') {
    return (await migrate(url, { log: (m) => console.log(`[corridor] ${m}`) })).length;
  }
  const status = await migrationStatus(url);
  const refused = refusal(status);
  if (refused) throw new Error(refused);
  if (status.pending.length)
    throw new Error(
      `${status.pending.length} migration(s) pending (${status.pending.join(', ')}) and CORRIDOR_MIGRATE=off: run \`npm run db:migrate\` first`,
    );
  return 0;
}

let database;
try {
  database = await resolveDatabase();
  const applied = await migrateOrCheck(database.url);
  console.log(
    `[corridor] database: ${database.embedded ? `embedded (${path.resolve(process.env.CORRIDOR_DATA_DIR || './data')})` : 'PostgreSQL'}; ${applied} migration(s) applied`,
  );
} catch (err) {
  console.error(`[corridor] cannot start: ${err.message}`);
  await database?.stop();
  process.exit(1);
}

// After the database: a server that may not start (pending migrations with CORRIDOR_MIGRATE=off)
// says so at once rather than after a build.
if (!dev && !existsSync(path.join(root, '.next', 'BUILD_ID'))) {
  console.log('[corridor] no build found: building once (npm run build)...');
  const built = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) {
    await database.stop();
    process.exit(built.status ?? 1);
  }
}

const env = {
  ...process.env,
  DATABASE_URL: database.url,
  CORRIDOR_EMBEDDED: database.embedded ? '1' : '0',
  PORT: port,
  ...(dev ? {} : { NODE_ENV: 'production' }),
};
function onThisMachine(url) {
  let host = '';
  try {
    host = new URL(url).hostname;
  } catch {
    /* unparsable: counted as this machine, like a Unix socket (no host) */
  }
  return ['localhost', '127.0.0.1', '::1', '[::1]', ''].includes(host);
}
// The embedded database takes one client process. On PostgreSQL: one per CPU, less one when the
// database runs on this machine (a loopback host), which needs a CPU of its own (measured on 2
// CPUs: one server process settles more payments per second than two competing with the database).
const local = !database.embedded && onThisMachine(database.url);
// A worker-only process is one process: the worker runs in the first server process only.
const processes =
  dev || database.embedded || workerRole === 'only'
    ? 1
    : Math.max(1, Number(process.env.CORRIDOR_WEB_CONCURRENCY || availableParallelism() - (local ? 1 : 0)));
// Connections per server process (CORRIDOR_DB_POOL_SIZE; lib/core/db.ts uses 10 when unset). A
// PostgreSQL on this machine gets about two per CPU in all (the usual CPUs x 2 + 1): more only
// queue inside the database, on each other's row locks, at the cost of CPU the database shares
// with us (measured on 2 CPUs: the payment flow averaged 259 flows/s with 5 connections, 240 with 10).
if (local && !process.env.CORRIDOR_DB_POOL_SIZE)
  env.CORRIDOR_DB_POOL_SIZE = String(Math.max(2, Math.ceil((2 * availableParallelism() + 1) / processes)));
const server = path.join(root, 'scripts', 'server.mjs');
const args = dev
  ? [nextBin, 'dev', '-p', port]
  : processes > 1
    ? [path.join(root, 'scripts', 'cluster.mjs'), server]
    : [server];
// A larger young generation: the server allocates short-lived objects per request (Next.js's
// request and response wrappers, parsed JSON, query results), and with V8's default 16 MB
// semi-space the scavenger ran often enough to take 8% of the server's CPU under the payment
// flow; at 64 MB it took 6% (CPU profiles of npm run bench on PostgreSQL). Costs up to ~190 MB of
// memory per process. Forked cluster workers inherit it (execArgv).
// CORRIDOR_CPU_PROF_DIR=<dir> writes a V8 CPU profile of each server process there when it exits
// (`npm run bench` with it set profiles the service under load; Node refuses --cpu-prof in
// NODE_OPTIONS, so it is passed here).
const profile = process.env.CORRIDOR_CPU_PROF_DIR
  ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CORRIDOR_CPU_PROF_DIR}`]
  : [];
const nodeFlags = dev ? [] : ['--max-semi-space-size=64', ...profile];
const child = spawn(process.execPath, [...nodeFlags, ...args], {
  cwd: root,
  stdio: 'inherit',
  env: { ...env, CORRIDOR_WEB_CONCURRENCY: String(processes) },
});
console.log(
  workerRole === 'only'
    ? '[corridor] worker only (CORRIDOR_WORKER=only): no API served'
    : `[corridor] ${processes} server process(es)${workerRole === 'off' ? ', no worker (CORRIDOR_WORKER=off)' : ''}`,
);

let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  child.kill(signal);
}
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
child.on('exit', async (code, signal) => {
  await database.stop();
  process.exit(code ?? (signal ? 0 : 1));
});
