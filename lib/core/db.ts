import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { createHash } from 'node:crypto';
import { PipelinedPool } from './db-pool';
import { ServerPool, withDeadline } from './server-pool';
import { Prisma, PrismaClient } from '../generated/prisma/client';
import { currentCorridor, type CorridorConfig } from './context';
import { kysely } from './kysely';

export { Prisma };
export type Db = PrismaClient;
/** A client usable inside or outside a transaction; repositories take this. */
export type Tx = Prisma.TransactionClient;

// An instance's Prisma client (one per Corridor instance: lib/boot.ts). Its database URL
// (DATABASE_URL) always names a PostgreSQL wire endpoint: a server, or the embedded PGlite served
// on loopback by scripts/start.mjs. The embedded endpoint funnels every connection into one
// backend session, so its pool holds exactly one connection (DESIGN.md, Database), and instances
// on it share one client; CORRIDOR_EMBEDDED=1 says so.
//
// Time limits. On a PostgreSQL server (lib/core/server-pool.ts) every connection starts with
// statement_timeout and lock_timeout at CORRIDOR_TX_TIMEOUT_MS, so every statement, inside a
// transaction or not, is bounded without a statement spent on it; a transaction given another
// limit sets its own (SET LOCAL, through set_config) as its first statement; and a transaction
// past its deadline has its running statement cancelled. Statements are not pipelined there: one
// waiting on a row lock would hold up every statement written after it on its connection. Except
// plain reads outside a transaction, which wait on no row lock: those, whether queryDirect's or the
// driver adapter's (Prisma's own reads reach pool.query too; they are told apart by their text
// alone), go through one pipelined connection while it keeps up (lib/core/read-route.ts).
// The embedded database is one session that runs one statement at a time, whatever the pool:
// no statement can wait on a lock another request holds (there is no other session to hold one),
// so "behind a blocked statement" can only mean behind a slow one, which everything waits for
// anyway; PGlite enforces no statement_timeout (measured: pg_sleep(1) ran its full second under a
// 100 ms limit). There the pool pipelines its one connection (lib/core/db-pool.ts), which keeps
// that session busy instead of idle between round trips.

/** An instance's database client, made on first use, with its own pool. */
export interface Database {
  config: CorridorConfig;
  prisma?: PrismaClient;
  adapter?: PrismaPg;
  /** Whether statements get names (prepared once per connection); see statementName. */
  prepared?: boolean;
  pool?: pg.Pool;
  /** The statement_timeout every connection starts with (null: the embedded database, none). */
  sessionTimeoutMs?: number | null;
  /** Statement counters (CORRIDOR_BENCH_STATS=1; read by the bench). */
  stats: QueryStats;
}

type QueryStats = {
  statements: number;
  dbMs: number;
  transactions: number;
  /** Per statement text (its first 160 characters): executions and milliseconds until its answer. */
  byText: Record<string, { n: number; ms: number }>;
};

declare module './context' {
  interface CorridorParts {
    database: Database;
  }
}

export function createDatabase(config: CorridorConfig): Database {
  return { config, stats: { statements: 0, dbMs: 0, transactions: 0, byText: {} } };
}

const database = () => currentCorridor().database;

/** The current instance's database client. */
export function db(): PrismaClient {
  return clientOf(database());
}

function clientOf(d: Database): PrismaClient {
  if (!d.prisma) {
    const url = d.config.databaseUrl;
    if (!url) throw new Error('DATABASE_URL is not set: start the app with `npm start`, which provides the database');
    const embedded = d.config.embedded;
    // The embedded database's connections share one session, which outlives a client that
    // reconnects: a new connection starts by dropping the names an earlier one prepared (the
    // pool awaits onConnect before handing the connection out).
    const size = Number(process.env.CORRIDOR_DB_POOL_SIZE || 10);
    const timeoutMs = transactionTimeoutMs();
    const pool: pg.Pool = embedded
      ? new PipelinedPool({
          connectionString: url,
          size: 1,
          onConnect: async (client) => void (await client.query('DEALLOCATE ALL')),
        })
      : new ServerPool({
          connectionString: url,
          max: size,
          idleTimeoutMillis: 30_000,
          timeoutMs,
          // CORRIDOR_PIPELINED_READS=0: every statement on the plain pool (e.g. behind a proxy that
          // does not pass pipelined statements through).
          pipelinedReads: process.env.CORRIDOR_PIPELINED_READS !== '0',
        });
    d.pool = pool;
    d.sessionTimeoutMs = embedded ? null : timeoutMs;
    const prepared = process.env.CORRIDOR_PREPARED_STATEMENTS !== '0';
    const adapter = new PrismaPg(pool, {
      disposeExternalPool: true,
      ...(prepared ? { statementNameGenerator: statementName } : {}),
    });
    d.prepared = prepared;
    if (process.env.CORRIDOR_BENCH_STATS === '1') countStatements(d.stats);
    d.adapter = adapter;
    d.prisma = new PrismaClient({ adapter });
  }
  return d.prisma;
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

/** The current instance's statement counters (only counted when CORRIDOR_BENCH_STATS=1). */
export function queryStats(): QueryStats {
  return database().stats;
}

/**
 * `npm run bench` asks the server where its time goes: every statement sent to the database is
 * counted and timed at the driver (cheap, unlike Prisma's query log, which would skew the figures).
 */
function countStatements(queryStats: Database['stats']): void {
  const proto = pg.Client.prototype as unknown as {
    query: (...args: unknown[]) => unknown;
    __corridorCounted?: boolean;
  };
  // The driver's prototype is the process's: the first instance that counts owns the counters.
  if (proto.__corridorCounted) return;
  proto.__corridorCounted = true;
  const query = proto.query;
  // Entries by the statement's exact text: its shortened form is worked out once per text, not
  // per execution (collapsing the whitespace of a large statement on every run cost the server
  // about 0.25 ms per payment flow, which the bench then reported as the service's own).
  const entries = new Map<string, { n: number; ms: number }>();
  const entryFor = (text: string | undefined) => {
    let entry = entries.get(text ?? '?');
    if (!entry) {
      const key = (text ?? '?').replace(/\s+/g, ' ').slice(0, 160);
      entry = queryStats.byText[key] ??= { n: 0, ms: 0 };
      if (entries.size < 10_000) entries.set(text ?? '?', entry);
    }
    return entry;
  };
  proto.query = function (this: unknown, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text;
    if (text === 'BEGIN' || text?.startsWith('BEGIN ')) queryStats.transactions++;
    else if (text !== 'COMMIT' && text !== 'ROLLBACK') queryStats.statements++;
    const started = performance.now();
    const done = () => {
      const ms = performance.now() - started;
      queryStats.dbMs += ms;
      const entry = entryFor(text);
      entry.n++;
      entry.ms += ms;
    };
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
    if (result && typeof (result as Promise<unknown>).then === 'function')
      (result as Promise<unknown>).then(done, done);
    return result;
  };
}

/**
 * A statement to run: a Kysely query or `sql` fragment (lib/core/sql.ts, typed by the generated
 * `DB`), or a Prisma.sql template for the few statements still written that way.
 */
export type Statement = Prisma.Sql | Compilable;
/** Anything Kysely can compile: its query builders take no argument, its `sql` fragments the instance. */
interface Compilable {
  compile(provider: typeof kysely): { sql: string; parameters: readonly unknown[] };
}

function compile(s: Statement): { sql: string; parameters: readonly unknown[] } {
  return s instanceof Prisma.Sql ? { sql: s.text, parameters: s.values } : s.compile(kysely);
}

/**
 * One statement outside any transaction, on the client's own pool (the same connections and
 * prepared-statement names as the client), without the client's query layer: for the hot
 * statements, whose cost that layer would double (measured: about an eighth of the server's CPU in
 * the payment flow). Parameters are sent as `encodeParameter` writes them and values come back as
 * `$queryRaw` returns them (RESULT_TYPES). Errors are pg's own, with the PostgreSQL code (pgCode).
 */
export async function queryDirect<T>(statement: Statement): Promise<T[]> {
  const d = database();
  clientOf(d);
  const { sql, parameters } = compile(statement);
  const name = d.prepared ? statementName({ sql }) : '';
  const result = await d.pool!.query<T & pg.QueryResultRow>({
    text: sql,
    values: parameters.map(encodeParameter),
    types: RESULT_TYPES,
    ...(name ? { name } : {}),
  });
  return result.rows;
}

/** The statement in `tx` (`$queryRawUnsafe`), or queryDirect when `tx` is the client itself (no transaction). */
export function queryIn<T>(tx: Tx, statement: Statement): Promise<T[]> {
  if (!inTransaction(tx)) return queryDirect<T>(statement);
  if (statement instanceof Prisma.Sql) return tx.$queryRaw<T[]>(statement);
  const { sql, parameters } = compile(statement);
  return tx.$queryRawUnsafe<T[]>(sql, ...parameters.map(encodeParameter));
}

/**
 * Whether `tx` is a transaction rather than the client itself. Functions take the client or a
 * transaction explicitly; the few that work differently outside a transaction (one statement
 * instead of two, or opening their own) ask this rather than whether `tx` was passed.
 */
export function inTransaction(tx: Tx): boolean {
  return tx !== db();
}

/**
 * Parameters as text PostgreSQL reads by the type the statement gives them (a column's, or a
 * cast's): bigint and Decimal as their digits; Dates as ISO text in UTC (a timestamp(3) column
 * drops the zone, so the stored time is the UTC time, whatever the process's time zone); objects
 * as JSON (bigint inside as text); arrays element by element (pg writes them as array literals).
 * JSON columns written by lib/core/sql.ts arrive here already as JSON text.
 */
export function encodeParameter(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(encodeParameter);
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  if (Prisma.Decimal.isDecimal(v)) return (v as Prisma.Decimal).toString();
  if (typeof v === 'object') return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));
  return v;
}

// Values as the client's `$queryRaw` returns them, by PostgreSQL type OID (pg_type), for
// queryDirect: int8 → bigint (pg's default is a string), numeric → Prisma.Decimal, timestamp
// (without zone) → the Date of that UTC time (pg's default reads it in the process's time zone),
// date → midnight UTC, json/jsonb → parsed (pg's default), bytea → Uint8Array, and arrays of these
// element by element. Every other type keeps pg's parser (int4 and float8 as numbers, bool, text).
type Parse = (text: string) => unknown;
const textArray = pg.types.getTypeParser(1009 as Parameters<typeof pg.types.getTypeParser>[0]) as (
  text: string,
) => (string | null)[];
const arrayOf =
  (parse: Parse): Parse =>
  (text) =>
    textArray(text).map((x) => (x === null ? null : parse(x)));
const utcTimestamp: Parse = (text) => new Date(`${text.replace(' ', 'T')}Z`);
const bytes: Parse = (text) => new Uint8Array(pg.types.getTypeParser(17)(text) as Buffer);
const json: Parse = (text) => JSON.parse(text);
const PARSERS: Record<number, Parse> = {
  20: (text) => BigInt(text),
  1700: (text) => new Prisma.Decimal(text),
  1114: utcTimestamp,
  1184: (text) => new Date(text),
  1082: (text) => new Date(`${text}T00:00:00Z`),
  114: json,
  3802: json,
  17: bytes,
};
for (const [array, element] of [
  [1016, 20],
  [1231, 1700],
  [1115, 1114],
  [1185, 1184],
  [1182, 1082],
  [199, 114],
  [3807, 3802],
  [1001, 17],
] as const)
  PARSERS[array] = arrayOf(PARSERS[element]);
const RESULT_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    PARSERS[oid] ?? pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Closes the instance's client (the next db() opens a new one). */
export async function disconnectDb(d: Database = database()): Promise<void> {
  const client = d.prisma;
  d.prisma = undefined;
  d.adapter = undefined;
  d.pool = undefined;
  await client?.$disconnect();
}

/**
 * A maintenance statement (VACUUM, ANALYZE), which may rightly run longer than any request's
 * statement: on a PostgreSQL server it runs with statement_timeout lifted on its connection
 * (lock_timeout stays: it never queues long for a lock), restored before the connection is reused.
 */
export async function maintenance(sql: string): Promise<void> {
  const d = database();
  const client = clientOf(d);
  const pool = d.pool;
  if (d.sessionTimeoutMs === null || !pool) {
    await client.$executeRawUnsafe(sql);
    return;
  }
  const conn = await pool.connect();
  let failed: Error | undefined;
  try {
    await conn.query('SET statement_timeout = 0');
    await conn.query(sql);
  } finally {
    // RESET goes back to the value the connection started with; if it fails, the connection goes.
    await conn.query('RESET statement_timeout').catch((err: Error) => (failed = err));
    conn.release(failed);
  }
}

/**
 * The row of `table` matching `where`, locked for the rest of the transaction (one statement:
 * the lock and the read together). Null when no row matches.
 */
export async function lockOne<T>(tx: Tx, table: string, where: Prisma.Sql): Promise<T | null> {
  const rows = await tx.$queryRaw<T[]>`SELECT * FROM ${Prisma.raw(`"${table}"`)} WHERE ${where} FOR UPDATE`;
  return rows[0] ?? null;
}

/** The PostgreSQL error code behind a Prisma/driver error, when there is one. */
export function pgCode(err: unknown): string | undefined {
  const e = err as {
    code?: string;
    meta?: { code?: string; driverAdapterError?: { cause?: { originalCode?: string; code?: string } } };
    cause?: { code?: string; originalCode?: string };
  };
  return (
    e?.meta?.driverAdapterError?.cause?.originalCode ??
    e?.cause?.originalCode ??
    (typeof e?.meta?.code === 'string' ? e.meta.code : undefined) ??
    (typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) ? e.code : undefined)
  );
}

/** The PostgreSQL error message behind a Prisma/driver error, when there is one. */
export function pgMessage(err: unknown): string | undefined {
  const e = err as {
    meta?: { driverAdapterError?: { cause?: { originalMessage?: string } } };
    cause?: { originalMessage?: string };
  };
  // pg's own error (queryDirect) is the PostgreSQL error itself: its message is the server's.
  const direct = err instanceof pg.DatabaseError ? err.message : undefined;
  return e?.meta?.driverAdapterError?.cause?.originalMessage ?? e?.cause?.originalMessage ?? direct;
}

export function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string })?.code === 'P2002' || pgCode(err) === '23505';
}

function isRetryable(err: unknown): boolean {
  const code = pgCode(err);
  return (err as { code?: string })?.code === 'P2034' || code === '40001' || code === '40P01';
}

/**
 * How long a transaction may run, and a statement may run or wait for a lock, before the database
 * ends it and rolls it back (15 s; CORRIDOR_TX_TIMEOUT_MS changes it). The connections' own limit
 * is read when the pool is made.
 */
export function transactionTimeoutMs(): number {
  return Number(process.env.CORRIDOR_TX_TIMEOUT_MS) || 15_000;
}

/**
 * Work the database ended for running past its time, rolled back so that nothing of it changed:
 * a transaction past its timeout (Prisma's P2028), or a statement cancelled (57014: its
 * statement_timeout, or its transaction's deadline) or refused a lock in time (55P03).
 */
export function isTransactionTimeout(err: unknown): boolean {
  const code = pgCode(err);
  return (err as { code?: string })?.code === 'P2028' || code === '57014' || code === '55P03';
}

/**
 * Runs `fn` in one database transaction, retrying serialization failures and deadlocks.
 * Code inside must use the `tx` it is given only: on the embedded database a second client
 * call inside a transaction would wait for the transaction forever.
 */
export async function transaction<T>(
  fn: (tx: Tx) => Promise<T>,
  opts: { retries?: number; timeoutMs?: number } = {},
): Promise<T> {
  const retries = opts.retries ?? 5;
  const timeout = opts.timeoutMs ?? transactionTimeoutMs();
  const d = database();
  const client = clientOf(d);
  // A limit other than the one the connections start with is set by the transaction itself.
  const session = d.sessionTimeoutMs;
  const run =
    session === null || session === timeout
      ? fn
      : async (tx: Tx) => {
          await tx.$queryRaw`SELECT set_config('statement_timeout', ${String(timeout)}, true) AS s,
            set_config('lock_timeout', ${String(timeout)}, true) AS l`;
          return fn(tx);
        };
  for (let attempt = 0; ; attempt++) {
    try {
      return await withDeadline(timeout, () => client.$transaction(run, { timeout, maxWait: 15_000 }));
    } catch (err) {
      if (attempt >= retries || !isRetryable(err)) throw err;
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * (attempt + 1)));
    }
  }
}
