import type { Tx } from '../core/db';
import { eventRow, recordEvents } from '../events/outbox';
import * as accounts from '../accounts/service';
import type { InternalAccountRow } from '../accounts/repository';
import { BALANCE_MARKERS, type Announcement } from '../ledger/service';

/**
 * INTERNAL_ACCOUNT.BALANCE_UPDATED for each internal account a posting touched, in one statement
 * (reads the balances first).
 */
export async function announceBalances(tx: Tx, platformId: string, internalAccountIds: string[]): Promise<void> {
  const ids = [...new Set(internalAccountIds)];
  const balances = ids.length ? await accounts.presentByIds(ids, tx) : [];
  if (balances.length)
    await recordEvents(
      tx,
      platformId,
      balances.map((a) => ({ type: 'INTERNAL_ACCOUNT.BALANCE_UPDATED' as const, data: a })),
    );
}

/**
 * BALANCE_UPDATED events for accounts a posting is about to move, rendered by the posting's own
 * statement (ledger.runStep): the body is built here with markers for the new balances.
 */
export function balanceAnnouncements(platformId: string, rows: InternalAccountRow[]): Announcement[] {
  return [...new Map(rows.map((r) => [r.id, r])).values()].map((row) => {
    const body = accounts.toInternalAccount(row, {
      available: BALANCE_MARKERS.available,
      held: 0n,
      pending: BALANCE_MARKERS.total - BALANCE_MARKERS.available,
    });
    const ev = eventRow(platformId, 'INTERNAL_ACCOUNT.BALANCE_UPDATED', body);
    return { eventId: ev.id, platformId, internalAccountId: row.id, createdAt: ev.createdAt, template: ev.payload };
  });
}
