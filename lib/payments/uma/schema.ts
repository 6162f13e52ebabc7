import { z } from 'zod';
import { money } from '../../core/fields';
import { currency } from '../../accounts/schema';

// Receiver lookups (reference: ReceiverUmaLookupResponse, ReceiverExternalAccountLookupResponse).
export const lookupQuery = z.object({ senderUmaAddress: z.string().optional(), customerId: z.string().optional() });
export const umaParams = z.object({ receiverUmaAddress: z.string() });
export const accountParams = z.object({ accountId: z.string() });

const preference = z.object({ currency, estimatedExchangeRate: z.number(), min: money(), max: money() });
const fieldDefinition = z.object({ name: z.string(), mandatory: z.boolean() });

export const umaLookupResponse = z.object({
  receiverUmaAddress: z.string(),
  supportedCurrencies: z.array(preference),
  requiredPayerDataFields: z.array(fieldDefinition),
  lookupId: z.string(),
});
export const accountLookupResponse = z.object({
  accountId: z.string(),
  supportedCurrencies: z.array(preference),
  requiredPayerDataFields: z.array(fieldDefinition),
  lookupId: z.string(),
});
