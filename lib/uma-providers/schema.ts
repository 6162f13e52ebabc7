import { z } from 'zod';
import { currency } from '../accounts/schema';
import { queryBoolean } from '../core/fields';
import { pageQuery } from '../core/pagination';

// GET /uma-providers (reference: getAvailableUmaProviders, UmaProviderListResponse).
export const umaProviderQuery = z.object({
  countryCode: z.string().max(16).optional(),
  currencyCode: z.string().max(16).optional(),
  hasBlockedProviders: queryBoolean.optional(),
  sortOrder: z.enum(['asc', 'desc']).default('desc'),
  ...pageQuery,
});
export type UmaProviderQuery = z.output<typeof umaProviderQuery>;

export const umaProviderList = z.object({
  data: z.array(
    z.object({
      name: z.string(),
      supportedRegions: z.array(z.string()),
      domain: z.string(),
      logoUrl: z.string().optional(),
      supportedCurrencies: z.array(currency),
      allowListStatus: z.boolean(),
    }),
  ),
  hasMore: z.boolean(),
  nextCursor: z.string().optional(),
  totalCount: z.number().int().optional(),
});
