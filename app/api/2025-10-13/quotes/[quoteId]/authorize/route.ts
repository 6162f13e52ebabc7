import * as payments from '@/lib/payments/commands';
import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { quote, quoteIdParams } from '@/lib/payments/quotes/schema';

// POST /quotes/{quoteId}/authorize – satisfy a quote's Strong Customer Authentication challenge
const authorizeQuote = commandEndpoint(
  {
    method: 'POST',
    path: '/quotes/{quoteId}/authorize',
    answer: ok,
    summary: "Authorize a quote's SCA challenge",
    tags: ['Strong Customer Authentication'],
    params: quoteIdParams,
    body: payments.scaAuthorization,
    responses: { 200: { description: 'Challenge authorized', schema: quote }, ...errors(400, 401, 403, 404, 409, 429) },
  },
  payments.authorizeQuote,
  ({ params, body }) => ({ quoteId: params.quoteId, body }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(authorizeQuote);
