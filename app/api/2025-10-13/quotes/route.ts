import { endpoint, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { quote, quoteRequest } from '@/lib/payments/quotes/schema';
import { createQuote } from '@/lib/payments/quotes/create';

// POST /quotes – price a cross-currency transfer (account or real-time funding → account or UMA)
const create = endpoint(
  {
    method: 'POST',
    path: '/quotes',
    summary: 'Create a transfer quote',
    tags: ['Cross-Currency Transfers'],
    permission: 'TRANSACT',
    body: quoteRequest,
    idempotent: true,
    // 202 while the quote awaits Strong Customer Authentication.
    answer: ({ quote: q, status }: { quote: unknown; status: 201 | 202 }) => ({ status, body: q }),
    responses: {
      201: { description: 'Quote created', schema: quote },
      202: { description: 'Quote created, awaiting Strong Customer Authentication', schema: quote },
      ...errors(400, 401, 403, 424, 429),
    },
  },
  async ({ actor, body }) => createQuote(actor.platformId, body),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(create);
