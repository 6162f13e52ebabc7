import type { Tx } from '../db';
import { recordEvent } from '../events/outbox';
import * as accounts from '../accounts/service';
import * as accountsRepo from '../accounts/repository';
import { now } from '../clock';

/** INTERNAL_ACCOUNT.BALANCE_UPDATED for each internal account a posting touched. */
export async function announceBalances(tx: Tx, platformId: string, internalAccountIds: string[]): Promise<void> {
  const ids = [...new Set(internalAccountIds)];
  if (!ids.length) return;
  await accountsRepo.touch(ids, now(), tx);
  for (const id of ids) {
    await recordEvent(tx, platformId, 'INTERNAL_ACCOUNT.BALANCE_UPDATED', await accounts.get(platformId, id, tx));
  }
}
