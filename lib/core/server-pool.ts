import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { PipelinedReads, type PipelinedReadsOptions } from './read-route';
import { traceCheckout, traceStatement, tracing } from './tracing';

/** A transaction's deadline, carried from `withDeadline` to the connection the pool hands it. */
interface Deadline {
  timeoutMs: number;
  client?: pg.PoolClient;
  timer?: NodeJS.Timeout;
  /** A cancel was sent for the connection: it is closed on release rather than reused. */
  cancelled: boolean;
}
const deadlines = new AsyncLocalStorage<Deadline>();

/** Deadlock (40P01) and serialization failure (40001): the statement was rolled back and may run again. */
const RETRYABLE = new Set(['40P01', '40001']);
const STATEMENT_ATTEMPTS = 5;

/** While an overdue transaction still holds its connection, its statement is cancelled again this often. */
const RECANCEL_MS = 250;

/**
 * Runs `fn`, which starts one interactive transaction, under a deadline of `timeoutMs` from the
 * moment the pool hands that transaction its connection (only a ServerPool acts on it).
 */
export function withDeadline<T>(timeoutMs: number, fn: () => Promise<T>): Promise<T> {
  const deadline: Deadline = { timeoutMs, cancelled: false };
  return deadlines.run(deadline, fn).finally(() => clearTimeout(deadline.timer));
}

export type ServerPoolConfig = pg.PoolConfig & {
  /** statement_timeout and lock_timeout of every connection. */
  timeoutMs: number;
  /** Plain reads outside a transaction on one extra pipelined connection (lib/core/read-route.ts). */
  pipelinedReads?: PipelinedReadsOptions | boolean;
};

// pg's callback shape: (err, result), err null on success (typed loosely, as pg.Pool's overloads are).
type QueryCallback = (err: Error, result: pg.QueryResult) => void;
type ConnectCallback = (
  err: Error | undefined,
  client: pg.PoolClient | undefined,
  done: (release?: unknown) => void,
) => void;

/**
 * The pool on a PostgreSQL server: pg.Pool, one statement per connection at a time, so nothing
 * ever waits behind another request's statement that waits on a row lock (on a pipelined
 * connection everything written after a blocked statement waits for it: issue 23 measured five
 * `SELECT 1` still waiting after 2 s behind one UPDATE). And bounds, at no cost per statement:
 * - every connection starts with statement_timeout and lock_timeout set (startup parameters, so
 *   not even a round trip is spent on them): the server ends any statement, in a transaction or
 *   not, that runs or waits longer than `timeoutMs`;
 * - a transaction past its deadline (`withDeadline`) has the statement it is running cancelled.
 *   Prisma's own transaction timeout rolls back only once the running statement returns, so a
 *   transaction that started waiting on a lock late in its life would answer late.
 */
export class ServerPool extends pg.Pool {
  private readonly cancelConfig: pg.ClientConfig;
  /** The pipelined connection plain reads take while it keeps up (undefined: not asked for). */
  readonly reads?: PipelinedReads;

  constructor({ timeoutMs, pipelinedReads, ...config }: ServerPoolConfig) {
    super({ ...config, statement_timeout: timeoutMs, lock_timeout: timeoutMs });
    if (pipelinedReads) this.reads = this.pipelined(config, timeoutMs, pipelinedReads);
    this.cancelConfig = { ...config, statement_timeout: 5_000, connectionTimeoutMillis: 5_000 } as pg.ClientConfig;
    // Assigned rather than declared as a method: one implementation cannot restate pg.Pool's
    // overloads (generic row types, Submittable) in TypeScript.
    this.query = this.retryingQuery.bind(this) as unknown as pg.Pool['query'];
  }

  /**
   * pg.Pool's query (promise and callback forms), with a statement that was chosen as a deadlock
   * victim or failed serialization run again. It ran alone, outside any transaction (transactions
   * take a connection with connect()), so it was rolled back whole: running it again cannot apply
   * it twice. Statements run side by side here, where the pipelined pool ran them one after another.
   */
  private retryingQuery(
    config: pg.QueryConfig | string,
    values?: unknown,
    callback?: QueryCallback,
  ): Promise<pg.QueryResult> | undefined {
    if (typeof values === 'function') {
      callback = values as QueryCallback;
      values = undefined;
    }
    // Traces on (lib/core/tracing.ts): the statement as a span of the request or job sending it,
    // started here, in the sender's context (pg.Pool may run it from another's, once a connection frees).
    const traced = tracing();
    const result = traced
      ? traceStatement(traced, config, () => this.attempts(config, values))
      : this.attempts(config, values);
    if (!callback) return result;
    const cb = callback;
    result.then(
      (r) => cb(null as unknown as Error, r),
      (e: Error) => cb(e, undefined as unknown as pg.QueryResult),
    );
    return undefined;
  }

  private async attempts(config: pg.QueryConfig | string, values: unknown): Promise<pg.QueryResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        // Chosen per attempt: a read the pipelined connection does not take now runs here.
        if (this.reads?.takes(config)) return await this.reads.run(config, values);
        return await super.query(config as pg.QueryConfig, values as unknown[] | undefined);
      } catch (err) {
        if (attempt >= STATEMENT_ATTEMPTS || !RETRYABLE.has((err as { code?: string }).code ?? '')) throw err;
        await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * attempt));
      }
    }
  }

  /**
   * The reads' connection starts with the same limits as the pool's (startup parameters); its
   * errors reach the pool's listeners (an 'error' event with none would throw), and the pool's
   * counts include it, so /metrics and housekeeping see every connection.
   */
  private pipelined(config: pg.PoolConfig, timeoutMs: number, options: PipelinedReadsOptions | true): PipelinedReads {
    const reads = new PipelinedReads(
      { ...config, statement_timeout: timeoutMs, lock_timeout: timeoutMs } as pg.ClientConfig,
      options === true ? {} : options,
    );
    reads.pool.on('error', (err: Error, client: pg.PoolClient) => {
      if (this.listenerCount('error') > 0) this.emit('error', err, client);
    });
    const own = (name: string) => Reflect.get(pg.Pool.prototype, name, this) as number;
    const theirs = (name: string) => Reflect.get(reads.pool, name) as number;
    // Defined on the instance, as pg's types declare the counts as properties (see PipelinedPool).
    Object.defineProperties(this, {
      totalCount: { get: () => own('totalCount') + theirs('totalCount') },
      idleCount: { get: () => own('idleCount') + theirs('idleCount') },
      waitingCount: { get: () => own('waitingCount') + theirs('waitingCount') },
    });
    return reads;
  }

  override end(): Promise<void>;
  override end(callback: () => void): void;
  override end(callback?: () => void): Promise<void> | void {
    const ended = Promise.all([super.end(), this.reads?.pool.end()]).then(() => undefined);
    if (!callback) return ended;
    ended.then(callback, callback);
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    // pg.Pool's own query() takes its connection with a callback: one statement, no deadline.
    if (callback) return super.connect(callback);
    return super.connect().then((client) => {
      const watched = this.watch(client);
      const traced = tracing();
      return traced ? traceCheckout(traced, watched) : watched;
    });
  }

  /** The connection of a transaction under a deadline starts its timer; others pass through. */
  private watch(client: pg.PoolClient): pg.PoolClient {
    const deadline = deadlines.getStore();
    if (!deadline || deadline.client) return client;
    deadline.client = client;
    const release = client.release;
    client.release = (err?: Error | boolean) => {
      clearTimeout(deadline.timer);
      deadline.client = undefined;
      client.release = release;
      // After a cancel the connection is closed: the cancel may still be on its way to it.
      return release.call(client, err || deadline.cancelled || undefined);
    };
    deadline.timer = setTimeout(() => this.cancelOverdue(deadline, client), deadline.timeoutMs);
    return client;
  }

  /**
   * Cancels the statement an overdue transaction is running. PostgreSQL ignores a cancel that
   * finds the session between statements, so it is sent again while the connection is held. Sent
   * from a connection of its own: the pool's may all be taken.
   */
  private cancelOverdue(deadline: Deadline, client: pg.PoolClient): void {
    if (deadline.client !== client) return;
    deadline.cancelled = true;
    const pid = (client as unknown as { processID?: number }).processID;
    if (pid) void cancelBackend(this.cancelConfig, pid);
    deadline.timer = setTimeout(() => this.cancelOverdue(deadline, client), RECANCEL_MS);
  }
}

async function cancelBackend(config: pg.ClientConfig, pid: number): Promise<void> {
  const c = new pg.Client(config);
  c.on('error', () => {});
  try {
    await c.connect();
    await c.query('SELECT pg_cancel_backend($1::int)', [pid]);
  } catch {
    // The database is out of reach: the statement still ends at its statement_timeout.
  } finally {
    await c.end().catch(() => {});
  }
}
