import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/agents/commands';
import { quote, quoteIdParams } from '@/lib/payments/quotes/schema';

// GET /agents/me/quotes/{quoteId} – a quote this agent created (404 for any other)
const get = commandEndpoint(
  {
    method: 'GET',
    path: '/agents/me/quotes/{quoteId}',
    summary: 'Get agent quote by ID',
    tags: ['Agent Operations'],
    auth: 'agent',
    params: quoteIdParams,
    answer: ok,
    responses: { 200: { description: 'Quote retrieved', schema: quote }, ...errors(401, 403, 404) },
  },
  commands.getQuote,
  ({ params }) => params,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(get);
