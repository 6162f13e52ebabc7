import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { quote, quoteIdParams } from '@/lib/payments/quotes/schema';
import { getQuote } from '@/lib/agents/me';

// GET /agents/me/quotes/{quoteId} – a quote this agent created (404 for any other)
const get = endpoint(
  {
    method: 'GET',
    path: '/agents/me/quotes/{quoteId}',
    summary: 'Get agent quote by ID',
    tags: ['Agent Operations'],
    auth: 'agent',
    params: quoteIdParams,
    responses: { 200: { description: 'Quote retrieved', schema: quote }, ...errors(401, 403, 404) },
  },
  async ({ actor, params }) => ok(await getQuote(actor, params.quoteId)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(get);
