import { z } from 'zod';

// POST /sandbox/webhooks/test answer (reference: TestWebhookResponse; snake_case as the reference
// spells it). The reference's optional `response_body` is never sent: the endpoint is a URL the
// caller chose, and its answer must not be readable through this service. Instead the attempt's
// duration, our addition.
export const testWebhookResponse = z.object({
  url: z.string().optional(),
  response_status: z.number().int(),
  response_time_ms: z
    .number()
    .int()
    .describe('Corridor extension: milliseconds from sending the webhook to the end of the answer'),
});
