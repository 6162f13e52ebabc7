import { log } from './log';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { currentCorridor, type CorridorConfig } from './context';
import { db, transaction, type Tx } from './db';

// Cross-process cache invalidation. Hot paths cache what they read (credentials, platform
// settings) in each server process; when the database changes under such a cache, every process
// must drop its copy at once, not when the entry's TTL runs out.
//
// How: the transaction making the change also sends a PostgreSQL NOTIFY (announce), which the
// server delivers to every listening session when, and only if, the transaction commits. Each
// process holds one dedicated connection that LISTENs and drops the named entries of its caches.
// After the commit, the process that made the change drops them itself and waits until every
// listening process has acknowledged the notification, so that the call which made the change
// answers only when no process can serve the old value any more.
//
// Correctness does not hang on the listener staying up: while it is not connected (starting,
// reconnecting after a network error), shared caches serve nothing and store nothing, and when it
// (re)connects they are emptied, since notifications sent meanwhile were missed. A value read
// before an invalidation and stored after it is never kept (stamps, see SharedCache.set). The TTL
// stays as a backstop. The embedded database serves exactly one process, so there invalidation is
// local only and no NOTIFY is sent.
//
// Topics name what changed, keys which one: `api-token` (token id), `platform` (platform id: its
// sandbox clock or configuration), `auth-block` (refusals of failed authentication). A new kind
// of cached state adds a topic, e.g. for agents:
//   const agents = sharedCache<Agent>('agents', 5_000, { agent: (id, _key, a) => a.id === id });
//   await changing([{ topic: 'agent', key: agentId }], (tx) => repo.pause(agentId, tx));
// (lib/core/shared-cache.ts; or announce() inside an existing transaction, then committed()).
const CHANNEL = 'corridor_invalidate';
const ACK_CHANNEL = 'corridor_invalidate_ack';
const LISTENER_PREFIX = 'corridor-invalidation-';
const CONFIRM_TIMEOUT_MS = 2_000;
const MAX_PAYLOAD = 7_000;
const HEARTBEAT_MS = 15_000;
const MAX_BACKOFF_MS = 30_000;

/** Drops what a cache holds for `key` of a topic; null means everything (missed notifications). */
export type InvalidationHandler = (key: string | null) => void;

/** One instance's invalidation state: its handlers, its listener. */
export interface InvalidationState {
  /** The database whose notifications it listens to; null on the embedded database (local only). */
  url: string | null;
  handlers: Map<string, Map<string, InvalidationHandler>>;
  /** Bumped by every invalidation and listener state change: a stored value must predate none. */
  stamp: number;
  live: boolean;
  started: boolean;
  client: pg.Client | null;
  backoffMs: number;
  sequence: number;
  /** Announcements of this process awaiting acknowledgements, by notification id. */
  pending: Map<string, Pending>;
  /** This process's listener, as named in pg_stat_activity (pids alone repeat across containers). */
  name: string;
}

interface Pending {
  /** Listener names that acknowledged. */
  acked: Set<string>;
  wake: () => void;
}

declare module './context' {
  interface CorridorParts {
    invalidation: InvalidationState;
  }
}

type State = InvalidationState;

/** A new instance's invalidation state (its listener starts on first use). */
export function createInvalidation(config: CorridorConfig): InvalidationState {
  return {
    url: config.embedded ? null : config.databaseUrl,
    handlers: new Map(),
    stamp: 0,
    live: false,
    started: false,
    client: null,
    backoffMs: 500,
    sequence: 0,
    pending: new Map(),
    name: `${LISTENER_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`,
  };
}

const current = () => currentCorridor().invalidation;

/** Registers what to drop when `topic` is invalidated; `name` makes repeated registration idempotent. */
export function subscribe(topic: string, name: string, handler: InvalidationHandler): void {
  const state = current();
  let byName = state.handlers.get(topic);
  if (!byName) state.handlers.set(topic, (byName = new Map()));
  byName.set(name, handler);
}

function deliver(state: State, topic: string | null, key: string | null): void {
  state.stamp++;
  for (const [t, byName] of state.handlers) {
    if (topic !== null && t !== topic) continue;
    for (const handler of byName.values()) handler(key);
  }
}

/** A change announced inside its transaction; settle it once the transaction has committed. */
export interface Announcement {
  /** Drops the entries here, then waits until every listening process has confirmed dropping them. */
  committed(): Promise<void>;
}

/**
 * Inside the transaction that makes the change: every server process drops `topic`/`key` from its
 * caches when the transaction commits (nothing happens if it rolls back). Call committed() on the
 * result after the commit.
 */
export async function announce(tx: Tx, topic: string, key: string): Promise<Announcement> {
  const state = current();
  if (state.url === null) return { committed: async () => deliver(state, topic, key) };
  const id = `${state.name}:${++state.sequence}`;
  // NOTIFY takes at most 8000 bytes: a key too long for it drops the whole topic instead.
  const payload = JSON.stringify({ t: topic, k: key, id });
  const sent = payload.length <= MAX_PAYLOAD ? payload : JSON.stringify({ t: topic, id });
  await tx.$executeRaw`SELECT pg_notify(${CHANNEL}, ${sent})`;
  return {
    async committed() {
      deliver(state, topic, key); // at once here, without waiting for the notification's round trip
      await confirmed(state, id);
    },
  };
}

/** One transaction that changes cached state: announced to every process, settled after commit. */
export async function changing<T>(targets: { topic: string; key: string }[], fn: (tx: Tx) => Promise<T>): Promise<T> {
  const { out, announced } = await transaction(async (tx) => {
    const result = await fn(tx);
    const list: Announcement[] = [];
    for (const t of targets) list.push(await announce(tx, t.topic, t.key));
    return { out: result, announced: list };
  });
  for (const a of announced) await a.committed();
  return out;
}

/**
 * Waits until every process listening now has acknowledged notification `id` (each listener
 * acknowledges after dropping the entries), so the change's caller answers only once no process
 * can still serve the old value. A listener that goes away is not waited for (its process keeps
 * no cache without one); one that stays silent is given up on after CONFIRM_TIMEOUT_MS, leaving
 * the TTL as the backstop.
 */
async function confirmed(state: State, id: string): Promise<void> {
  if (!state.live) return; // acknowledgements arrive through our own listener
  const waiter: Pending = { acked: new Set(), wake: () => {} };
  state.pending.set(id, waiter);
  try {
    const end = Date.now() + CONFIRM_TIMEOUT_MS;
    let listeners = await listenerNames();
    while (!listeners.every((name) => waiter.acked.has(name))) {
      if (Date.now() > end) {
        const silent = listeners.filter((name) => !waiter.acked.has(name));
        log().warn({ silent }, 'cache invalidation not confirmed in time');
        return;
      }
      // Woken by each acknowledgement; every 100 ms the list is read again, so that a listener
      // that went away meanwhile is no longer waited for.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 100);
        waiter.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (!listeners.every((name) => waiter.acked.has(name))) listeners = await listenerNames();
    }
  } finally {
    state.pending.delete(id);
  }
}

async function listenerNames(): Promise<string[]> {
  const rows = await db().$queryRaw<{ name: string }[]>`
    SELECT application_name AS name FROM pg_stat_activity
    WHERE datname = current_database() AND application_name LIKE ${LISTENER_PREFIX + '%'}`;
  return rows.map((r) => r.name);
}

/** Whether caches may be used now: always on the embedded database, else while the listener is up. */
export function cachesUsable(): boolean {
  const state = current();
  if (state.url === null) return true;
  if (!state.started) startListener(state);
  return state.live;
}

function down(state: State, client: pg.Client, why: string): void {
  if (state.client !== client) return;
  state.client = null;
  if (state.live) log().warn({ why }, 'cache invalidation listener lost; caches off until it reconnects');
  state.live = false;
  deliver(state, null, null);
  client.end().catch(() => {});
  const wait = state.backoffMs;
  state.backoffMs = Math.min(MAX_BACKOFF_MS, state.backoffMs * 2);
  setTimeout(() => connect(state), wait).unref();
}

async function connect(state: State): Promise<void> {
  const url = state.url;
  if (!url || !state.started) return;
  // Named, so an operator (or a test) can tell the listeners apart in pg_stat_activity.
  const client = new pg.Client({
    connectionString: url,
    keepAlive: true,
    application_name: state.name,
  });
  state.client = client;
  client.on('notification', (msg) => {
    if (!msg.payload) return;
    if (msg.channel === ACK_CHANNEL) {
      const [id, name] = msg.payload.split(' ');
      const waiter = state.pending.get(id);
      waiter?.acked.add(name);
      waiter?.wake();
      return;
    }
    if (msg.channel !== CHANNEL) return;
    let note: { t?: string; k?: string; id?: string } = {};
    try {
      note = JSON.parse(msg.payload);
    } catch {
      // unreadable: handled below as "drop everything" rather than keep something stale
    }
    // No topic: unreadable, drop everything; no key: drop the whole topic.
    deliver(state, note.t ?? null, note.t ? (note.k ?? null) : null);
    if (note.id) client.query('SELECT pg_notify($1, $2)', [ACK_CHANNEL, `${note.id} ${state.name}`]).catch(() => {});
  });
  client.on('error', (err) => down(state, client, err.message));
  client.on('end', () => down(state, client, 'connection closed'));
  try {
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}; LISTEN ${ACK_CHANNEL}`);
  } catch (err) {
    down(state, client, err instanceof Error ? err.message : String(err));
    return;
  }
  // The listener must not keep a finished process (a script, a test worker) alive.
  (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
  state.backoffMs = 500;
  deliver(state, null, null); // anything cached before now may have missed a notification
  state.live = true;
  heartbeat(state, client);
}

/** A silently dropped connection (no RST) is noticed by a periodic round trip, not by waiting on TCP. */
function heartbeat(state: State, client: pg.Client): void {
  const timer = setInterval(() => {
    if (state.client !== client) return clearInterval(timer);
    const timeout = setTimeout(() => down(state, client, 'heartbeat timed out'), 5_000);
    timeout.unref();
    client.query('SELECT 1').then(
      () => clearTimeout(timeout),
      (err: Error) => {
        clearTimeout(timeout);
        down(state, client, err.message);
      },
    );
  }, HEARTBEAT_MS);
  timer.unref();
}

/** Starts the instance's listener (idempotent; a no-op on the embedded database). */
export function startListener(state: State = current()): void {
  if (state.started || state.url === null) return;
  state.started = true;
  void connect(state);
}

/** Stops the instance's listener (tests, shutdown). */
export async function stopListener(state: State = current()): Promise<void> {
  const client = state.client;
  state.started = false;
  state.client = null;
  state.live = false;
  await client?.end().catch(() => {});
}

/** Changes with every invalidation this process sees (see SharedCache.stamp). */
export function invalidationStamp(): number {
  return current().stamp;
}
