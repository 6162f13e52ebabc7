import 'server-only';
import { listCountCap } from '@/lib/core/list';

/**
 * A list's totalCount for a page: the number, or "10,000+" when the list's count stopped at its
 * cap (lib/core/list.ts) — the pages never count further than the API does.
 */
export function countLabel(n: number | null | undefined): string {
  return n === undefined || n === null ? `${listCountCap().toLocaleString('en-US')}+` : n.toLocaleString('en-US');
}
