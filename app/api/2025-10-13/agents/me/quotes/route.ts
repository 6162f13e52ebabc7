import { endpoint, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { quote, quoteRequest } from '@/lib/payments/quotes/schema';
import { createQuote } from '@/lib/agents/me';

// POST /agents/me/quotes – a quote between the customer's own accounts or to a UMA address (CREATE_QUOTES)
const create = endpoint(
  {
    method: 'POST',
    path: '/agents/me/quotes',
    summary: 'Create a transfer quote',
    tags: ['Agent Operations'],
    auth: 'agent',
    body: quoteRequest,
    idempotent: true,
    answer: ({ quote: q, status }: { quote: unknown; status: 201 | 202 }) => ({ status, body: q }),
    responses: { 201: { description: 'Quote created', schema: quote }, ...errors(400, 401, 403, 424) },
  },
  async ({ actor, body }) => createQuote(actor, body),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(create);
