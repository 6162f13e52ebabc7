import pg from 'pg';
import { traceCheckout, traceStatement, tracing } from './tracing';

type Slot = { client: Promise<pg.Client> | null; current: pg.Client | null; inFlight: number; exclusive: boolean };
type Waiter = { exclusive: boolean; grant: (slot: Slot) => void };
// pg's callback shape: (err, result), err null on success (typed loosely, as pg.Pool's overloads are).
type QueryCallback = (err: Error, result: pg.QueryResult) => void;

/** Unanswered statements on one connection before the next connection takes statements too. */
const PIPELINE_DEPTH = 32;

export type PipelinedPoolConfig = pg.ClientConfig & {
  /** Connections. The embedded database takes exactly one (its connections share one session). */
  size: number;
  /** Runs on each new connection before anything else is sent on it. */
  onConnect?: (client: pg.Client) => Promise<void>;
};

/**
 * A pool of pipelined connections. A plain pool runs one statement per connection at a time: the
 * database then waits while each answer travels back and the server's event loop gets round to
 * sending the next statement, and on PostgreSQL every concurrent statement wakes a backend of its
 * own, which then queue on each other's row locks. Here statements outside a transaction are
 * written as soon as they are asked for, each with its own Sync (so each is still its own
 * implicit transaction, and one failing does not touch the next), filling one connection
 * before the next (see choose); the database works through them back to back. Measured on the payment flow
 * (2 CPUs, 16 concurrent): embedded database 160-198 -> 310 flows/s (the PGlite process had been
 * half idle); PostgreSQL about a third less database CPU per flow.
 *
 * The embedded database's pool (lib/core/db.ts). On a PostgreSQL server a statement can wait on a
 * row lock another session holds, and every statement pipelined behind it on its connection waits
 * too, however unrelated (issue 23); there lib/core/server-pool.ts serves, and one connection of
 * this pool takes only plain reads, which wait on no row lock (lib/core/read-route.ts).
 *
 * A transaction (`connect()`, as the driver adapter's `$transaction` does) must not see anyone
 * else's statements between its BEGIN and its end, so it gets a connection with nothing
 * unanswered and has it to itself until it releases it. Waiters are served in arrival order: a
 * transaction that finds no idle connection reserves the least busy one, which then takes no new
 * statements until it has drained, so neither kind starves the other. As with any pool, code
 * holding a transaction must not call the pool itself (with one connection that call would wait
 * for the transaction forever).
 */
export class PipelinedPool extends pg.Pool {
  private readonly slots: Slot[];
  private readonly waiting: Waiter[] = [];
  private readonly clientConfig: pg.ClientConfig;
  private readonly onConnect?: (client: pg.Client) => Promise<void>;
  private closed = false;

  constructor({ size, onConnect, ...config }: PipelinedPoolConfig) {
    super({ ...config, max: size });
    this.clientConfig = { ...config, pipeline: true } as pg.ClientConfig;
    this.onConnect = onConnect;
    this.slots = Array.from({ length: Math.max(1, size) }, () => ({
      client: null,
      current: null,
      inFlight: 0,
      exclusive: false,
    }));
    // Assigned rather than declared as a method: one implementation cannot restate pg.Pool's
    // overloads (generic row types, Submittable) in TypeScript.
    this.query = this.pipelinedQuery.bind(this) as unknown as pg.Pool['query'];
    // pg.Pool's counts read its own queues, which this pool never fills: /metrics and the
    // housekeeping passes (which yield while requests wait) read these instead. Defined here, as
    // pg's types declare the counts as properties, which a subclass cannot restate as getters.
    Object.defineProperties(this, {
      totalCount: { get: () => this.slots.filter((s) => s.client).length },
      idleCount: { get: () => this.slots.filter((s) => s.client && !s.exclusive && s.inFlight === 0).length },
      waitingCount: { get: () => this.waiting.length },
    });
  }

  /** pg.Pool's query in both forms the driver adapter and pg's own callers use: promise and callback. */
  private pipelinedQuery(
    config: pg.QueryConfig | string,
    values?: unknown,
    callback?: QueryCallback,
  ): Promise<pg.QueryResult> | undefined {
    if (typeof values === 'function') {
      callback = values as QueryCallback;
      values = undefined;
    }
    // Traces on (lib/core/tracing.ts): the statement as a span of the request or job sending it.
    // Off, no closure is made for it: this runs for every statement.
    const traced = tracing();
    const result = traced ? traceStatement(traced, config, () => this.send(config, values)) : this.send(config, values);
    if (!callback) return result;
    const cb = callback;
    result.then(
      (r) => cb(null as unknown as Error, r),
      (e: Error) => cb(e, undefined as unknown as pg.QueryResult),
    );
    return undefined;
  }

  /**
   * A statement outside any transaction, untraced: for a pool that routes statements here and
   * traces them itself (ServerPool's plain reads, lib/core/read-route.ts).
   */
  async send(config: pg.QueryConfig | string, values: unknown): Promise<pg.QueryResult> {
    const slot = await this.acquire(false);
    try {
      const client = await this.connection(slot);
      return await client.query(config as pg.QueryConfig, values as unknown[] | undefined);
    } finally {
      slot.inFlight--;
      this.pump();
    }
  }

  // The driver adapter uses the promise form only.
  override async connect(): Promise<pg.PoolClient> {
    const slot = await this.acquire(true);
    let client: pg.Client;
    try {
      client = await this.connection(slot);
    } catch (err) {
      slot.exclusive = false;
      this.pump();
      throw err;
    }
    let released = false;
    const poolClient = client as unknown as pg.PoolClient;
    poolClient.release = (err?: Error | boolean) => {
      if (released) throw new Error('Release called on client which has already been released to the pool.');
      released = true;
      // A failed transaction leaves its session in an unknown state: drop the connection (the
      // server rolls back what it left open) and open a fresh one on next use.
      if (err) this.discard(slot, client);
      slot.exclusive = false;
      this.pump();
    };
    const traced = tracing();
    return traced ? traceCheckout(traced, poolClient) : poolClient;
  }

  override async end(): Promise<void> {
    this.closed = true;
    await Promise.all(
      this.slots.map((slot) => {
        const client = slot.current;
        slot.client = null;
        slot.current = null;
        return client?.end().catch(() => undefined);
      }),
    );
  }

  /** Waits for this caller's turn and connection. */
  private acquire(exclusive: boolean): Promise<Slot> {
    if (this.closed) return Promise.reject(new Error('Cannot use a pool after calling end on the pool'));
    return new Promise<Slot>((grant) => {
      this.waiting.push({ exclusive, grant });
      this.pump();
    });
  }

  /**
   * Serves waiters in arrival order, each on an open connection (not in a transaction, not
   * reserved; see choose). A transaction that finds none idle reserves the least busy, which
   * takes no more statements until it has drained.
   */
  private pump(): void {
    const reserved = new Set<Slot>();
    for (let i = 0; i < this.waiting.length;) {
      const waiter = this.waiting[i];
      const best = this.choose(waiter.exclusive, reserved);
      if (!best) return; // every connection is in a transaction or drained for one
      if (waiter.exclusive && best.inFlight > 0) {
        reserved.add(best);
        i++;
        continue;
      }
      if (waiter.exclusive) best.exclusive = true;
      else best.inFlight++;
      this.waiting.splice(i, 1);
      waiter.grant(best);
    }
  }

  /**
   * Statements fill the first open connection, up to PIPELINE_DEPTH unanswered, before the next:
   * one PostgreSQL backend working through a pipeline costs less than several woken in turn that
   * queue on each other's row locks (measured: spreading the payment flow's statements over four
   * connections was slower than a plain pool, one pipelined connection faster). A transaction takes
   * the least busy open connection, an idle one when there is one.
   */
  private choose(exclusive: boolean, reserved: Set<Slot>): Slot | undefined {
    let least: Slot | undefined;
    for (const slot of this.slots) {
      if (slot.exclusive || reserved.has(slot)) continue;
      if (!exclusive && slot.inFlight < PIPELINE_DEPTH) return slot;
      if (!least || slot.inFlight < least.inFlight) least = slot;
    }
    return least;
  }

  private connection(slot: Slot): Promise<pg.Client> {
    if (slot.client) return slot.client;
    const client = new pg.Client(this.clientConfig);
    client.on('error', (err) => {
      this.discard(slot, client);
      if (this.listenerCount('error') > 0) this.emit('error', err, client);
    });
    client.on('end', () => this.discard(slot, client));
    const ready = (async () => {
      try {
        await client.connect();
        await this.onConnect?.(client);
        return client;
      } catch (err) {
        this.discard(slot, client);
        throw err;
      }
    })();
    slot.client = ready;
    slot.current = client;
    return ready;
  }

  /** Forgets a broken connection (the next caller opens a new one) and closes it. */
  private discard(slot: Slot, client: pg.Client): void {
    if (slot.current !== client) return;
    slot.current = null;
    slot.client = null;
    client.end().catch(() => undefined);
  }
}
