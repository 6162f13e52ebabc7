import { z } from 'zod';
import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { quote, quoteIdParams } from '@/lib/payments/quotes/schema';
import { authorize } from '@/lib/payments/quotes/sca';

const scaAuthorization = z.object({
  code: z.string().max(16).nullable().optional(),
  passkeyAssertion: z.record(z.string(), z.unknown()).nullable().optional(),
  origin: z.string().nullable().optional(),
  endUserIpAddress: z.string().max(45).nullable().optional(),
});

// POST /quotes/{quoteId}/authorize – satisfy a quote's Strong Customer Authentication challenge
const authorizeQuote = endpoint(
  {
    method: 'POST',
    path: '/quotes/{quoteId}/authorize',
    summary: "Authorize a quote's SCA challenge",
    tags: ['Strong Customer Authentication'],
    permission: 'TRANSACT',
    params: quoteIdParams,
    body: scaAuthorization,
    responses: { 200: { description: 'Challenge authorized', schema: quote }, ...errors(400, 401, 403, 404, 409, 429) },
  },
  async ({ actor, params, body }) => ok(await authorize(actor.platformId, params.quoteId, body)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(authorizeQuote);
