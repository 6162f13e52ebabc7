import { z } from 'zod';
import { invalidInput } from './errors';

// Cursor pagination as the reference lists it: `limit` (1-100, default 20) and an opaque `cursor`;
// answers {data, hasMore, nextCursor, totalCount}. Order is newest first, ties broken by id,
// so pages are stable while rows are added. Lists read from the database page with lib/core/list.ts.
export const pageQuery = {
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(512).optional(),
};

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string;
  /** Absent when a list's count stopped at its cap (lib/core/list.ts). */
  totalCount?: number;
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
