import { pageOfList } from '../core/pagination';
import { VASPS } from './catalog';

// The reference's VaspListResponse has no totalCount: the page carries data, hasMore, nextCursor.
export function listVasps(limit: number, cursor: string | undefined) {
  const { data, hasMore, nextCursor } = pageOfList(VASPS, (v) => v.vaspName, limit, cursor);
  return { data, hasMore, ...(nextCursor ? { nextCursor } : {}) };
}
