import { describe, expect, it } from 'vitest';
import { db, isUniqueViolation, pgCode, Prisma, queryDirect, queryIn } from '@/lib/core/db';
import { insertAll, jsonText, sql } from '@/lib/core/sql';
import { newPlatform } from '@/tests/support/api';

// queryDirect skips the Prisma client's query layer for the hot payment statements; the values
// it hands back and the parameters it sends must be exactly what `$queryRaw` gives and sends, or
// money (bigint), times (timestamp(3) in UTC) and stored JSON would drift between the two paths.
describe('queryDirect', () => {
  const probe = (at: Date, big: bigint, json: unknown) => Prisma.sql`
    SELECT ${big}::bigint AS big, ${at}::timestamp(3) AS at, ${JSON.stringify(json)}::jsonb AS doc,
      1.25::numeric AS dec, 7::int AS small, 2.5::float8 AS dbl, true AS yes, NULL::bigint AS none,
      ARRAY[${big}::bigint, 2::bigint] AS bigs, ARRAY['a', 'b'] AS texts, ${'text'} AS word,
      ${[1, 2, 3]}::int[] AS list`;

  it('returns the same values as $queryRaw: bigint, Date, parsed JSON, Decimal, arrays, null', async () => {
    const at = new Date('2026-11-21T10:11:12.345Z');
    const big = 9_007_199_254_740_993n; // past 2^53: exact only as a bigint
    const json = { a: [1, 'x'], b: { c: null } };
    const [direct] = await queryDirect<Record<string, unknown>>(probe(at, big, json));
    const [client] = await db().$queryRaw<Record<string, unknown>[]>(probe(at, big, json));
    expect(direct).toEqual(client);
    expect(direct.big).toBe(big);
    expect((direct.at as Date).toISOString()).toBe(at.toISOString());
    expect(direct.doc).toEqual(json);
    expect(String(direct.dec)).toBe('1.25');
    expect(direct).toMatchObject({
      small: 7,
      dbl: 2.5,
      yes: true,
      none: null,
      bigs: [big, 2n],
      texts: ['a', 'b'],
      word: 'text',
      list: [1, 2, 3],
    });
  });

  it('sends objects as JSON and Decimals as their digits', async () => {
    const [row] = await queryDirect<{ doc: unknown; dec: string }>(
      Prisma.sql`SELECT ${{ k: 1 }}::jsonb AS doc, ${new Prisma.Decimal('12.5')}::numeric::text AS dec`,
    );
    expect(row).toEqual({ doc: { k: 1 }, dec: '12.5' });
  });

  it('runs inside a transaction through the transaction client (queryIn), outside it directly', async () => {
    const inside = await db().$transaction(async (tx) =>
      queryIn<{ txid: bigint; outer: bigint }>(tx, Prisma.sql`SELECT txid_current() AS txid, txid_current() AS outer`),
    );
    expect(inside[0].txid).toBe(inside[0].outer);
    const [a] = await queryIn<{ one: number }>(db(), Prisma.sql`SELECT 1::int AS one`);
    const [b] = await queryIn<{ one: number }>(db(), Prisma.sql`SELECT 1::int AS one`);
    expect([a.one, b.one]).toEqual([1, 1]);
  });

  it("carries PostgreSQL's error codes, as the client's errors do", async () => {
    expect(pgCode(await queryDirect(Prisma.sql`SELECT 1/0`).catch((e: unknown) => e))).toBe('22012');
    const unique = await queryDirect(
      Prisma.sql`DO $$ BEGIN RAISE EXCEPTION 'taken' USING ERRCODE = 'unique_violation'; END $$`,
    ).catch((e: unknown) => e);
    expect(isUniqueViolation(unique)).toBe(true);
  });
});

// Statements built with Kysely (lib/core/sql.ts) go the same two ways: their parameters are
// encoded by encodeParameter and their values parsed by queryDirect's type parsers (outside a
// transaction) or by the client (inside one); both must give the same values.
describe('Kysely statements', () => {
  const probe = (at: Date, big: bigint, doc: unknown) =>
    sql`SELECT ${big}::bigint AS big, ${at}::timestamp(3) AS at, ${jsonText(doc)}::jsonb AS doc,
      ${new Prisma.Decimal('12.5')}::numeric AS dec, ${[big, 2n]}::bigint[] AS bigs, ${['a', 'b']}::text[] AS texts,
      ${at}::timestamp(3)::date AS day, ${[at]}::timestamp(3)[] AS ats`;

  it('give the same values directly and in a transaction: bigint past 2^53, UTC times, JSON, numeric, arrays', async () => {
    const at = new Date('2026-11-21T23:59:58.999Z');
    const big = 9_007_199_254_740_993n;
    const doc = { n: 1, list: ['x', { y: null }] };
    const [direct] = await queryDirect<Record<string, unknown>>(probe(at, big, doc));
    const [inTx] = await db().$transaction((tx) => queryIn<Record<string, unknown>>(tx, probe(at, big, doc)));
    expect(direct.big).toBe(big);
    expect((direct.at as Date).toISOString()).toBe(at.toISOString());
    expect((direct.day as Date).toISOString()).toBe('2026-11-21T00:00:00.000Z');
    expect(direct.doc).toEqual(doc);
    expect(String(direct.dec)).toBe('12.5');
    expect(direct.bigs).toEqual([big, 2n]);
    expect(direct.texts).toEqual(['a', 'b']);
    expect((direct.ats as Date[]).map((d) => d.toISOString())).toEqual([at.toISOString()]);
    expect(inTx).toEqual(direct);
  });

  it('write a typed row and read it back exactly (insertAll)', async () => {
    const id = `Event:db-test-${Date.now()}-${Math.random()}`;
    const { platformId } = await newPlatform();
    const createdAt = new Date('2026-01-02T03:04:05.678Z');
    await queryDirect(
      insertAll([{ table: 'Event', row: { id, platformId, type: 'T', payload: '{"a":1}', createdAt } }]),
    );
    const row = await db().event.findUnique({ where: { id } });
    expect(row).toMatchObject({ id, type: 'T', payload: '{"a":1}', createdAt });
    await db().event.delete({ where: { id } });
  });
});
