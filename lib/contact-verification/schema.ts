import { z } from 'zod';

// Contact verification (reference: ContactVerificationConfirmRequest).
export const confirmBody = z.object({
  code: z.string().max(64).describe('The one-time code the customer received (in sandbox always 123456)'),
});
