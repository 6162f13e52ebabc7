// `npm run rotate-master-key`: a new master key becomes current and every secret sealed under
// an older one (lib/core/crypto/sealed-columns.mjs lists where they are) is sealed again under it.
// On PostgreSQL the service keeps answering throughout: its processes read the changed key file
// within a second, open what either key sealed, and a secret changed meanwhile is left as the
// service wrote it (each re-seal is conditional on the value it read). The embedded database
// serves one process, so there the server is stopped for the rotation (it takes seconds).
//
//   npm run rotate-master-key                 rotate (key file), or re-seal under CORRIDOR_SECRET_KEY
//   npm run rotate-master-key -- --check      count the sealed secrets under each key; change nothing
//   npm run rotate-master-key -- --retire     drop the older keys from the key file once nothing
//                                             is sealed under them any more
//
// With keys in the environment (CORRIDOR_SECRET_KEY) the script cannot change them for running
// processes; restart them in steps, each step on every process before the next:
//   1. CORRIDOR_HASH_KEY=<the hash key: for a single-key installation, its CORRIDOR_SECRET_KEY>
//      and CORRIDOR_OTHER_SECRET_KEYS=<new key>: every process can open what the new key seals;
//   2. CORRIDOR_SECRET_KEY=<new key>, CORRIDOR_OTHER_SECRET_KEYS=<old key>: the new key seals;
//   3. this script (same environment): everything is re-sealed under the new key;
//   4. --check shows nothing under the old key: remove it from CORRIDOR_OTHER_SECRET_KEYS.
// The hash key (keyed hashes of API secrets, codes, signed links) never rotates: see
// lib/core/crypto/keyring.mjs for why.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import pg from 'pg';
import {
  keyFilePath,
  keyId,
  keyring,
  loadKeyring,
  openEnvelope,
  sealEnvelope,
  writeKeyFile,
} from '../lib/core/crypto/keyring.mjs';
import { SCHEMES, SEALED_COLUMNS } from '../lib/core/crypto/sealed-columns.mjs';
import { resolveDatabase } from './embedded-db.mjs';

/** Processes look at the key file at most a second after they last did (keyring.mjs); a margin more. */
const SETTLE_MS = 2_500;
/** Passes over the tables: a later one takes what was sealed under an old key while the first ran. */
const MAX_PASSES = 5;
const BATCH = 200;

const log = (line) => console.log(`[rotate-master-key] ${line}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const q = (name) => `"${name.replace(/"/g, '""')}"`;

/** The database, and how to let go of it. The embedded one only while no server holds it. */
async function connect() {
  let database;
  try {
    database = await resolveDatabase();
  } catch (err) {
    throw new Error(
      /in use by process/.test(err.message)
        ? `${err.message}. The embedded database serves one process: stop the server, rotate, start it again.`
        : err.message,
    );
  }
  // A re-seal waits at most this long for a row a request holds locked; it is then taken next pass.
  const client = new pg.Client({ connectionString: database.url, lock_timeout: 5_000 });
  await client.connect();
  return {
    client,
    async close() {
      await client.end().catch(() => {});
      await database.stop();
    },
  };
}

/** Sealed secrets per key: { '<key id>': n, v1: n } over every sealed column. */
async function census(client) {
  const counts = {};
  for (const col of SEALED_COLUMNS) {
    const c = q(col.column);
    const { rows } = await client.query(
      `SELECT CASE WHEN left(${c}, 3) = 'v2.' THEN split_part(${c}, '.', 2) ELSE split_part(${c}, '.', 1) END AS id,
         count(*)::int AS n
       FROM ${q(col.table)} WHERE ${c} IS NOT NULL GROUP BY 1`,
    );
    for (const { id, n } of rows) counts[id] = (counts[id] ?? 0) + n;
  }
  return counts;
}

/** Seals again, under `ring`'s current key, every secret of `col` sealed under another. */
async function resealColumn(client, col, ring, problems) {
  const scheme = SCHEMES[col.scheme];
  const prefix = `v2.${ring.current.id}.`;
  let after = '';
  let resealed = 0;
  for (;;) {
    const { rows } = await client.query(
      `SELECT ${q(col.key)} AS k, ${q(col.column)} AS v FROM ${q(col.table)}
       WHERE ${q(col.column)} IS NOT NULL AND left(${q(col.column)}, $1) <> $2 AND ${q(col.key)} > $3
       ORDER BY ${q(col.key)} LIMIT ${BATCH}`,
      [prefix.length, prefix, after],
    );
    if (!rows.length) return resealed;
    for (const { k, v } of rows) {
      after = k;
      let plain;
      try {
        plain = openEnvelope(v, col.context(k), scheme);
      } catch (err) {
        problems.add(`${col.table}.${col.column} of ${k}: ${err.message}`);
        continue;
      }
      const sealed = sealEnvelope(plain, col.context(k), scheme, ring);
      try {
        const r = await client.query(
          `UPDATE ${q(col.table)} SET ${q(col.column)} = $1 WHERE ${q(col.key)} = $2 AND ${q(col.column)} = $3`,
          [sealed, k, v],
        );
        resealed += r.rowCount; // 0: the service changed it meanwhile, under the current key
      } catch (err) {
        if (err.code !== '55P03') throw err; // locked by a request: the next pass takes it
      }
    }
  }
}

/** Passes until nothing is left under another key (or only what cannot be opened). */
async function resealAll(client, ring) {
  const problems = new Set();
  let total = 0;
  for (let pass = 1; pass <= MAX_PASSES; pass++) {
    let resealed = 0;
    for (const col of SEALED_COLUMNS) resealed += await resealColumn(client, col, ring, problems);
    total += resealed;
    const counts = await census(client);
    const left = Object.entries(counts).filter(([id]) => id !== ring.current.id);
    log(
      `pass ${pass}: ${resealed} re-sealed; under the current key ${counts[ring.current.id] ?? 0}, under others ${left.reduce((s, [, n]) => s + n, 0)}`,
    );
    if (left.reduce((s, [, n]) => s + n, 0) <= problems.size) return { total, left, problems };
    await sleep(1_000);
  }
  const counts = await census(client);
  return { total, left: Object.entries(counts).filter(([id]) => id !== ring.current.id), problems };
}

async function rotate(client) {
  let ring = loadKeyring();
  if (!process.env.CORRIDOR_SECRET_KEY) {
    const file = keyFilePath(process.env);
    const next = randomBytes(32);
    writeKeyFile(file, { keys: [next, ...ring.keys.map((k) => k.key)], hash: ring.hashKey });
    ring = keyring(true);
    log(
      `${file}: master key ${keyId(next)} is now current; ${ring.keys
        .slice(1)
        .map((k) => k.id)
        .join(', ')} kept to open what they sealed; the hash key is unchanged`,
    );
    await sleep(SETTLE_MS); // every running process seals under the new key from now on
  } else log(`re-sealing under CORRIDOR_SECRET_KEY (key ${ring.current.id})`);
  const { total, left, problems } = await resealAll(client, ring);
  log(`${total} secrets re-sealed under ${ring.current.id}`);
  for (const p of problems) log(`cannot open ${p}`);
  if (left.length) {
    log(`still under other keys: ${left.map(([id, n]) => `${id} ${n}`).join(', ')}`);
    return 1;
  }
  log(
    'nothing is sealed under any other key now; `npm run rotate-master-key -- --retire` drops them from the key file',
  );
  return 0;
}

async function retire(client) {
  if (process.env.CORRIDOR_SECRET_KEY) {
    log(
      'keys come from the environment: remove CORRIDOR_OTHER_SECRET_KEYS from every process once --check shows nothing under them',
    );
    return 1;
  }
  const ring = loadKeyring();
  const left = Object.entries(await census(client)).filter(([id]) => id !== ring.current.id);
  if (left.length) {
    log(
      `not retiring: still sealed under other keys: ${left.map(([id, n]) => `${id} ${n}`).join(', ')} (rotate first)`,
    );
    return 1;
  }
  writeKeyFile(keyFilePath(process.env), { keys: [ring.current.key], hash: ring.hashKey });
  log(`kept only the current key ${ring.current.id} (and the hash key)`);
  return 0;
}

async function main() {
  if (!process.env.CORRIDOR_SECRET_KEY && !existsSync(keyFilePath(process.env))) {
    log(`no key file at ${keyFilePath(process.env)} and no CORRIDOR_SECRET_KEY: nothing to rotate`);
    return 1;
  }
  const { client, close } = await connect();
  try {
    if (process.argv.includes('--check')) {
      log(`current key ${loadKeyring().current.id}; sealed secrets by key: ${JSON.stringify(await census(client))}`);
      return 0;
    }
    return process.argv.includes('--retire') ? await retire(client) : await rotate(client);
  } finally {
    await close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`[rotate-master-key] ${err.message}`);
    process.exit(1);
  },
);
