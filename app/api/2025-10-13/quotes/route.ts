import { commandEndpoint, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as payments from '@/lib/payments/commands';
import { quote, quoteRequest } from '@/lib/payments/quotes/schema';

// POST /quotes – price a cross-currency transfer (account or real-time funding → account or UMA)
const create = commandEndpoint(
  {
    method: 'POST',
    path: '/quotes',
    summary: 'Create a transfer quote',
    tags: ['Cross-Currency Transfers'],
    body: quoteRequest,
    // 202 while the quote awaits Strong Customer Authentication.
    answer: ({ quote: q, status }: { quote: unknown; status: 201 | 202 }) => ({ status, body: q }),
    responses: {
      201: { description: 'Quote created', schema: quote },
      202: { description: 'Quote created, awaiting Strong Customer Authentication', schema: quote },
      ...errors(400, 401, 403, 424, 429),
    },
  },
  payments.createQuote,
  ({ body }) => body,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(create);
