import { z } from 'zod';
import { currency } from '../accounts/schema';
import { INT64_MAX, money, queryList } from '../core/fields';

// GET /exchange-rates (reference: getExchangeRates, ExchangeRateListResponse).
export const DEFAULT_SENDING_AMOUNT = 10_000n;

/** A query-string int64 >= 0 in the smallest unit. */
const queryAmount = z
  .string()
  .regex(/^\d{1,19}$/, 'must be a whole number >= 0 in the smallest unit of the source currency')
  .transform((v) => BigInt(v))
  .refine((v) => v <= INT64_MAX, { message: `must be <= ${INT64_MAX}` })
  .meta({ type: 'integer', format: 'int64' } as Record<string, unknown>);

export const exchangeRateQuery = z.object({
  sourceCurrency: z.string().max(16).optional(),
  destinationCurrency: queryList(z.string().max(16), 64).optional(),
  sendingAmount: queryAmount.optional(),
});
export type ExchangeRateQuery = z.output<typeof exchangeRateQuery>;

export const exchangeRate = z.object({
  sourceCurrency: currency,
  destinationCurrency: currency,
  destinationPaymentRail: z.string(),
  sendingAmount: money(),
  minSendingAmount: money(),
  maxSendingAmount: money(),
  receivingAmount: money(),
  exchangeRate: z.number(),
  fees: z.object({ fixed: money(), total: money() }),
  updatedAt: z.string(),
});

export const exchangeRateList = z.object({ data: z.array(exchangeRate) });
