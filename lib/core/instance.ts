import { randomInt } from 'node:crypto';
import pg from 'pg';
import { currentCorridor, type CorridorConfig } from './context';
import { Prisma, queryDirect } from './db';
import { sql as ksql } from 'kysely';

// Which server processes are alive, as the database sees it. Each process holds a session-level
// advisory lock on its own instance key for as long as it lives; work it claims (an
// Idempotency-Key, a job) records that key. The lock disappears with the process's database
// session — a crash, a kill -9, a lost connection — so anyone can tell at once, through the
// database, that a claim's owner is gone, without guessing from how old the claim is.
//
// PostgreSQL: the lock is taken on a connection of its own, outside the pool, kept for the
// process's life. Embedded database (PGlite): every connection shares the one backend session
// and the database lives and dies with the server process (scripts/start.mjs), so the lock is
// taken through the pool and vanishes when the process and its database stop.

/** classid of our advisory locks (the bytes "Corr"), so they never collide with anyone else's. */
export const LOCK_SPACE = 0x436f7272;

type State = { key: number; ready: Promise<void>; client?: pg.Client; lost: boolean };

/** An instance's key and the lock that keeps it (taken on first use, taken again if lost). */
export interface InstanceLock {
  config: CorridorConfig;
  state?: State;
}

declare module './context' {
  interface CorridorParts {
    instance: InstanceLock;
  }
}

export function createInstanceLock(config: CorridorConfig): InstanceLock {
  return { config };
}

function acquire(config: CorridorConfig): State {
  // Positive 31-bit keys: they compare equal as int4 and as pg_locks' oid column.
  const state: State = { key: randomInt(1, 2 ** 31 - 1), ready: Promise.resolve(), lost: false };
  state.ready = (async () => {
    if (config.embedded) {
      // (void is not a type the driver adapter reads: select a constant beside it.)
      await queryDirect(
        Prisma.sql`SELECT 1 AS ok FROM (SELECT pg_advisory_lock(${LOCK_SPACE}::int, ${state.key}::int)) l`,
      );
      return;
    }
    const client = new pg.Client({ connectionString: config.databaseUrl });
    // A lost connection releases the lock: from then on this process's claims look dead to
    // everyone else, so it takes a new key (claims are guarded by owner, so nothing runs twice).
    const lose = () => {
      state.lost = true;
      client.end().catch(() => {});
    };
    client.on('error', lose);
    client.on('end', lose);
    await client.connect();
    // A key another live process holds (one chance in two billion) is simply drawn again.
    while (
      !(await client.query('SELECT pg_try_advisory_lock($1::int, $2::int) AS ok', [LOCK_SPACE, state.key])).rows[0].ok
    ) {
      state.key = randomInt(1, 2 ** 31 - 1);
    }
    state.client = client;
  })();
  state.ready.catch(() => (state.lost = true));
  return state;
}

/** The current instance's key, holding its lock (taken on first use). */
export async function instanceKey(): Promise<number> {
  const lock = currentCorridor().instance;
  let state = lock.state;
  if (!state || state.lost) state = lock.state = acquire(lock.config);
  await state.ready;
  return state.key;
}

/** SQL: the instance keys whose processes are alive (their lock is held in this database). */
export const liveInstances = ksql`SELECT l."objid"::bigint::int FROM pg_locks l
  WHERE l."locktype" = 'advisory' AND l."classid" = ${LOCK_SPACE}::int::oid AND l."objsubid" = 2 AND l."granted"
    AND l."database" = (SELECT "oid" FROM pg_database WHERE "datname" = current_database())`;

/** Whether the process that took `key` is still alive. */
export async function isAlive(key: number): Promise<boolean> {
  const rows = await queryDirect<{ alive: boolean }>(ksql`SELECT ${key}::int IN (${liveInstances}) AS alive`);
  return rows[0]?.alive === true;
}

/** Releases the instance's lock (tests and orderly shutdown); the next use takes a new key. */
export async function releaseInstance(lock: InstanceLock = currentCorridor().instance): Promise<void> {
  const state = lock.state;
  lock.state = undefined;
  if (!state) return;
  await state.ready.catch(() => {});
  if (state.client) await state.client.end().catch(() => {});
  else
    await queryDirect(Prisma.sql`SELECT pg_advisory_unlock(${LOCK_SPACE}::int, ${state.key}::int) AS ok`).catch(
      () => {},
    );
}
