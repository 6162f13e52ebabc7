import { z } from 'zod';
import { isoDateTime, money } from '../core/fields';
import { pageQuery } from '../core/pagination';

// Internal accounts (reference: InternalAccount, InternalAccountListResponse).
export const internalAccountType = z.enum(['INTERNAL_FIAT', 'INTERNAL_CRYPTO', 'EMBEDDED_WALLET']);
export const internalAccountStatus = z.enum(['PENDING', 'ACTIVE', 'CLOSED', 'FROZEN', 'FAILED']);

export const currency = z.object({
  code: z.string(),
  name: z.string(),
  symbol: z.string(),
  decimals: z.number().int(),
});
export const currencyAmount = z.object({ amount: money(), currency });

export const paymentInstructions = z.object({
  instructionsNotes: z.string().optional(),
  isPlatformAccount: z.boolean().optional(),
  accountOrWalletInfo: z.object({ accountType: z.string() }).catchall(z.unknown()),
});

export const internalAccount = z.object({
  id: z.string(),
  customerId: z.string().optional(),
  type: internalAccountType,
  status: internalAccountStatus,
  balance: currencyAmount,
  totalBalance: currencyAmount,
  fundingPaymentInstructions: z.array(paymentInstructions),
  privateEnabled: z.boolean().optional(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

export const internalAccountList = z.object({
  data: z.array(internalAccount),
  hasMore: z.boolean(),
  nextCursor: z.string().optional(),
  totalCount: z.number().int().optional(),
});

export const customerInternalAccountsQuery = z.object({
  currency: z.string().optional(),
  customerId: z.string().optional(),
  type: internalAccountType.optional(),
  ...pageQuery,
});

export const platformInternalAccountsQuery = z.object({
  currency: z.string().optional(),
  type: internalAccountType.optional(),
  ...pageQuery,
});
