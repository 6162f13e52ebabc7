import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { db, Prisma } from '@/lib/core/db';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { customerWithAccounts, externalAccount, fund, type Holder } from '@/tests/support/money';
import { planOf, statements } from '@/tests/support/sql-capture';

// The transaction list at scale (docs-draft/lists.md): pages are correct across ties in createdAt
// and rows inserted while paging; the cursor is an index bound; the count is kept by counters
// (no filter, status) or computed once and carried in the cursor (other filters).

const isCount = (s: { text: string }) => /count\(/i.test(s.text) && s.text.includes('"Transaction"');

let p: TestPlatform;
let a: Holder;
let dest: string;
const send = async (amount: number) => {
  const r = await p.api.post('/transfer-out', {
    source: { accountId: a.accounts.USD },
    destination: { accountId: dest },
    amount,
  });
  expect(r.status, r.text).toBe(201);
  return r.body.id as string;
};
const walk = async (query: Record<string, string | number>) => {
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const r = await p.api.get('/transactions', { query: { ...query, cursor } });
    expect(r.status, r.text).toBe(200);
    seen.push(...r.body.data.map((t: { id: string }) => t.id));
    cursor = r.body.nextCursor;
  } while (cursor);
  return seen;
};

beforeAll(async () => {
  p = await newPlatform();
  a = await customerWithAccounts(p, 'Tie Breaker', ['USD'], { platformCustomerId: 'ties' });
  await fund(p, a.accounts.USD, 1_000_000);
  dest = await externalAccount(p, a.customerId, 'USD', '301');
  for (let i = 0; i < 9; i++) await send(100 + i);
  // Three creation times shared by three rows each: the order within a time is the id.
  await db()
    .$executeRaw`UPDATE "Transaction" SET "createdAt" = TIMESTAMP '2026-01-01 00:00:00' + (("amount_rank" % 3) * INTERVAL '1 minute')
      FROM (SELECT "id" AS rid, row_number() OVER (ORDER BY "id") AS "amount_rank" FROM "Transaction" WHERE "platformId" = ${p.platformId}) r
      WHERE "id" = r.rid`;
});

it('pages through ties in createdAt in (createdAt, id) order, each row once, both orders', async () => {
  const expected = (
    await db().$queryRaw<{ id: string }[]>`SELECT "id" FROM "Transaction" WHERE "platformId" = ${p.platformId}
        ORDER BY "createdAt" DESC, "id" DESC`
  ).map((r) => r.id);
  expect(expected).toHaveLength(9);
  for (const limit of [1, 2, 4]) {
    expect(await walk({ limit })).toEqual(expected);
    expect(await walk({ limit, sortOrder: 'asc' })).toEqual([...expected].reverse());
  }
});

it('keeps its place while rows are inserted: new rows do not shift or repeat the older pages', async () => {
  const before = await walk({ limit: 100 });
  const first = await p.api.get('/transactions', { query: { limit: 4 } });
  const added = [await send(7), await send(8)]; // newer than every row listed
  const rest: string[] = [];
  let cursor: string | undefined = first.body.nextCursor;
  while (cursor) {
    const r = await p.api.get('/transactions', { query: { limit: 4, cursor } });
    rest.push(...r.body.data.map((t: { id: string }) => t.id));
    cursor = r.body.nextCursor;
  }
  expect([...first.body.data.map((t: { id: string }) => t.id), ...rest]).toEqual(before);
  const now = await p.api.get('/transactions', { query: { limit: 2 } });
  expect(now.body.data.map((t: { id: string }) => t.id).sort()).toEqual([...added].sort());
  expect(now.body.totalCount).toBe(before.length + 2); // the counters follow inserts
});

it('counts a filtered list once, on its first page, and carries the count in the cursor', async () => {
  const q = { platformCustomerId: 'ties', limit: 3 };
  const first = await statements(() => p.api.get('/transactions', { query: q }));
  expect(first.sent.filter(isCount)).toHaveLength(1);
  const total = first.result.body.totalCount;
  await send(9); // matches the filter: the carried count is the first page's
  const second = await statements(() =>
    p.api.get('/transactions', { query: { ...q, cursor: first.result.body.nextCursor } }),
  );
  expect(second.sent.filter(isCount)).toHaveLength(0);
  expect(second.result.body.totalCount).toBe(total);
  // The same cursor with other filters: counted for those filters.
  const other = await statements(() =>
    p.api.get('/transactions', {
      query: { customerId: a.customerId, limit: 3, cursor: first.result.body.nextCursor },
    }),
  );
  expect(other.sent.filter(isCount)).toHaveLength(1);
  expect(other.result.body.totalCount).toBe(total + 1);
});

it('reads the unfiltered and per-status counts from counters, never COUNT(*) over the table', async () => {
  for (const query of [{}, { status: 'PROCESSING' }]) {
    const r = await statements(() => p.api.get('/transactions', { query }));
    expect(r.sent.filter(isCount)).toHaveLength(0);
    expect(r.sent.some((s) => s.text.includes('"ListCount"'))).toBe(true);
    const exact = await db().transaction.count({ where: { platformId: p.platformId, ...query } });
    expect(r.result.body.totalCount).toBe(exact);
  }
});

it('bounds the index scan at the cursor (EXPLAIN of the page statement)', async () => {
  const first = await p.api.get('/transactions', { query: { limit: 2 } });
  const { sent } = await statements(() =>
    p.api.get('/transactions', { query: { limit: 2, cursor: first.body.nextCursor } }),
  );
  const page = sent.find((s) => /FROM "public"\."Transaction"/.test(s.text) && /ORDER BY/.test(s.text));
  expect(page, sent.map((s) => s.text).join('\n')).toBeDefined();
  // At test sizes a sequential scan is cheapest; without it the planner must show which index
  // bound the statement allows.
  const text = await planOf(page!);
  expect(text).toMatch(/Index (Only )?Scan Backward using "?Transaction_platformId_createdAt_id_idx/);
  expect(text).toMatch(/Index Cond: .*"createdAt" <= /);
  expect(text).not.toMatch(/Sort/);
});

it('filters the sender and receiver by indexed columns, not paths inside the JSON', async () => {
  const { sent, result } = await statements(() =>
    p.api.get('/transactions', { query: { senderAccountIdentifier: a.accounts.USD, limit: 100 } }),
  );
  expect(result.body.data.length).toBeGreaterThan(0);
  const page = sent.find((s) => /FROM "public"\."Transaction"/.test(s.text) && /ORDER BY/.test(s.text))!;
  const condition = page.text.slice(page.text.indexOf(' WHERE '));
  expect(condition).toContain('"senderIdentifier"');
  expect(condition).not.toMatch(/"source"/);
  const received = await p.api.get('/transactions', { query: { receiverAccountIdentifier: dest, limit: 100 } });
  expect(received.body.data.map((t: { id: string }) => t.id).sort()).toEqual(
    result.body.data.map((t: { id: string }) => t.id).sort(),
  );
});

it('keeps the counters right through status changes and deletes', async () => {
  const counted = async (key: string) =>
    Number(
      (
        await db().$queryRaw<{ n: bigint }[]>(
          Prisma.sql`SELECT COALESCE(sum("n"), 0)::bigint AS n FROM "ListCount" WHERE "platformId" = ${p.platformId} AND "list" = 'transactions' AND "key" = ${key}`,
        )
      )[0].n,
    );
  const byStatus = async () =>
    Object.fromEntries(
      (
        await db().$queryRaw<{ status: string; n: bigint }[]>`SELECT "status", count(*)::bigint AS n FROM "Transaction"
            WHERE "platformId" = ${p.platformId} GROUP BY 1`
      ).map((r) => [r.status, Number(r.n)]),
    );
  // A copy of a listed row under a new id (nothing else refers to it, so it can be deleted).
  const from = (await walk({ limit: 1 }))[0];
  const id = `Transaction:${randomUUID()}`;
  const cols = (
    await db().$queryRaw<{ c: string }[]>`SELECT column_name AS c FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name = 'Transaction' AND is_generated = 'NEVER' AND column_name <> 'id'`
  ).map((r) => `"${r.c}"`);
  await db().$executeRawUnsafe(
    `INSERT INTO "Transaction" ("id", ${cols.join(', ')}) SELECT $1, ${cols.join(', ')} FROM "Transaction" WHERE "id" = $2`,
    id,
    from,
  );
  await db().$executeRaw`UPDATE "Transaction" SET "status" = 'FAILED' WHERE "id" = ${id}`;
  for (const [status, n] of Object.entries(await byStatus())) expect(await counted(`status:${status}`)).toBe(n);
  await db().$executeRaw`DELETE FROM "Transaction" WHERE "id" = ${id}`;
  const after = await byStatus();
  expect(await counted('')).toBe(Object.values(after).reduce((x, y) => x + y, 0));
  expect(await counted('status:FAILED')).toBe(after.FAILED ?? 0);
});
