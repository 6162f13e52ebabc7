import { z } from 'zod';
import { currency } from '../accounts/schema';
import { INT64_MAX, money } from '../core/fields';

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
  // Repeatable: ?destinationCurrency=INR&destinationCurrency=GBP arrives as an array.
  destinationCurrency: z
    .union([z.string().max(16), z.array(z.string().max(16)).max(64)])
    .optional()
    .transform((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v])),
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
