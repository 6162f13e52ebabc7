import { z } from 'zod';
import { invalidInput } from './errors';
import { inStoredRange } from './fields';

// Cursor pagination as the reference lists it: `limit` (1-100, default 20) and an opaque `cursor`;
// answers {data, hasMore, nextCursor, totalCount}. Order is newest first, ties broken by id,
// so pages are stable while rows are added.
export const pageQuery = {
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(512).optional(),
};

export interface Cursor {
  createdAt: Date;
  id: string;
}

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.createdAt.toISOString(), c.id])).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): Cursor | undefined {
  if (cursor === undefined) return undefined;
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    const createdAt = new Date(at);
    if (typeof id !== 'string' || Number.isNaN(createdAt.getTime()) || !inStoredRange(createdAt))
      throw new Error('bad cursor');
    return { createdAt, id };
  } catch {
    throw invalidInput('cursor is not valid: pass the nextCursor of a previous page', [
      { field: 'cursor', message: 'is not a cursor issued by this API' },
    ]);
  }
}

/** Prisma `where` fragment selecting rows strictly after the cursor in (createdAt desc, id desc) order. */
export function afterCursor(cursor: Cursor | undefined) {
  if (!cursor) return {};
  return {
    OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }],
  };
}

export const newestFirst = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
}

/** `rows` were fetched with take = limit + 1; the extra row only says whether there is more. */
export function toPage<R extends { createdAt: Date; id: string }, T>(
  rows: R[],
  limit: number,
  totalCount: number,
  map: (r: R) => T,
): Page<T> {
  const hasMore = rows.length > limit;
  const pageRows = hasMore ? rows.slice(0, limit) : rows;
  const last = pageRows[pageRows.length - 1];
  return {
    data: pageRows.map(map),
    hasMore,
    ...(hasMore && last ? { nextCursor: encodeCursor(last) } : {}),
    totalCount,
  };
}

/**
 * One page of a fixed, already ordered in-memory list (catalogs shipped in code). The cursor
 * names the last item shown by its unique key; the next request passes the same filters.
 */
export function pageOfList<T>(
  items: T[],
  keyOf: (item: T) => string,
  limit: number,
  cursor: string | undefined,
): Page<T> {
  let start = 0;
  if (cursor !== undefined) {
    let key: unknown;
    try {
      [, key] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    } catch {
      key = undefined;
    }
    const at = typeof key === 'string' ? items.findIndex((i) => keyOf(i) === key) : -1;
    if (at < 0)
      throw invalidInput('cursor is not valid: pass the nextCursor of a previous page', [
        { field: 'cursor', message: 'is not a cursor issued by this API' },
      ]);
    start = at + 1;
  }
  const data = items.slice(start, start + limit);
  const hasMore = start + limit < items.length;
  const last = data[data.length - 1];
  return {
    data,
    hasMore,
    ...(hasMore && last ? { nextCursor: Buffer.from(JSON.stringify(['k', keyOf(last)])).toString('base64url') } : {}),
    totalCount: items.length,
  };
}
