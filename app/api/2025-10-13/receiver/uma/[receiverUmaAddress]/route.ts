import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { lookupQuery, umaLookupResponse, umaParams } from '@/lib/payments/uma/schema';
import { lookupUma } from '@/lib/payments/uma/lookups';

// GET /receiver/uma/{receiverUmaAddress} – what a UMA receiver accepts; returns a lookupId for quotes
const lookup = endpoint(
  {
    method: 'GET',
    path: '/receiver/uma/{receiverUmaAddress}',
    summary: 'Look up an UMA address for payment',
    tags: ['Cross-Currency Transfers'],
    permission: 'VIEW',
    params: umaParams,
    query: lookupQuery,
    responses: {
      200: { description: 'Successful lookup', schema: umaLookupResponse },
      ...errors(400, 401, 403, 404, 424),
    },
  },
  async ({ actor, params, query }) => ok(await lookupUma(actor.platformId, params.receiverUmaAddress, query)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(lookup);
