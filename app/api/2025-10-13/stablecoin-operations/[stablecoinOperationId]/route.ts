import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as stablecoins from '@/lib/stablecoins/commands';
import { errors } from '@/lib/http/docs';
import { operation, operationIdParams } from '@/lib/stablecoins/schema';

// GET /stablecoin-operations/{stablecoinOperationId} – one mint or burn operation
const get = commandEndpoint(
  {
    method: 'GET',
    path: '/stablecoin-operations/{stablecoinOperationId}',
    answer: ok,
    summary: 'Get a stablecoin issuer operation',
    tags: ['Stablecoins'],
    params: operationIdParams,
    responses: { 200: { description: 'Successful operation', schema: operation }, ...errors(401, 403, 404) },
  },
  stablecoins.getOperation,
  ({ params }) => params,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(get);
