import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { createHash } from 'node:crypto';
import { Prisma, PrismaClient } from './generated/prisma/client';

export { Prisma };
export type Db = PrismaClient;
/** A client usable inside or outside a transaction; repositories take this. */
export type Tx = Prisma.TransactionClient;

// The one Prisma client. DATABASE_URL always names a PostgreSQL wire endpoint: a server, or the
// embedded PGlite served on loopback by scripts/start.mjs. The embedded endpoint funnels every
// connection into one backend session, so its pool must hold exactly one connection
// (DESIGN.md, Database); CORRIDOR_EMBEDDED=1 says so.
const globalForDb = globalThis as unknown as { __corridorPrisma?: PrismaClient };

export function db(): PrismaClient {
  if (!globalForDb.__corridorPrisma) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set: start the app with `npm start`, which provides the database');
    const embedded = process.env.CORRIDOR_EMBEDDED === '1';
    const max = embedded ? 1 : Number(process.env.CORRIDOR_DB_POOL_SIZE || 10);
    // The embedded database's connections share one session, which outlives a client that
    // reconnects: a new connection starts by dropping the names an earlier one prepared (the
    // pool awaits onConnect before handing the connection out).
    const onConnect = embedded ? async (client: pg.PoolClient) => void (await client.query('DEALLOCATE ALL')) : undefined;
    const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000, ...(onConnect ? { onConnect } : {}) } as pg.PoolConfig);
    const prepared = process.env.CORRIDOR_PREPARED_STATEMENTS !== '0';
    const adapter = new PrismaPg(pool, { disposeExternalPool: true, ...(prepared ? { statementNameGenerator: statementName } : {}) });
    if (process.env.CORRIDOR_BENCH_STATS === '1') countStatements();
    globalForDb.__corridorPrisma = new PrismaClient({ adapter });
  }
  return globalForDb.__corridorPrisma;
}

/**
 * Named (prepared) statements on PostgreSQL: each connection parses a statement once, and the
 * server may keep its plan, instead of parsing and planning every execution; the hot payment
 * statements are large. Only the first MAX_PREPARED distinct texts get a name, so a process that
 * meets ever new texts (lists of varying length) keeps a bounded set per connection.
 * CORRIDOR_PREPARED_STATEMENTS=0 turns this off (e.g. behind a transaction-pooling proxy).
 */
const MAX_PREPARED = 400;
const statementNames = new Map<string, string>();
const PREPARABLE = /^\s*(SELECT|WITH|INSERT|UPDATE|DELETE)\b/i;
function statementName(query: { sql: string }): string {
  let name = statementNames.get(query.sql);
  if (name === undefined && !PREPARABLE.test(query.sql)) return ''; // utility statements (ANALYZE, ...) run unnamed
  if (name === undefined && statementNames.size < MAX_PREPARED) {
    name = `corridor_${createHash('sha256').update(query.sql).digest('hex').slice(0, 24)}`;
    statementNames.set(query.sql, name);
  }
  return name ?? ''; // empty: an unnamed statement
}

/**
 * Statement counters, only maintained when CORRIDOR_BENCH_STATS=1 (read by the bench). On
 * globalThis because Next.js bundles each route separately and module state is not shared.
 */
const globalStats = globalThis as unknown as { __corridorQueryStats?: { statements: number; dbMs: number; transactions: number } };
export const queryStats = (globalStats.__corridorQueryStats ??= { statements: 0, dbMs: 0, transactions: 0 });

/**
 * `npm run bench` asks the server where its time goes: every statement sent to the database is
 * counted and timed at the driver (cheap, unlike Prisma's query log, which would skew the figures).
 */
function countStatements(): void {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown; __corridorCounted?: boolean };
  if (proto.__corridorCounted) return;
  proto.__corridorCounted = true;
  const query = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text;
    if (text === 'BEGIN' || text?.startsWith('BEGIN ')) queryStats.transactions++;
    else if (text !== 'COMMIT' && text !== 'ROLLBACK') queryStats.statements++;
    const started = performance.now();
    const done = () => (queryStats.dbMs += performance.now() - started);
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      // Callback style (pg-pool's pool.query): time until the callback.
      const callback = args[last] as (...r: unknown[]) => unknown;
      args[last] = (...r: unknown[]) => {
        done();
        return callback(...r);
      };
      return query.apply(this, args);
    }
    const result = query.apply(this, args);
    if (result && typeof (result as Promise<unknown>).then === 'function') (result as Promise<unknown>).then(done, done);
    return result;
  };
}

export async function disconnectDb(): Promise<void> {
  const client = globalForDb.__corridorPrisma;
  globalForDb.__corridorPrisma = undefined;
  await client?.$disconnect();
}

/** The PostgreSQL error code behind a Prisma/driver error, when there is one. */
/**
 * The row of `table` matching `where`, locked for the rest of the transaction (one statement:
 * the lock and the read together). Null when no row matches.
 */
export async function lockOne<T>(tx: Tx, table: string, where: Prisma.Sql): Promise<T | null> {
  const rows = await tx.$queryRaw<T[]>`SELECT * FROM ${Prisma.raw(`"${table}"`)} WHERE ${where} FOR UPDATE`;
  return rows[0] ?? null;
}

export function pgCode(err: unknown): string | undefined {
  const e = err as { code?: string; meta?: { code?: string; driverAdapterError?: { cause?: { originalCode?: string; code?: string } } }; cause?: { code?: string; originalCode?: string } };
  return (
    e?.meta?.driverAdapterError?.cause?.originalCode ??
    e?.cause?.originalCode ??
    (typeof e?.meta?.code === 'string' ? e.meta.code : undefined) ??
    (typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) ? e.code : undefined)
  );
}

/** The PostgreSQL error message behind a Prisma/driver error, when there is one. */
export function pgMessage(err: unknown): string | undefined {
  const e = err as { meta?: { driverAdapterError?: { cause?: { originalMessage?: string } } }; cause?: { originalMessage?: string } };
  return e?.meta?.driverAdapterError?.cause?.originalMessage ?? e?.cause?.originalMessage;
}

export function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string })?.code === 'P2002' || pgCode(err) === '23505';
}

function isRetryable(err: unknown): boolean {
  const code = pgCode(err);
  return (err as { code?: string })?.code === 'P2034' || code === '40001' || code === '40P01';
}

/**
 * Runs `fn` in one database transaction, retrying serialization failures and deadlocks.
 * Code inside must use the `tx` it is given only: on the embedded database a second client
 * call inside a transaction would wait for the transaction forever.
 */
export async function transaction<T>(fn: (tx: Tx) => Promise<T>, opts: { retries?: number; timeoutMs?: number } = {}): Promise<T> {
  const retries = opts.retries ?? 5;
  for (let attempt = 0; ; attempt++) {
    try {
      return await db().$transaction(fn, { timeout: opts.timeoutMs ?? 15_000, maxWait: 15_000 });
    } catch (err) {
      if (attempt >= retries || !isRetryable(err)) throw err;
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * (attempt + 1)));
    }
  }
}
