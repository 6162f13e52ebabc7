import { z } from 'zod';
import { money } from '../../core/fields';
import { paymentRail, purposeOfPayment } from '../quotes/schema';

// Same-currency transfers (reference: TransferInRequest, TransferOutRequest).
export const transferIn = z.object({
  source: z.object({ accountId: z.string().min(1) }),
  destination: z.object({ accountId: z.string().min(1) }),
  amount: money({ min: 1n }).optional(),
});

export const transferOut = z.object({
  source: z.object({ accountId: z.string().min(1) }),
  destination: z.object({ accountId: z.string().min(1), paymentRail: paymentRail.optional() }),
  amount: money({ min: 1n }).optional(),
  remittanceInformation: z.string().max(80).optional(),
  purposeOfPayment: purposeOfPayment.optional(),
});
