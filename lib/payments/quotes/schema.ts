import { z } from 'zod';
import { currencyCode, isoDateTime, money } from '../../core/fields';
import { currency, paymentInstructions } from '../../accounts/schema';

// Quotes (reference: QuoteRequest, Quote). lockedCurrencyAmount accepts integers up to the
// specification's bound; amounts the corridor cannot carry are refused by the configured
// single-transaction maximum (TRANSACTION_SIZE_LIMIT_EXCEEDED), not by parsing.
export const LOCKED_AMOUNT_MAX = 90_000_000_000_000_001_000n;

export const paymentRail = z.enum([
  'ACH',
  'ACH_COLOMBIA',
  'BANK_TRANSFER',
  'BRE_B',
  'CIPS',
  'FAST',
  'FASTER_PAYMENTS',
  'FEDNOW',
  'INSTAPAY',
  'MOBILE_MONEY',
  'NEFT',
  'PAYNOW',
  'PESONET',
  'PIX',
  'RTGS',
  'RTP',
  'SEPA',
  'SEPA_INSTANT',
  'SPEI',
  'SWIFT',
  'UNIONPAY',
  'UPI',
  'WIRE',
]);

export const purposeOfPayment = z.enum([
  'GIFT',
  'SELF',
  'GOODS_OR_SERVICES',
  'EDUCATION',
  'HEALTH_OR_MEDICAL',
  'REAL_ESTATE_PURCHASE',
  'TAX_PAYMENT',
  'LOAN_PAYMENT',
  'UTILITY_BILL',
  'DONATION',
  'TRAVEL',
  'FAMILY_SUPPORT',
  'SALARY_PAYMENT',
  'OTHER',
]);

export const quoteSource = z.discriminatedUnion('sourceType', [
  z.object({ sourceType: z.literal('ACCOUNT'), accountId: z.string().min(1), customerId: z.string().optional() }),
  z.object({
    sourceType: z.literal('REALTIME_FUNDING'),
    currency: currencyCode,
    customerId: z.string().optional(),
    cryptoNetwork: z.string().max(32).optional(),
  }),
]);

export const quoteDestination = z.discriminatedUnion('destinationType', [
  z.object({
    destinationType: z.literal('ACCOUNT'),
    accountId: z.string().min(1),
    paymentRail: paymentRail.optional(),
  }),
  z.object({
    destinationType: z.literal('UMA_ADDRESS'),
    umaAddress: z.string().min(1).max(255),
    currency: currencyCode.optional(),
  }),
]);

export const quoteRequest = z.object({
  lookupId: z.string().optional(),
  source: quoteSource,
  destination: quoteDestination,
  lockedCurrencySide: z.enum(['SENDING', 'RECEIVING']),
  lockedCurrencyAmount: money({ min: 1n, max: LOCKED_AMOUNT_MAX }),
  immediatelyExecute: z.boolean().optional(),
  description: z.string().max(500).optional(),
  remittanceInformation: z.string().max(80).optional(),
  purposeOfPayment: purposeOfPayment.optional(),
  platformFeeOverride: z
    .object({
      platformFixedFee: z.object({ amount: money(), currency: currencyCode }),
      platformVariableFeeBps: z.number().int().min(0).max(10000),
    })
    .optional(),
  scaFactor: z.enum(['SMS_OTP', 'TOTP', 'PASSKEY']).optional(),
  senderCustomerInfo: z.record(z.string(), z.unknown()).optional(),
});
export type QuoteRequest = z.output<typeof quoteRequest>;

export const quoteIdParams = z.object({ quoteId: z.string() });

export const rateDetails = z.object({
  counterpartyMultiplier: z.number(),
  counterpartyFixedFee: money(),
  gridApiMultiplier: z.number(),
  gridApiFixedFee: money(),
  gridApiVariableFeeRate: z.number(),
  gridApiVariableFeeAmount: money(),
});

export const quote = z.object({
  id: z.string(),
  status: z.enum(['PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED']),
  createdAt: isoDateTime,
  expiresAt: isoDateTime,
  source: quoteSource,
  destination: quoteDestination,
  sendingCurrency: currency,
  receivingCurrency: currency,
  totalSendingAmount: money(),
  totalReceivingAmount: money(),
  exchangeRate: z.number(),
  feesIncluded: money(),
  platformFeesIncluded: money(),
  paymentInstructions: z.array(paymentInstructions).optional(),
  transactionId: z.string(),
  counterpartyInformation: z.record(z.string(), z.unknown()).optional(),
  rateDetails: rateDetails.optional(),
  scaChallenge: z
    .object({
      id: z.string(),
      expiresAt: isoDateTime,
      factor: z.string(),
      availableFactors: z.array(z.string()),
      purpose: z.string().nullable().optional(),
      passkeyAssertionOptions: z.record(z.string(), z.unknown()).nullable().optional(),
    })
    .optional(),
});

/**
 * The optional body of POST /quotes/{quoteId}/execute: a preferred factor for a Strong Customer
 * Authentication challenge. This service challenges at quote creation (real-time funding in SCA
 * regions), so on execute it is validated and otherwise has nothing to act on.
 */
export const executeQuoteBody = z
  .object({
    scaFactor: z
      .enum(['SMS_OTP', 'TOTP', 'PASSKEY'])
      .refine((v) => v !== 'TOTP', {
        message: 'TOTP cannot carry the dynamic linking a payment authorization needs; use SMS_OTP or PASSKEY',
        params: { constraint: { enum: ['SMS_OTP', 'PASSKEY'] } },
      })
      .optional(),
  })
  .optional();
