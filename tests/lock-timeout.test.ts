import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { customerWithAccounts, externalAccount, fund, type Holder } from '@/tests/support/money';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { db, disconnectDb, isTransactionTimeout, maintenance, Prisma, queryDirect, transaction } from '@/lib/core/db';

// A row lock held far past the timeout (issue 23, item 5): the blocked request answers 503 within
// the timeout plus a second, nothing waits behind its blocked statement, and the same
// Idempotency-Key executes exactly once afterwards. PostgreSQL only: the embedded database is one
// session, in which no statement can wait on a lock another request holds (lib/core/db.ts).
const TIMEOUT_MS = 2_000;
const LOCK_HELD_MS = 8_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const timed = async <T>(work: Promise<T>) => {
  const started = performance.now();
  const result = await work.then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error }),
  );
  return { ...result, ms: performance.now() - started, at: performance.now() };
};

const embedded = inject('embedded');
const test = it.skipIf(embedded);

let p: TestPlatform;
let h: Holder;
let external: string;
let locker: pg.Client;
let row: string;
beforeAll(async () => {
  if (embedded) return;
  // The pool's connections take their limits when it is made: make it again under this one.
  process.env.CORRIDOR_TX_TIMEOUT_MS = String(TIMEOUT_MS);
  await disconnectDb();
  p = await newPlatform();
  h = await customerWithAccounts(p, 'Held Lock', ['USD']);
  await fund(p, h.accounts.USD, 1_000_000);
  external = await externalAccount(p, h.customerId, 'USD', '000');
  row = `${h.accounts.USD}/AVAILABLE`;
  locker = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await locker.connect();
});
afterAll(async () => {
  if (embedded) return;
  await locker?.end();
  delete process.env.CORRIDOR_TX_TIMEOUT_MS;
  await disconnectDb();
});

/** Holds the ledger row locked from another session for LOCK_HELD_MS (or until released). */
async function holdLock() {
  await locker.query('BEGIN');
  await locker.query(`SELECT * FROM "LedgerAccount" WHERE "id" = $1 FOR UPDATE`, [row]);
  let timer: NodeJS.Timeout | undefined;
  const released = new Promise<void>((resolve) => (timer = setTimeout(resolve, LOCK_HELD_MS))).then(() =>
    locker.query('ROLLBACK'),
  );
  return {
    released,
    release: () => {
      clearTimeout(timer);
      return locker.query('ROLLBACK');
    },
  };
}

const fiveReads = () =>
  Promise.all(Array.from({ length: 5 }, () => timed(queryDirect<{ one: number }>(Prisma.sql`SELECT 1::int AS one`))));

test('answers 503 within the timeout plus a second, nothing changed, and the same key executes once after', async () => {
  const key = randomUUID();
  const marker = `held ${key}`;
  const body = {
    source: { accountId: h.accounts.USD },
    destination: { accountId: external },
    amount: 500,
    remittanceInformation: marker,
  };
  const send = () => p.api.post('/transfer-out', body, { headers: { 'idempotency-key': key } });
  const lock = await holdLock();
  const blocked = timed(send());
  await sleep(300);
  const reads = await fiveReads();
  const answered = await blocked;
  await lock.release();

  expect(answered.error).toBeUndefined();
  const res = answered.value!;
  expect(res.status, res.text).toBe(503);
  expect(res.body).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
  expect(res.headers.get('x-should-retry')).toBe('true');
  expect(answered.ms).toBeLessThan(TIMEOUT_MS + 1_000);
  // The unrelated reads answered during the block, not after it.
  for (const r of reads) {
    expect(r.error).toBeUndefined();
    expect(r.at).toBeLessThan(answered.at);
  }
  expect(await db().transaction.count({ where: { remittanceInformation: marker } })).toBe(0);
  const retry = await send();
  expect(retry.status, retry.text).toBe(201);
  expect((await send()).text).toBe(retry.text);
  expect(await db().transaction.count({ where: { remittanceInformation: marker } })).toBe(1);
  await expectLedgerBalanced(p.platformId);
}, 30_000);

test('bounds a statement outside any transaction, and reads do not wait behind it', async () => {
  const lock = await holdLock();
  const blocked = timed(queryDirect(Prisma.sql`UPDATE "LedgerAccount" SET "id" = "id" WHERE "id" = ${row}`));
  await sleep(300);
  const reads = await fiveReads();
  const statement = await blocked;
  await lock.release();
  for (const r of reads) {
    expect(r.error).toBeUndefined();
    expect(r.ms).toBeLessThan(1_000);
  }
  expect(isTransactionTimeout(statement.error)).toBe(true);
  expect(statement.ms).toBeLessThan(TIMEOUT_MS + 1_000);
}, 30_000);

test('cancels a transaction that starts waiting on a lock late in its life at its deadline', async () => {
  const lock = await holdLock();
  // Most of the transaction's time goes before the lock wait: the statement limit alone would
  // end it at 1.6 s + 2 s, past the deadline plus a second.
  const late = await timed(
    transaction(async (tx) => {
      await tx.$queryRaw`SELECT pg_sleep(1.6)::text AS slept`;
      await tx.$executeRaw`UPDATE "LedgerAccount" SET "id" = "id" WHERE "id" = ${row}`;
    }),
  );
  await lock.release();
  expect(isTransactionTimeout(late.error), String(late.error)).toBe(true);
  expect(late.ms).toBeLessThan(TIMEOUT_MS + 1_000);
  // The pool is whole afterwards: the cancelled connection was replaced.
  expect((await queryDirect<{ one: number }>(Prisma.sql`SELECT 1::int AS one`))[0].one).toBe(1);
}, 30_000);

test('lets a transaction with a longer limit of its own, and maintenance, run past the connections’ limit', async () => {
  const long = await timed(
    transaction((tx) => tx.$queryRaw`SELECT pg_sleep(2.5)::text AS slept`, { timeoutMs: 5_000 }),
  );
  expect(long.error).toBeUndefined();
  await maintenance('SELECT pg_sleep(2.5)');
  // Every connection keeps its own limit afterwards.
  const shown = await Promise.all(
    Array.from({ length: 12 }, () => queryDirect<{ statement_timeout: string }>(Prisma.sql`SHOW statement_timeout`)),
  );
  expect(new Set(shown.map((r) => r[0].statement_timeout))).toEqual(new Set(['2s']));
}, 30_000);
