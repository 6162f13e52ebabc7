import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as stablecoins from '@/lib/stablecoins/commands';
import { errors } from '@/lib/http/docs';
import { operationList, operationsQuery, stablecoinIdParams } from '@/lib/stablecoins/schema';

// GET /stablecoins/{stablecoinId}/operations – the stablecoin's mints and burns, newest first
const list = commandEndpoint(
  {
    method: 'GET',
    path: '/stablecoins/{stablecoinId}/operations',
    answer: ok,
    summary: 'List stablecoin issuer operations',
    tags: ['Stablecoins'],
    params: stablecoinIdParams,
    query: operationsQuery,
    responses: { 200: { description: 'Successful operation', schema: operationList }, ...errors(400, 401, 403, 404) },
  },
  stablecoins.listOperations,
  ({ params, query }) => ({ ...query, stablecoinId: params.stablecoinId }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(list);
