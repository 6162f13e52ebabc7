import { newId } from '../core/ids';
import { now } from '../core/clock';
import type { Tx } from '../core/db';
import { recordEvent, type EventType } from '../events/outbox';
import * as repo from './repository';
import { toCardTransaction } from './presenter';
import type { CardTransactionStatus } from './state';
import { announceBalance } from './postings';

// What every processor event leaves behind: its CardEvent row (the decision, with the issuer's
// token), and for a card transaction that changed, its webhook and the funding account's balance.
export type EventKind =
  | 'AUTHORIZATION'
  | 'FINANCIAL_AUTHORIZATION'
  | 'CREDIT_AUTHORIZATION'
  | 'FINANCIAL_CREDIT_AUTHORIZATION'
  | 'CREDIT_AUTHORIZATION_ADVICE'
  | 'AUTHORIZATION_ADVICE'
  | 'BALANCE_INQUIRY'
  | 'CLEARING'
  | 'AUTHORIZATION_EXPIRY'
  | 'RETURN'
  | 'RETURN_REVERSAL'
  | 'PULL_CONFIRMATION';

export async function recordCardEvent(
  tx: Tx,
  e: {
    platformId: string;
    cardId: string;
    cardTransactionId?: string | null;
    token: string;
    kind: EventKind;
    amount: bigint;
    declineReason?: string | null;
    details?: Record<string, unknown>;
  },
) {
  return repo.insertEvent(
    {
      id: newId('CardEvent'),
      platformId: e.platformId,
      cardId: e.cardId,
      cardTransactionId: e.cardTransactionId ?? null,
      issuerTransactionToken: e.token,
      kind: e.kind,
      amount: e.amount,
      outcome: e.declineReason ? 'DECLINED' : 'APPROVED',
      declineReason: e.declineReason ?? null,
      details: (e.details ?? {}) as object,
      createdAt: now(),
    },
    tx,
  );
}

const EVENT_OF: Record<CardTransactionStatus, EventType> = {
  AUTHORIZED: 'CARD_TRANSACTION.AUTHORIZED',
  PARTIALLY_SETTLED: 'CARD_TRANSACTION.PARTIALLY_SETTLED',
  SETTLED: 'CARD_TRANSACTION.SETTLED',
  REFUNDED: 'CARD_TRANSACTION.REFUNDED',
  EXCEPTION: 'CARD_TRANSACTION.EXCEPTION',
};

/** The CARD_TRANSACTION webhook for the transaction as it now is (or `type`), and its account's balance. */
export async function announce(tx: Tx, row: repo.CardTransactionRow, type?: EventType): Promise<void> {
  await recordEvent(tx, row.platformId, type ?? EVENT_OF[row.status as CardTransactionStatus], toCardTransaction(row));
  await announceBalance(tx, row.platformId, row.accountId);
}
