import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/agents/commands';
import { agentAction } from '@/lib/agents/schema';
import { quoteIdParams } from '@/lib/payments/quotes/schema';

// POST /agents/me/quotes/{quoteId}/execute – executed now (AUTO) or held for the platform's approval
const execute = commandEndpoint(
  {
    method: 'POST',
    path: '/agents/me/quotes/{quoteId}/execute',
    summary: 'Execute a quote',
    tags: ['Agent Operations'],
    auth: 'agent',
    params: quoteIdParams,
    answer: ok,
    headers: { 'Service-Wallet-Signature': 'Stamp over the quote payloadToSign (Embedded Wallet sources)' },
    responses: { 200: { description: 'Action submitted', schema: agentAction }, ...errors(400, 401, 403, 404, 409) },
  },
  commands.executeQuote,
  ({ params, signed }) => ({ quoteId: params.quoteId, stamp: signed.stamp }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(execute);
