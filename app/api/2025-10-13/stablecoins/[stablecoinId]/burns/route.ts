import { commandEndpoint, created, routes } from '@/lib/http/endpoint';
import * as stablecoins from '@/lib/stablecoins/commands';
import { errors } from '@/lib/http/docs';
import { burnRequest, operation, stablecoinIdParams } from '@/lib/stablecoins/schema';

// POST /stablecoins/{stablecoinId}/burns – a provider-backed burn (redemption) paid out to a bank account
const burn = commandEndpoint(
  {
    method: 'POST',
    path: '/stablecoins/{stablecoinId}/burns',
    answer: created,
    summary: 'Create a stablecoin burn operation',
    tags: ['Stablecoins'],
    params: stablecoinIdParams,
    body: burnRequest,
    responses: {
      201: { description: 'Burn operation created', schema: operation },
      ...errors(400, 401, 403, 404, 409, 503),
    },
  },
  stablecoins.burn,
  ({ params, body }) => ({ stablecoinId: params.stablecoinId, body }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(burn);
