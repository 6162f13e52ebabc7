import { z } from 'zod';
import { isoDateTime } from '../../core/fields';
import { pageQuery } from '../../core/pagination';
import { cardTransaction } from '../../cards/schema';

// Transactions (reference: TransactionOneOf, TransactionListResponse and the action requests).
export const transactionStatus = z.enum([
  'CREATED',
  'PENDING',
  'PENDING_AUTHORIZATION',
  'PROCESSING',
  'COMPLETED',
  'REJECTED',
  'FAILED',
  'REFUNDED',
  'EXPIRED',
]);

export const transactionListQuery = z.object({
  customerId: z.string().optional(),
  platformCustomerId: z.string().optional(),
  accountIdentifier: z.string().optional(),
  senderAccountIdentifier: z.string().optional(),
  receiverAccountIdentifier: z.string().optional(),
  // Card transactions (type CARD) have their own statuses (reference: CardTransactionStatus).
  status: z.enum([...transactionStatus.options, 'AUTHORIZED', 'PARTIALLY_SETTLED', 'SETTLED', 'EXCEPTION']).optional(),
  type: z.enum(['INCOMING', 'OUTGOING', 'CARD']).optional(),
  reference: z.string().optional(),
  startDate: isoDateTime.optional(),
  endDate: isoDateTime.optional(),
  sortOrder: z.enum(['asc', 'desc']).default('desc'),
  ...pageQuery,
});

export const transactionIdParams = z.object({ transactionId: z.string() });
export const confirmRequest = z.object({ receiptDeliveryConfirmedAt: isoDateTime.optional() }).default({});
export const approveRequest = z
  .object({ receiverCustomerInfo: z.record(z.string(), z.unknown()).optional() })
  .default({});
export const rejectRequest = z.object({ reason: z.string().max(255).optional() }).default({});
export const cancelRequest = z.object({ reason: z.string().max(255).optional() }).default({});

// Response shape for the served document (the full variants are in the reference).
export const transaction = z
  .object({
    id: z.string(),
    status: transactionStatus,
    type: z.enum(['INCOMING', 'OUTGOING']),
    direction: z.enum(['CREDIT', 'DEBIT']),
    customerId: z.string(),
    platformCustomerId: z.string(),
  })
  .catchall(z.unknown());
/** A payment transaction or a card transaction (reference: TransactionOneOf). */
export const anyTransaction = z.union([transaction, cardTransaction]);
export const transactionList = z.object({
  data: z.array(anyTransaction),
  hasMore: z.boolean(),
  nextCursor: z.string().optional(),
  totalCount: z.number().int().optional(),
});
