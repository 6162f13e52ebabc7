import pg from 'pg';

type Waiter = { exclusive: boolean; grant: () => void };
// pg's callback shape: (err, result), err null on success (typed loosely, as pg.Pool's overloads are).
type QueryCallback = (err: Error, result: pg.QueryResult) => void;

/**
 * The embedded database's pool. PGlite is one backend session behind a socket, so it has only
 * ever taken one connection (DESIGN.md, Database), and a pool of one runs one statement at a
 * time: the database process then idles while each answer travels back and the server's event
 * loop gets round to sending the next statement (measured: the PGlite process half idle with
 * requests waiting on it). This pool keeps that one connection but pipelines it: statements
 * outside a transaction are written as soon as they are asked for, each with its own Sync (so
 * each is still its own implicit transaction, and one failing does not touch the next), and the
 * database works through them back to back.
 *
 * A transaction (`connect()`, as the driver adapter's `$transaction` does) must not see anyone
 * else's statements between its BEGIN and COMMIT, so it waits until every pipelined statement
 * has been answered and then has the connection to itself until it releases it; statements asked
 * for meanwhile wait behind it, in arrival order (no starvation either way). As with a pool of
 * one, code holding a transaction must not call the pool itself: that call would wait for the
 * transaction forever.
 */
export class PipelinedSessionPool extends pg.Pool {
  private client: Promise<pg.Client> | null = null;
  private current: pg.Client | null = null;
  private inFlight = 0;
  private exclusive = false;
  private closed = false;
  private readonly waiting: Waiter[] = [];

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly onConnect: (client: pg.Client) => Promise<void>,
  ) {
    super({ ...config, max: 1 });
  }

  // pg.Pool's promise and callback forms, as the driver adapter and pg's own callers use them. The
  // return type is pg.Pool's (a promise of the result, or nothing when a callback is given).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(config: pg.QueryConfig | string, values?: unknown, callback?: QueryCallback): any {
    if (typeof values === 'function') {
      callback = values as QueryCallback;
      values = undefined;
    }
    const result = this.acquire(false).then(async (client) => {
      try {
        return await client.query(config as pg.QueryConfig, values as unknown[] | undefined);
      } finally {
        this.inFlight--;
        this.pump();
      }
    });
    if (!callback) return result;
    const cb = callback;
    result.then((r) => cb(null as unknown as Error, r), (e: Error) => cb(e, undefined as unknown as pg.QueryResult));
    return undefined;
  }

  // The driver adapter uses the promise form only.
  override async connect(): Promise<pg.PoolClient> {
    const client = await this.acquire(true);
    let released = false;
    const poolClient = client as unknown as pg.PoolClient;
    poolClient.release = (err?: Error | boolean) => {
      if (released) throw new Error('Release called on client which has already been released to the pool.');
      released = true;
      // A failed transaction leaves the session in an unknown state: drop the connection (the
      // socket server rolls back what it left open) and start a fresh one on next use.
      if (err) this.discard(client);
      this.exclusive = false;
      this.pump();
    };
    return poolClient;
  }

  override async end(): Promise<void> {
    this.closed = true;
    const client = this.current;
    this.client = null;
    this.current = null;
    await client?.end().catch(() => undefined);
  }

  /** Waits for this caller's turn, then hands over the (possibly new) connection. */
  private async acquire(exclusive: boolean): Promise<pg.Client> {
    if (this.closed) throw new Error('Cannot use a pool after calling end on the pool');
    await new Promise<void>((grant) => {
      this.waiting.push({ exclusive, grant });
      this.pump();
    });
    try {
      return await this.connection();
    } catch (err) {
      if (exclusive) this.exclusive = false;
      else this.inFlight--;
      this.pump();
      throw err;
    }
  }

  /** Grants turns in arrival order: any number of statements together, or one transaction alone. */
  private pump(): void {
    while (this.waiting.length > 0 && !this.exclusive) {
      const next = this.waiting[0];
      if (next.exclusive) {
        if (this.inFlight > 0) return;
        this.exclusive = true;
      } else {
        this.inFlight++;
      }
      this.waiting.shift();
      next.grant();
    }
  }

  private connection(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client({ ...this.config, pipeline: true } as pg.ClientConfig);
    client.on('error', (err) => {
      this.discard(client);
      if (this.listenerCount('error') > 0) this.emit('error', err, client);
    });
    client.on('end', () => this.discard(client));
    const ready = (async () => {
      try {
        await client.connect();
        await this.onConnect(client);
        return client;
      } catch (err) {
        this.discard(client);
        throw err;
      }
    })();
    this.client = ready;
    this.current = client;
    return ready;
  }

  /** Forgets a broken connection (the next caller opens a new one) and closes it. */
  private discard(client: pg.Client): void {
    if (this.current !== client) return;
    this.current = null;
    this.client = null;
    client.end().catch(() => undefined);
  }
}
