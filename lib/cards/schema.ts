import { z } from 'zod';
import { countryCode, currencyCode, money } from '../core/fields';
import { pageQuery } from '../core/pagination';

// Cards (reference: Card, CardCreateRequest, CardUpdateRequest, CardListResponse,
// CardRevealResponse, CardTransaction and the Sandbox card simulation requests).
export const cardState = z.enum(['PENDING_KYC', 'PROCESSING', 'ACTIVE', 'FROZEN', 'CLOSED']);
const fundingSources = z.array(z.string().min(1).max(128)).min(1).max(10);

export const cardCreateRequest = z.object({
  cardholderId: z.string().min(1).max(128),
  platformCardId: z.string().trim().min(1).max(255).optional(),
  threeDSecurePassword: z.string().min(8).max(64).optional(),
  form: z.enum(['VIRTUAL']),
  fundingSources,
  maxSpendPerTransaction: money({ min: 1n }).optional(),
});

export const cardUpdateRequest = z.object({
  state: z.enum(['ACTIVE', 'FROZEN', 'CLOSED']).optional(),
  fundingSources: fundingSources.optional(),
  maxSpendPerTransaction: money({ min: 1n }).nullable().optional(),
});

export const cardListQuery = z.object({
  cardholderId: z.string().optional(),
  accountId: z.string().optional(),
  platformCardId: z.string().optional(),
  state: cardState.optional(),
  sortOrder: z.enum(['asc', 'desc']).default('desc'),
  ...pageQuery,
});

export const cardIdParams = z.object({ id: z.string() });

export const card = z
  .object({
    id: z.string(),
    cardholderId: z.string(),
    platformCardId: z.string(),
    state: cardState,
    stateReason: z.enum(['ISSUER_REJECTED', 'CLOSED_BY_PLATFORM', 'CLOSED_BY_GRID']).nullable(),
    brand: z.enum(['VISA', 'MASTERCARD']),
    form: z.enum(['VIRTUAL']),
    last4: z.string(),
    expMonth: z.number().int(),
    expYear: z.number().int(),
    fundingSources: z.array(z.string()),
    maxSpendPerTransaction: z.number().int().nullable(),
    currency: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .catchall(z.unknown());
export const cardList = z.object({
  data: z.array(card),
  hasMore: z.boolean(),
  nextCursor: z.string().optional(),
  totalCount: z.number().int().optional(),
});
export const cardReveal = z.object({ panEmbedUrl: z.string(), expiresAt: z.string() });

// Sandbox simulations.
export const merchant = z.object({
  descriptor: z.string().trim().min(1).max(255),
  mcc: z
    .string()
    .regex(/^\d{4}$/, 'must be a four-digit Merchant Category Code')
    .optional(),
  country: countryCode.optional(),
});
export const authorizationRequest = z.object({
  amount: money({ min: 1n }),
  // The reference's Currency: only the code decides; name, symbol and decimals are accepted as sent.
  currency: z.object({
    code: currencyCode,
    name: z.string().max(100).optional(),
    symbol: z.string().max(20).optional(),
    decimals: z.number().int().min(0).max(18).optional(),
  }),
  merchant,
});
export const balanceInquiryRequest = z.object({ merchant });
export const clearingRequest = z.object({ cardTransactionId: z.string().min(1), amount: money({ min: 0n }) });
export const returnRequest = z.object({ cardTransactionId: z.string().min(1), amount: money({ min: 1n }) });
export const adviceRequest = z.object({ cardTransactionId: z.string().min(1), amount: money({ min: 1n }) });
export const transactionRefRequest = z.object({ cardTransactionId: z.string().min(1) });
export const simulationResponse = z.object({ issuerTransactionToken: z.string() });

export const cardTransaction = z
  .object({
    type: z.literal('CARD'),
    id: z.string(),
    status: z.enum(['AUTHORIZED', 'PARTIALLY_SETTLED', 'SETTLED', 'REFUNDED', 'EXCEPTION']),
    direction: z.enum(['CREDIT', 'DEBIT']),
    customerId: z.string(),
    platformCustomerId: z.string(),
  })
  .catchall(z.unknown());
