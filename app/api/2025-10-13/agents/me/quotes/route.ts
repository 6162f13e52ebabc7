import { commandEndpoint, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/agents/commands';
import { quote, quoteRequest } from '@/lib/payments/quotes/schema';

// POST /agents/me/quotes – a quote between the customer's own accounts or to a UMA address (CREATE_QUOTES)
const create = commandEndpoint(
  {
    method: 'POST',
    path: '/agents/me/quotes',
    summary: 'Create a transfer quote',
    tags: ['Agent Operations'],
    auth: 'agent',
    body: quoteRequest,
    answer: ({ quote: q, status }) => ({ status, body: q }),
    responses: { 201: { description: 'Quote created', schema: quote }, ...errors(400, 401, 403, 424) },
  },
  commands.createQuote,
  ({ raw }) => raw.body,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(create);
