import { created, endpoint, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { burnRequest, operation, stablecoinIdParams } from '@/lib/stablecoins/schema';
import * as operations from '@/lib/stablecoins/operations';

// POST /stablecoins/{stablecoinId}/burns – a provider-backed burn (redemption) paid out to a bank account
const burn = endpoint(
  {
    method: 'POST',
    path: '/stablecoins/{stablecoinId}/burns',
    summary: 'Create a stablecoin burn operation',
    tags: ['Stablecoins'],
    permission: 'TRANSACT',
    params: stablecoinIdParams,
    body: burnRequest,
    idempotent: true,
    keyRequired: true,
    answer: created,
    responses: {
      201: { description: 'Burn operation created', schema: operation },
      ...errors(400, 401, 403, 404, 409, 503),
    },
  },
  async ({ actor, params, body }) => operations.burn(actor.platformId, params.stablecoinId, body),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(burn);
