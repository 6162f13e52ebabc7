import { z } from 'zod';

// POST /sandbox/webhooks/test answer (reference: TestWebhookResponse; snake_case as the reference spells it).
export const testWebhookResponse = z.object({
  url: z.string().optional(),
  response_status: z.number().int(),
  response_body: z.string().optional(),
});
