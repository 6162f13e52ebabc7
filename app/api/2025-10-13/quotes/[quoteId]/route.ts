import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as payments from '@/lib/payments/commands';
import { errors } from '@/lib/http/docs';
import { quote, quoteIdParams } from '@/lib/payments/quotes/schema';

// GET /quotes/{quoteId} – a quote and its current status
const get = commandEndpoint(
  {
    method: 'GET',
    path: '/quotes/{quoteId}',
    answer: ok,
    summary: 'Get quote by ID',
    tags: ['Cross-Currency Transfers'],
    params: quoteIdParams,
    responses: { 200: { description: 'Successful operation', schema: quote }, ...errors(401, 403, 404) },
  },
  payments.getQuote,
  ({ params }) => params,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(get);
