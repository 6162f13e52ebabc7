import { PrismaPg } from '@prisma/adapter-pg';
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
    const adapter = new PrismaPg({ connectionString: url, max, idleTimeoutMillis: 30_000 });
    if (process.env.CORRIDOR_BENCH_STATS === '1') {
      // `npm run bench` asks the server where its time goes: every SQL statement is counted.
      const client = new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] });
      client.$on('query', (e) => {
        queryStats.statements++;
        queryStats.dbMs += e.duration;
      });
      globalForDb.__corridorPrisma = client as unknown as PrismaClient;
    } else {
      globalForDb.__corridorPrisma = new PrismaClient({ adapter });
    }
  }
  return globalForDb.__corridorPrisma;
}

/**
 * Statement counters, only maintained when CORRIDOR_BENCH_STATS=1 (read by the bench). On
 * globalThis because Next.js bundles each route separately and module state is not shared.
 */
const globalStats = globalThis as unknown as { __corridorQueryStats?: { statements: number; dbMs: number; transactions: number } };
export const queryStats = (globalStats.__corridorQueryStats ??= { statements: 0, dbMs: 0, transactions: 0 });

export async function disconnectDb(): Promise<void> {
  const client = globalForDb.__corridorPrisma;
  globalForDb.__corridorPrisma = undefined;
  await client?.$disconnect();
}

/** The PostgreSQL error code behind a Prisma/driver error, when there is one. */
export function pgCode(err: unknown): string | undefined {
  const e = err as { code?: string; meta?: { code?: string; driverAdapterError?: { cause?: { originalCode?: string; code?: string } } }; cause?: { code?: string; originalCode?: string } };
  return (
    e?.meta?.driverAdapterError?.cause?.originalCode ??
    e?.cause?.originalCode ??
    (typeof e?.meta?.code === 'string' ? e.meta.code : undefined) ??
    (typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) ? e.code : undefined)
  );
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
    queryStats.transactions++;
    try {
      return await db().$transaction(fn, { timeout: opts.timeoutMs ?? 15_000, maxWait: 15_000 });
    } catch (err) {
      if (attempt >= retries || !isRetryable(err)) throw err;
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * (attempt + 1)));
    }
  }
}
