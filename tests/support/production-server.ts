import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { startEmbedded } from '../../scripts/embedded-db.mjs';
import { migrate } from '../../scripts/migrate.mjs';

// A production server as `npm start` runs it (scripts/server.mjs: Next.js's handler on node:http
// behind scripts/http-edge.mjs, NODE_ENV=production) on a database of its own, of the kind this
// run tests: what never reaches a route handler can only be seen there. Builds first when there
// is no build or the sources changed since.
const root = path.resolve(__dirname, '..', '..');
const SOURCES = ['app', 'lib', 'prisma/schema', 'next.config.mjs', 'instrumentation.ts'];
// Rewritten by every test run and `npm run gen`, from sources listed above.
const GENERATED = [path.join(root, 'lib', 'generated'), path.join(root, 'lib', 'http', 'route-manifest.ts')];

function newestSource(p: string): number {
  if (GENERATED.includes(p) || /\.test\.ts$/.test(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(p).map((name) => newestSource(path.join(p, name))));
}

function buildIsFresh(): boolean {
  const buildId = path.join(root, '.next', 'BUILD_ID');
  const newest = Math.max(
    ...SOURCES.map((s) => path.join(root, s))
      .filter(existsSync)
      .map(newestSource),
  );
  return existsSync(buildId) && statSync(buildId).mtimeMs >= newest;
}

/**
 * Builds when the sources changed since the last build. Several test files start production
 * servers at once (each in its own worker): one builds while the others wait for it (a lock
 * directory beside the checkout's temporary files), since two `next build` in one checkout fail.
 */
async function ensureBuild(): Promise<void> {
  if (buildIsFresh()) return;
  const lock = path.join(
    tmpdir(),
    `corridor-build-${createHash('sha256').update(root).digest('hex').slice(0, 12)}.lock`,
  );
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // A lock left by a killed run: a build takes minutes, not a quarter of an hour.
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })!.mtimeMs > 15 * 60_000)
        rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
  try {
    if (buildIsFresh()) return; // built by whoever held the lock
    // `next build` alone: `npm run build` would also regenerate the Prisma client other test files use.
    const built = spawnSync(
      process.execPath,
      [path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'],
      {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, NODE_ENV: 'production' },
      },
    );
    if (built.status !== 0) throw new Error(`next build failed:\n${built.stdout}\n${built.stderr}`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

interface Database {
  url: string;
  stop(): Promise<void>;
}

async function newDatabase(embedded: boolean): Promise<Database> {
  if (embedded) {
    const db = await startEmbedded({ dataDir: null, maxConnections: 2 });
    return db;
  }
  const base = process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/test';
  const name = `corridor_server_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(sql);
    await c.end();
  };
  await admin(`CREATE DATABASE ${name} TEMPLATE template0`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), stop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export interface ProductionServer {
  port: number;
  base: string;
  /** The server's own database. */
  databaseUrl: string;
  clientId: string;
  clientSecret: string;
  output(): string;
  /** Sends the server process a signal and resolves with its exit code once it exited. */
  signal(signal: NodeJS.Signals): Promise<number | null>;
  stop(): Promise<void>;
}

/**
 * `env` adds to (or, with undefined, removes from) the server's environment. `databaseUrl` names
 * a database to serve instead of a new one (migrated, and left in place by stop()). `processes`
 * above 1 runs that many server processes on the port, as npm start does on PostgreSQL
 * (scripts/cluster.mjs).
 */
export async function startProductionServer(
  embedded: boolean,
  env: Record<string, string | undefined> = {},
  { databaseUrl, processes = 1 }: { databaseUrl?: string; processes?: number } = {},
): Promise<ProductionServer> {
  await ensureBuild();
  const database = databaseUrl ? { url: databaseUrl, stop: async () => {} } : await newDatabase(embedded);
  await migrate(database.url);
  const port = await freePort();
  const clientId = `edge-${randomBytes(4).toString('hex')}`;
  const clientSecret = randomBytes(32).toString('base64url');
  const server = path.join(root, 'scripts', 'server.mjs');
  const args = processes > 1 ? [path.join(root, 'scripts', 'cluster.mjs'), server] : [server];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOSTNAME: '127.0.0.1',
      DATABASE_URL: database.url,
      CORRIDOR_EMBEDDED: embedded ? '1' : '0',
      CORRIDOR_MODE: 'sandbox',
      CORRIDOR_WORKER: 'off',
      CORRIDOR_SKIP_BOOT: '',
      CORRIDOR_SERVER_INDEX: '0',
      CORRIDOR_CLIENT_ID: clientId,
      CORRIDOR_CLIENT_SECRET: clientSecret,
      CORRIDOR_STRICT_REQUESTS: '',
      CORRIDOR_WEB_CONCURRENCY: String(processes),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    }
    await database.stop();
  };
  // Ready once it listens and has made sure the credentials work (boot prints the base URL).
  const until = Date.now() + 120_000;
  while (!/OpenAPI:\s+http/.test(out)) {
    if (child.exitCode !== null || Date.now() > until) {
      await stop();
      throw new Error(`the production server did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    databaseUrl: database.url,
    clientId,
    clientSecret,
    output: () => out,
    signal: (signal) => {
      child.kill(signal);
      return exited;
    },
    stop,
  };
}
