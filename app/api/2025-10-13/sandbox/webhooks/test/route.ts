import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { testWebhookResponse } from '@/lib/webhooks/schema';
import * as commands from '@/lib/sandbox/commands';

// POST /sandbox/webhooks/test – send a signed TEST webhook to the configured endpoint now
const sendTest = commandEndpoint(
  {
    method: 'POST',
    path: '/sandbox/webhooks/test',
    summary: 'Send a test webhook',
    description: 'Send a test webhook to the configured endpoint',
    tags: ['Sandbox'],
    answer: ok,
    sandboxOnly: true,
    responses: {
      200: { description: 'Webhook delivered successfully', schema: testWebhookResponse },
      ...errors(400, 401, 403),
    },
  },
  commands.testWebhook,
  () => ({}),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(sendTest);
