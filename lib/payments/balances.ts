import { now } from '../core/clock';
import { newId } from '../core/ids';
import { currentTraceParent } from '../core/tracing';
import type { Tx } from '../core/db';
import { eventRow, recordEvents } from '../events/outbox';
import * as accounts from '../accounts/service';
import type { InternalAccountRow } from '../accounts/repository';
import type { Announcement } from '../ledger/service';

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
 * BALANCE_UPDATED events for accounts a posting is about to move, written by the posting's own
 * statement (ledger.runStep) with the balances it leaves.
 */
export function balanceAnnouncements(platformId: string, rows: InternalAccountRow[]): Announcement[] {
  const at = now();
  return [...new Map(rows.map((r) => [r.id, r])).values()].map((row) => {
    const eventId = newId('Webhook');
    return {
      eventId,
      platformId,
      internalAccountId: row.id,
      createdAt: at,
      traceParent: currentTraceParent() ?? null,
      body: ({ available, total }) => {
        const data = accounts.toInternalAccount(row, { available, held: 0n, pending: total - available });
        return eventRow(platformId, 'INTERNAL_ACCOUNT.BALANCE_UPDATED', data, at, eventId).payload;
      },
    };
  });
}
