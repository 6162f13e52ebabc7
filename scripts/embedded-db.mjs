// The embedded database: PGlite (PostgreSQL compiled to WebAssembly) persisted under
// CORRIDOR_DATA_DIR and served on a loopback port, so the app reaches it through the same
// pg driver adapter it uses for a PostgreSQL server. One code path, one SQL dialect.
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export function isPostgresUrl(url) {
  return typeof url === 'string' && /^postgres(ql)?:\/\//.test(url);
}

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

// PGlite takes no lock on its directory, and two processes writing one directory lose data.
// An exclusive lock file (created with O_EXCL) refuses a second process clearly.
function takeLock(dir) {
  const file = path.join(dir, 'corridor.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      const holder = Number(readFileSync(file, 'utf8'));
      if (holder && holder !== process.pid && pidAlive(holder)) {
        throw new Error(
          `the embedded database in ${dir} is in use by process ${holder}; stop it first or set CORRIDOR_DATA_DIR to another directory`,
        );
      }
      rmSync(file, { force: true }); // stale lock from a process that died
    }
  }
  throw new Error(`could not lock ${file}`);
}

const SERVING_FILE = 'corridor.serving';

/**
 * The URL the live process holding the embedded database under `dataDir` serves it on, or null
 * when no process holds it. The loopback port takes a few connections beside the server's own.
 */
export function servedUrl(dataDir) {
  const dir = path.resolve(dataDir, 'pglite');
  try {
    const holder = Number(readFileSync(path.join(dir, 'corridor.lock'), 'utf8'));
    const { pid, url } = JSON.parse(readFileSync(path.join(dir, SERVING_FILE), 'utf8'));
    return holder && holder === pid && holder !== process.pid && pidAlive(pid) ? url : null;
  } catch (err) {
    if (err.code === 'ENOENT' || err instanceof SyntaxError) return null;
    throw err;
  }
}

// Extensions the migrations create (CREATE EXTENSION): PGlite ships them but loads only those
// named here. pg_trgm: the console search's trigram indexes (migration 20261201200000_search).
const extensions = { pg_trgm };

/**
 * Starts the embedded database. `dataDir` null means in memory (tests).
 * Returns { url, stop }. Pool size for clients must stay 1 (see DESIGN.md, Database).
 * @param {{ dataDir?: string | null, port?: number, maxConnections?: number }} [options]
 */
export async function startEmbedded({ dataDir, port = 0, maxConnections = 8 } = {}) {
  let release = () => {};
  let db;
  if (dataDir) {
    const dir = path.resolve(dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
    release = takeLock(dir);
    db = await PGlite.create({ dataDir: dir, extensions });
  } else {
    db = await PGlite.create({ extensions });
  }
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections });
  await server.start();
  const conn = server.getServerConn(); // "127.0.0.1:PORT"
  const url = `postgresql://postgres:postgres@${conn}/postgres?sslmode=disable`;
  // Where the process holding the directory serves it, for tools that must work beside a running
  // server through its own connection (npm run backup, npm run ledger:check).
  const serving = dataDir ? path.resolve(dataDir, 'pglite', SERVING_FILE) : null;
  if (serving) writeFileSync(serving, JSON.stringify({ pid: process.pid, url }));
  let stopped = false;
  return {
    url,
    embedded: true,
    db,
    async stop() {
      if (stopped) return;
      stopped = true;
      if (serving) rmSync(serving, { force: true });
      await server.stop().catch(() => {});
      await db.close().catch(() => {});
      release();
    },
  };
}

/** DATABASE_URL when it names PostgreSQL, otherwise the embedded database under CORRIDOR_DATA_DIR. */
export async function resolveDatabase(env = process.env) {
  if (isPostgresUrl(env.DATABASE_URL)) {
    return { url: env.DATABASE_URL, embedded: false, async stop() {} };
  }
  if (env.DATABASE_URL) {
    throw new Error(
      `DATABASE_URL must be a postgresql:// URL (got ${env.DATABASE_URL.split(':')[0]}:...); unset it to use the embedded database`,
    );
  }
  const port = env.CORRIDOR_EMBEDDED_DB_PORT ? Number(env.CORRIDOR_EMBEDDED_DB_PORT) : 0;
  return startEmbedded({ dataDir: env.CORRIDOR_DATA_DIR || './data', port });
}

/**
 * Like resolveDatabase, but beside a running server: the embedded database a live server holds is
 * reached through that server's own loopback port (`shared: true`) instead of being refused.
 */
export async function reachDatabase(env = process.env) {
  if (!isPostgresUrl(env.DATABASE_URL) && !env.DATABASE_URL) {
    const url = servedUrl(env.CORRIDOR_DATA_DIR || './data');
    if (url) return { url, embedded: true, shared: true, async stop() {} };
  }
  return resolveDatabase(env);
}
