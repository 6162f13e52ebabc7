import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { db } from './db';
import { hashKey } from './crypto/master-key';
import { invalidInput } from './errors';
import { inStoredRange } from './fields';
import { type Page } from './pagination';

// Lists that cost the same at a million rows as at a thousand (docs-draft/lists.md).
//
// - Order is (createdAt, id), newest first unless asked otherwise, and every list has an index
//   ending in (createdAt, id) after its scope and filter columns. The cursor becomes an index
//   bound `createdAt <= X` (the row comparison (createdAt, id) < (X, Y) spelled so Prisma can
//   write it): the scan starts at the cursor, and only the rows sharing X are filtered by id.
// - totalCount is never a COUNT per page. A list either reads a counter kept with the rows (cheap,
//   read on every page: `countIsCheap`), or counts once on its first page and carries that count
//   in the cursor, which is signed (so a client cannot make the service report a count it did not
//   compute) and bound to the filters it was computed for (other filters count again).
// - That one count is bounded: it stops at listCountCap() rows (10,000 unless
//   CORRIDOR_LIST_COUNT_CAP says otherwise), so a filter matching half of a million-row table
//   costs what ten thousand index entries cost. Past the cap the answer has no totalCount (it is
//   optional in the reference) rather than a wrong one; hasMore and nextCursor page on as ever.
//
// A list adopts it in its repository:
//   listRows(req, {
//     rows: (after, take) => db().thing.findMany({ where: { AND: [base, after] }, orderBy: orderOf(req.order), take }),
//     count: (cap) => db().thing.count({ where: base, ...bounded(cap) }),
//   })
// and its service answers pageOf(listed, present). Give the table an index
// (platformId, [filter columns,] createdAt, id).

export type Order = 'asc' | 'desc';

export interface ListRequest {
  limit: number;
  cursor?: string;
  order?: Order;
  /** Every filter of the request (undefined ones ignored): the carried count is bound to them. */
  filters: Record<string, unknown>;
  /**
   * False: the caller knows the count already (a list merged from several tables carries its
   * own), so the rows are read without counting (total 0).
   */
  count?: boolean;
}

export interface Position {
  createdAt: Date;
  id: string;
  /**
   * The count carried from the first page, when it was computed for the same filters; null when
   * it passed the cap (carried too, so that later pages do not count again).
   */
  total?: number | null;
}

export interface Listed<R> {
  rows: R[];
  limit: number;
  /** The exact number of rows the filters match, or null: more than listCountCap(). */
  total: number | null;
  fingerprint: string;
}

/** How many rows a list's count goes up to before it stops (a counter kept with the rows has none). */
export function listCountCap(): number {
  const n = Number(process.env.CORRIDOR_LIST_COUNT_CAP);
  return Number.isSafeInteger(n) && n > 0 ? n : 10_000;
}

/** A carried total in the cursor: the count, or -1 for "more than the cap". */
const OVER_CAP = -1;

/** Prisma `where` for the rows after `p` in (createdAt, id) order: an index bound on createdAt. */
export function keysetAfter(p: Position | undefined, order: Order = 'desc') {
  if (!p) return {};
  const at = p.createdAt;
  return order === 'desc'
    ? { AND: [{ createdAt: { lte: at } }, { OR: [{ createdAt: { lt: at } }, { id: { lt: p.id } }] }] }
    : { AND: [{ createdAt: { gte: at } }, { OR: [{ createdAt: { gt: at } }, { id: { gt: p.id } }] }] };
}

export function orderOf(order: Order = 'desc') {
  return [{ createdAt: order }, { id: order }];
}

/**
 * A Prisma count's arguments that stop it after `cap` rows. Prisma writes `take` as a subquery
 * with a LIMIT and, unless told, an ORDER BY id (a sort of every match): ordered like the list,
 * the subquery walks the list's own index and stops at the cap.
 */
export function bounded(cap: number) {
  return { take: cap, orderBy: orderOf() };
}

export function fingerprintOf(filters: Record<string, unknown>, order: Order = 'desc'): string {
  const keys = Object.keys(filters)
    .filter((k) => filters[k] !== undefined && filters[k] !== null && filters[k] !== '')
    .sort();
  const canon = JSON.stringify([
    order,
    keys.map((k) => [k, String(filters[k] instanceof Date ? (filters[k] as Date).toISOString() : filters[k])]),
  ]);
  return createHash('sha256').update(canon).digest('base64url').slice(0, 12);
}

let signingKey: Buffer | undefined;
function sign(payload: string): string {
  signingKey ??= createHmac('sha256', hashKey()).update('corridor/list-cursor/v1').digest();
  return createHmac('sha256', signingKey).update(payload).digest('base64url').slice(0, 22);
}

export function encodePosition(p: Position, fingerprint: string): string {
  const total = p.total === null ? OVER_CAP : (p.total ?? null);
  const payload = Buffer.from(JSON.stringify([p.createdAt.toISOString(), p.id, total, fingerprint])).toString(
    'base64url',
  );
  return `${payload}.${sign(payload)}`;
}

function badCursor(): never {
  throw invalidInput('cursor is not valid: pass the nextCursor of a previous page', [
    { field: 'cursor', message: 'is not a cursor issued by this API' },
  ]);
}

/**
 * The position a cursor names. A count travels only in a signed cursor issued for the same
 * filters; a cursor of the earlier format ([createdAt, id], unsigned) still names its position.
 */
export function decodePosition(cursor: string | undefined, fingerprint: string): Position | undefined {
  if (cursor === undefined) return undefined;
  const [payload, mac, extra] = cursor.split('.');
  if (extra !== undefined || !payload) badCursor();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    badCursor();
  }
  if (!Array.isArray(parsed)) badCursor();
  const [at, id, total, fp] = parsed as [unknown, unknown, unknown, unknown];
  const createdAt = new Date(typeof at === 'string' ? at : NaN);
  if (typeof id !== 'string' || Number.isNaN(createdAt.getTime()) || !inStoredRange(createdAt)) badCursor();
  if (mac === undefined) return { createdAt, id }; // earlier format
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) badCursor();
  const carried =
    fp !== fingerprint || typeof total !== 'number' || !Number.isSafeInteger(total) || total < OVER_CAP
      ? undefined
      : total === OVER_CAP
        ? null
        : total;
  return { createdAt, id, ...(carried !== undefined ? { total: carried } : {}) };
}

export interface ListQueries<R> {
  /** The page's rows: `after` (keysetAfter) ANDed into the list's filters, ordered by orderOf. */
  rows(after: ReturnType<typeof keysetAfter>, take: number): Promise<R[]>;
  /**
   * The number of rows the filters match, counting no further than `cap` (Prisma: `count({ where,
   * ...bounded(cap) })`); a counter kept with the rows answers exactly and ignores it.
   */
  count(cap: number): Promise<number>;
  /** The count reads a counter (no scan): read it on every page rather than carry it. */
  countIsCheap?: boolean;
}

/** One page of rows (limit + 1 fetched to tell whether there is more) and the list's count. */
export async function listRows<R>(req: ListRequest, q: ListQueries<R>): Promise<Listed<R>> {
  const fingerprint = fingerprintOf(req.filters, req.order);
  const position = decodePosition(req.cursor, fingerprint);
  const carried = req.count === false ? 0 : q.countIsCheap ? undefined : position?.total;
  const cap = listCountCap();
  const [rows, total] = await Promise.all([
    q.rows(keysetAfter(position, req.order), req.limit + 1),
    carried !== undefined ? carried : q.count(cap + 1).then((n) => (!q.countIsCheap && n > cap ? null : n)),
  ]);
  return { rows, limit: req.limit, total, fingerprint };
}

/** The answer {data, hasMore, nextCursor, totalCount}; the next cursor carries the count. */
export function pageOf<R extends { createdAt: Date; id: string }, T>(l: Listed<R>, map: (r: R) => T): Page<T> {
  const hasMore = l.rows.length > l.limit;
  const pageRows = hasMore ? l.rows.slice(0, l.limit) : l.rows;
  const last = pageRows[pageRows.length - 1];
  return {
    data: pageRows.map(map),
    hasMore,
    ...(hasMore && last
      ? { nextCursor: encodePosition({ createdAt: last.createdAt, id: last.id, total: l.total }, l.fingerprint) }
      : {}),
    ...(l.total !== null ? { totalCount: l.total } : {}),
  };
}

/** A count kept by the ListCount triggers: the sum of the key's slots. */
export async function countFromCounters(platformId: string, list: string, key: string): Promise<number> {
  const rows = await db().$queryRaw<{ n: bigint | null }[]>`
    SELECT sum("n")::bigint AS n FROM "ListCount" WHERE "platformId" = ${platformId} AND "list" = ${list} AND "key" = ${key}`;
  return Number(rows[0]?.n ?? 0);
}
