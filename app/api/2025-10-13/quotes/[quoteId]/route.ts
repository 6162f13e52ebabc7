import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { quote, quoteIdParams } from '@/lib/payments/quotes/schema';
import { getQuote } from '@/lib/payments/quotes/service';

// GET /quotes/{quoteId} – a quote and its current status
const get = endpoint(
  {
    method: 'GET',
    path: '/quotes/{quoteId}',
    summary: 'Get quote by ID',
    tags: ['Cross-Currency Transfers'],
    permission: 'VIEW',
    params: quoteIdParams,
    responses: { 200: { description: 'Successful operation', schema: quote }, ...errors(401, 403, 404) },
  },
  async ({ actor, params }) => ok(await getQuote(actor.platformId, params.quoteId)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(get);
