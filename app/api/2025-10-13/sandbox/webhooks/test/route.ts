import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { testWebhookResponse } from '@/lib/webhooks/schema';
import { sendTestWebhook } from '@/lib/webhooks/service';

// POST /sandbox/webhooks/test – send a signed TEST webhook to the configured endpoint now
const sendTest = endpoint(
  {
    method: 'POST',
    path: '/sandbox/webhooks/test',
    summary: 'Send a test webhook',
    description: 'Send a test webhook to the configured endpoint',
    tags: ['Sandbox'],
    permission: 'MANAGE',
    sandboxOnly: true,
    responses: {
      200: { description: 'Webhook delivered successfully', schema: testWebhookResponse },
      ...errors(400, 401, 403),
    },
  },
  async ({ actor }) => ok(await sendTestWebhook(actor.platformId)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(sendTest);
