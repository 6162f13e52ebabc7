// The soak's server: a real `npm start` (production build) on its own embedded data directory or
// its own PostgreSQL database, started as its own process group so that a crash can be simulated
// exactly: SIGKILL to the whole group (npm, the start script, the server processes and, on the
// embedded database, the database itself), then a restart on the same data.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { dropDatabase } from './drop-database.mjs';

const DROP_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'drop-database.mjs');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Written by `npm run gen` (which npm test runs first) from the sources checked here anyway.
const GENERATED = new Set(['generated', 'route-manifest.ts']);

function newestMtime(p) {
  const st = statSync(p, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const e of readdirSync(p)) if (!GENERATED.has(e)) newest = Math.max(newest, newestMtime(path.join(p, e)));
  return newest;
}

/**
 * `npm start` serves the existing production build: the soak must drive the code as it is now,
 * so it builds when there is no build or a source is newer than it.
 */
export function ensureBuild(root, log) {
  const buildId = path.join(root, '.next', 'BUILD_ID');
  const sources = ['app', 'lib', 'prisma/schema', 'instrumentation.ts', 'next.config.mjs', 'package-lock.json'];
  const built = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
  const newest = Math.max(...sources.map((s) => newestMtime(path.join(root, s))));
  if (built && newest <= built) return;
  log(built ? 'sources are newer than the build: npm run build' : 'no build yet: npm run build');
  const r = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error('npm run build failed');
}

export async function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * The database the soak's server runs on: a fresh embedded data directory (served on a fixed
 * loopback port, so the soak can reach it with psql's protocol across restarts), or a fresh
 * database created on a PostgreSQL server. `dispose` removes it (unless `keep`); `disposeSync`
 * does the same without awaiting, for the process's exit hook when `dispose` never ran.
 */
export async function provisionDatabase(db, { keep }) {
  const workDir = mkdtempSync(path.join(tmpdir(), 'corridor-soak-'));
  const removeDir = () => rmSync(workDir, { recursive: true, force: true });
  if (db === 'embedded') {
    const port = await freePort();
    return {
      label: 'embedded',
      workDir,
      env: { DATABASE_URL: '', CORRIDOR_DATA_DIR: path.join(workDir, 'data'), CORRIDOR_EMBEDDED_DB_PORT: String(port) },
      url: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
      async dispose() {
        if (!keep) removeDir();
      },
      disposeSync() {
        if (!keep) removeDir();
      },
    };
  }
  const serverUrl =
    db === 'postgres' ? process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/test' : db;
  const name = `corridor_soak_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  admin.on('error', () => {});
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE template0`);
  } catch (err) {
    removeDir();
    throw err;
  } finally {
    await admin.end().catch(() => {});
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    label: `PostgreSQL (${url.host}/${name})`,
    workDir,
    name,
    env: { DATABASE_URL: url.toString() },
    url: url.toString(),
    async dispose() {
      if (keep) return;
      await dropDatabase(serverUrl, name);
      removeDir();
    },
    disposeSync() {
      if (keep) return;
      const r = spawnSync(process.execPath, [DROP_SCRIPT, serverUrl, name], { stdio: 'inherit', timeout: 20_000 });
      if (r.status !== 0) console.error(`[soak] could not drop ${name}; drop it by hand: DROP DATABASE ${name}`);
      removeDir();
    },
  };
}

function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** `npm start` with the soak's credentials and database, its output appended to a log file. */
export class Server {
  constructor({ root, port, env, logFile, clientId, secret }) {
    Object.assign(this, { root, port, env, logFile, clientId, secret });
    this.base = `http://127.0.0.1:${port}`;
    this.starts = []; // wall-clock start time of each server generation
    this.child = null;
  }

  async start() {
    const fd = openSync(this.logFile, 'a');
    const startedAt = Date.now();
    this.child = spawn('npm', ['start', '--silent'], {
      cwd: this.root,
      env: {
        ...process.env,
        ...this.env,
        PORT: String(this.port),
        CORRIDOR_CLIENT_ID: this.clientId,
        CORRIDOR_CLIENT_SECRET: this.secret,
      },
      stdio: ['ignore', fd, fd],
      detached: true,
    });
    closeSync(fd);
    this.starts.push(startedAt);
    await this.ready();
    return Date.now() - startedAt;
  }

  async ready(timeoutMs = 300_000) {
    const auth = `Basic ${Buffer.from(`${this.clientId}:${this.secret}`).toString('base64')}`;
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      if (this.child.exitCode !== null || this.child.signalCode !== null)
        throw new Error(`npm start exited (${this.child.exitCode ?? this.child.signalCode}); see ${this.logFile}`);
      try {
        const r = await fetch(`${this.base}/api/2025-10-13/config`, {
          headers: { authorization: auth },
          signal: AbortSignal.timeout(10_000),
        });
        await r.arrayBuffer();
        if (r.status === 200) return;
      } catch {
        /* not up yet */
      }
      await sleep(200);
    }
    throw new Error(`the server did not answer within ${timeoutMs / 1000} s; see ${this.logFile}`);
  }

  /** A crash: SIGKILL to the whole process group, then wait until every member is gone. */
  async kill() {
    const pid = this.child.pid;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
    const until = Date.now() + 30_000;
    while (groupAlive(pid) && Date.now() < until) await sleep(50);
    if (groupAlive(pid)) throw new Error(`process group ${pid} survived SIGKILL`);
  }

  /** A normal stop (SIGTERM to the group; SIGKILL if it lingers). */
  async stop() {
    if (!this.child) return;
    const pid = this.child.pid;
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      return;
    }
    const until = Date.now() + 20_000;
    while (groupAlive(pid) && Date.now() < until) await sleep(100);
    if (groupAlive(pid)) await this.kill();
  }

  /** For the process's exit hook, which cannot await: SIGKILL to whatever is left of the group. */
  killSync() {
    const pid = this.child?.pid;
    if (!pid || !groupAlive(pid)) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* gone meanwhile */
    }
  }
}
