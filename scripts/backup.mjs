// `npm run backup [-- --out FILE]`: a consistent snapshot of the whole database as one plain SQL
// file (scripts/db-dump.mjs), from the database the server uses (DATABASE_URL, else the embedded
// one in CORRIDOR_DATA_DIR: through the running server's own loopback port when a server holds
// it, directly when none does). The file is written beside its final name and renamed when
// complete, readable by its owner only (it holds customers' data and hashed and sealed secrets).
// It does not hold the keys: keep the key file (or CORRIDOR_SECRET_KEY and CORRIDOR_HASH_KEY)
// backed up too, apart from it; `npm run restore` refuses a backup whose keys it does not have.
import { once } from 'node:events';
import { createWriteStream, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { writeDump } from './db-dump.mjs';
import { reachDatabase } from './embedded-db.mjs';
import { configuredKeys, keyHeader } from './ops-checks.mjs';

const log = (line) => console.log(`[backup] ${line}`);

function outFile(argv) {
  const at = argv.indexOf('--out');
  if (at >= 0) {
    if (!argv[at + 1]) throw new Error('--out needs a file name');
    return path.resolve(argv[at + 1]);
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return path.resolve('backups', `corridor-${stamp}.sql`);
}

/** Writes the backup of the database at `url` to `file`; returns what writeDump returns. */
export async function backup(url, file, { source = 'postgresql' } = {}) {
  mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.partial`;
  const stream = createWriteStream(partial, { mode: 0o600 });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const keys = configuredKeys();
    const result = await writeDump(
      client,
      async (text) => {
        if (!stream.write(text)) await once(stream, 'drain');
      },
      { inSnapshot: async (c) => [`source: ${source}`, ...(await keyHeader(c, keys))] },
    );
    stream.end();
    await once(stream, 'close');
    renameSync(partial, file);
    return result;
  } catch (err) {
    stream.destroy();
    rmSync(partial, { force: true });
    throw err;
  } finally {
    await client.end().catch(() => {});
  }
}

async function main() {
  const file = outFile(process.argv.slice(2));
  const database = await reachDatabase();
  const started = Date.now();
  try {
    const source = database.embedded ? `embedded${database.shared ? ', beside the running server' : ''}` : 'postgresql';
    const r = await backup(database.url, file, { source: database.embedded ? 'embedded' : 'postgresql' });
    log(
      `${file}: ${r.tables} tables, ${r.rows} rows, ${r.migrations} migrations, as of ${r.takenAt} (${source}; ${Date.now() - started} ms)`,
    );
    log(
      'keep the keys with it, stored apart: the key file CORRIDOR_DATA_DIR/secret.key (or CORRIDOR_SECRET_KEY, CORRIDOR_HASH_KEY)',
    );
  } finally {
    await database.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main().catch((err) => {
    console.error(`[backup] failed: ${err.message}`);
    process.exitCode = 1;
  });
}
