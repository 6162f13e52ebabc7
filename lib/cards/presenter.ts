import { currencyAmount } from '../core/currencies';
import type { CardRow, CardTransactionRow } from './repository';

// The wire shapes (reference: Card, CardTransaction). A card never carries its PAN or CVV: they
// are sealed in the row and shown only by a reveal.
export function toCard(row: CardRow) {
  return {
    id: row.id,
    cardholderId: row.cardholderId,
    platformCardId: row.platformCardId,
    state: row.state,
    stateReason: row.stateReason,
    brand: row.brand,
    form: row.form,
    last4: row.last4,
    expMonth: row.expMonth,
    expYear: row.expYear,
    fundingSources: row.fundingSources as string[],
    maxSpendPerTransaction: row.maxSpendPerTransaction,
    currency: row.currency,
    ...(row.processorRef ? { processorRef: row.processorRef } : {}),
    ...(row.issuerRef ? { issuerRef: row.issuerRef } : {}),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
export type Card = ReturnType<typeof toCard>;

export function toCardTransaction(row: CardTransactionRow) {
  const money = (amount: bigint) => currencyAmount(amount, row.currency);
  return {
    type: 'CARD' as const,
    id: row.id,
    cardId: row.cardId,
    customerId: row.customerId,
    platformCustomerId: row.platformCustomerId,
    issuerTransactionToken: row.issuerTransactionToken,
    status: row.status,
    direction: row.direction,
    merchant: row.merchant as { descriptor: string; mcc?: string; country?: string },
    authorizedAmount: money(row.authorizedAmount),
    settledAmount: money(row.settledAmount),
    refundedAmount: money(row.refundedAmount),
    accountId: row.accountId,
    pullSummary: { count: row.pullCount, totalAmount: row.pullTotal, pendingCount: row.pullPending },
    refundSummary: { count: row.refundCount, totalAmount: row.refundedAmount },
    settlementSummary: { count: row.settlementCount, totalAmount: row.settledAmount },
    authorizedAt: row.authorizedAt,
    ...(row.lastEventAt ? { lastEventAt: row.lastEventAt } : {}),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
export type CardTransaction = ReturnType<typeof toCardTransaction>;

/** Tells a card transaction from a payment transaction in the transaction list. */
export const isCardTransaction = (t: { type: string }): t is CardTransaction => t.type === 'CARD';
