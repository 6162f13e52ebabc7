import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { operationList, operationsQuery, stablecoinIdParams } from '@/lib/stablecoins/schema';
import * as operations from '@/lib/stablecoins/operations';

// GET /stablecoins/{stablecoinId}/operations – the stablecoin's mints and burns, newest first
const list = endpoint(
  {
    method: 'GET',
    path: '/stablecoins/{stablecoinId}/operations',
    summary: 'List stablecoin issuer operations',
    tags: ['Stablecoins'],
    permission: 'VIEW',
    params: stablecoinIdParams,
    query: operationsQuery,
    responses: { 200: { description: 'Successful operation', schema: operationList }, ...errors(400, 401, 403, 404) },
  },
  async ({ actor, params, query: { operationType, limit, cursor } }) =>
    ok(await operations.list(actor.platformId, params.stablecoinId, { operationType }, limit, cursor)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(list);
