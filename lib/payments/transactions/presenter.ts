import { isInstantRail } from '../../rails/catalog';
import { currencyAmount } from '../../core/currencies';
import type { TransactionRow } from './repository';

// The wire shape of a transaction (reference: IncomingTransaction, OutgoingTransaction).
type Json = Record<string, unknown>;

export function toTransaction(row: TransactionRow) {
  const common = {
    id: row.id,
    status: row.status,
    ...(row.pendingReason ? { pendingReason: row.pendingReason } : {}),
    type: row.type,
    direction: row.direction,
    source: row.source as Json,
    destination: row.destination as Json,
    // Platform-initiated transactions have no customer: they carry the platform's own id.
    customerId: row.customerId ?? row.platformId,
    platformCustomerId: row.platformCustomerId ?? 'PLATFORM',
    ...(row.settledAt ? { settledAt: row.settledAt } : {}),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    ...(row.receiptDeliveryConfirmedAt ? { receiptDeliveryConfirmedAt: row.receiptDeliveryConfirmedAt } : {}),
    ...(row.agentId ? { agentId: row.agentId } : {}),
    ...(row.description ? { description: row.description } : {}),
    ...(row.exchangeRate !== null ? { exchangeRate: row.exchangeRate } : {}),
    ...(row.quoteId ? { quoteId: row.quoteId } : {}),
    ...(row.refund ? { refund: row.refund as Json } : {}),
    ...(row.counterpartyInformation ? { counterpartyInformation: row.counterpartyInformation as Json } : {}),
    ...(row.reference ? { reconciliationInstructions: { reference: row.reference } } : {}),
    ...(row.failureReason ? { failureReason: row.failureReason } : {}),
  };
  const sent =
    row.sentAmount !== null && row.sentCurrency ? currencyAmount(row.sentAmount, row.sentCurrency) : undefined;
  const received =
    row.receivedAmount !== null && row.receivedCurrency
      ? currencyAmount(row.receivedAmount, row.receivedCurrency)
      : undefined;
  if (row.type === 'INCOMING') {
    return {
      ...common,
      ...(sent ? { sentAmount: sent } : {}),
      receivedAmount: received ?? currencyAmount(0n, row.receivedCurrency ?? 'USD'),
      ...(row.fees !== null ? { fees: row.fees } : {}),
    };
  }
  return {
    ...common,
    sentAmount: sent ?? currencyAmount(0n, row.sentCurrency ?? 'USD'),
    ...(received ? { receivedAmount: received } : {}),
    ...(row.fees !== null ? { fees: row.fees } : {}),
    ...(row.platformFees !== null ? { platformFees: row.platformFees } : {}),
    ...(row.rateDetails ? { rateDetails: row.rateDetails as Json } : {}),
    paymentRail: row.paymentRail,
    railSelectionMode: row.railSelectionMode,
    // Null for instant rails (reference): settlement is immediate. The row keeps the sandbox's own timing.
    expectedSettlementAt: row.paymentRail && isInstantRail(row.paymentRail) ? null : row.expectedSettlementAt,
    settlementTimelineSeconds: row.settlementTimelineSeconds,
  };
}
export type Transaction = ReturnType<typeof toTransaction>;
