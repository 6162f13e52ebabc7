import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { operation, operationIdParams } from '@/lib/stablecoins/schema';
import * as operations from '@/lib/stablecoins/operations';

// GET /stablecoin-operations/{stablecoinOperationId} – one mint or burn operation
const get = endpoint(
  {
    method: 'GET',
    path: '/stablecoin-operations/{stablecoinOperationId}',
    summary: 'Get a stablecoin issuer operation',
    tags: ['Stablecoins'],
    permission: 'VIEW',
    params: operationIdParams,
    responses: { 200: { description: 'Successful operation', schema: operation }, ...errors(401, 403, 404) },
  },
  async ({ actor, params }) => ok(await operations.get(actor.platformId, params.stablecoinOperationId)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(get);
