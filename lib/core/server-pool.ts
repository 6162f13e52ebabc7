import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';

/** A transaction's deadline, carried from `withDeadline` to the connection the pool hands it. */
interface Deadline {
  timeoutMs: number;
  client?: pg.PoolClient;
  timer?: NodeJS.Timeout;
  /** A cancel was sent for the connection: it is closed on release rather than reused. */
  cancelled: boolean;
}
const deadlines = new AsyncLocalStorage<Deadline>();

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
};

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

  constructor({ timeoutMs, ...config }: ServerPoolConfig) {
    super({ ...config, statement_timeout: timeoutMs, lock_timeout: timeoutMs });
    this.cancelConfig = { ...config, statement_timeout: 5_000, connectionTimeoutMillis: 5_000 } as pg.ClientConfig;
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    // pg.Pool's own query() takes its connection with a callback: one statement, no deadline.
    if (callback) return super.connect(callback);
    return super.connect().then((client) => this.watch(client));
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
