import type { Tx } from '../core/db';
import * as ledger from '../ledger/service';
import { bucketAccount, systemAccount } from '../ledger/service';
import * as accounts from '../accounts/service';
import { recordEvents } from '../events/outbox';

// Ledger postings of card transactions, each one balanced posting tagged with the card
// transaction. Places money can be, for a funding account A in currency C:
//   available   A's AVAILABLE bucket (spendable)
//   held        A's HELD bucket: authorized purchases not yet cleared (the pull)
//   pending     A's PENDING bucket: authorized credits not yet cleared
//   network     the card network (WORLD:CARD): where cleared purchases go and credits come from
//   receivable  CARD_RECEIVABLE: clearings paid to the network that the funding source could not cover
export type Place = 'available' | 'held' | 'pending' | 'network' | 'receivable';

function account(platformId: string, accountId: string, currency: string, place: Place): string {
  switch (place) {
    case 'available':
      return bucketAccount(accountId, 'AVAILABLE');
    case 'held':
      return bucketAccount(accountId, 'HELD');
    case 'pending':
      return bucketAccount(accountId, 'PENDING');
    case 'network':
      return systemAccount(platformId, 'WORLD:CARD', currency);
    case 'receivable':
      return systemAccount(platformId, 'CARD_RECEIVABLE', currency);
  }
}

export interface Funding {
  platformId: string;
  id: string;
  accountId: string;
  currency: string;
}

/**
 * Moves `amount` of a card transaction's money between two places. Throws InsufficientFunds
 * when an internal bucket would go negative (the caller's transaction rolls back).
 */
export async function move(tx: Tx, t: Funding, kind: string, from: Place, to: Place, amount: bigint): Promise<void> {
  if (amount <= 0n) return;
  await ledger.post(tx, {
    platformId: t.platformId,
    kind,
    transactionId: t.id,
    legs: [
      { account: account(t.platformId, t.accountId, t.currency, from), currency: t.currency, amount: -amount },
      { account: account(t.platformId, t.accountId, t.currency, to), currency: t.currency, amount },
    ],
  });
}

/** Spendable balance of each account (what authorization decisioning reads). */
export async function available(ids: string[], tx: Tx): Promise<Map<string, bigint>> {
  const b = await ledger.balances(ids, tx);
  return new Map([...b].map(([id, x]) => [id, x.available]));
}

/** INTERNAL_ACCOUNT.BALANCE_UPDATED for the funding account a card event moved. */
export async function announceBalance(tx: Tx, platformId: string, accountId: string): Promise<void> {
  const [a] = await accounts.presentByIds([accountId], tx);
  if (a) await recordEvents(tx, platformId, [{ type: 'INTERNAL_ACCOUNT.BALANCE_UPDATED', data: a }]);
}
