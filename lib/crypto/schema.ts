import { z } from 'zod';
import { money } from '../core/fields';

// POST /crypto/estimate-withdrawal-fee (reference: EstimateCryptoWithdrawalFeeRequest/Response).
export const estimateWithdrawalFeeRequest = z.object({
  internalAccountId: z.string().min(1).max(255),
  currency: z.string().min(1).max(16),
  cryptoNetwork: z.string().min(1).max(32),
  amount: money({ min: 1n }),
  destinationAddress: z.string().trim().min(1).max(2048),
});
export type EstimateWithdrawalFeeRequest = z.output<typeof estimateWithdrawalFeeRequest>;

export const estimateWithdrawalFeeResponse = z.object({
  networkFee: money(),
  networkFeeAsset: z.string(),
  applicationFee: money(),
  totalFee: money(),
  netAmount: money(),
});
