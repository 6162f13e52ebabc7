import { created, endpoint, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { mintRequest, operation, stablecoinIdParams } from '@/lib/stablecoins/schema';
import * as operations from '@/lib/stablecoins/operations';

// POST /stablecoins/{stablecoinId}/mints – a provider-backed mint, funded by wire, ACH debit, an internal account or the provider balance
const mint = endpoint(
  {
    method: 'POST',
    path: '/stablecoins/{stablecoinId}/mints',
    summary: 'Create a stablecoin mint operation',
    tags: ['Stablecoins'],
    permission: 'TRANSACT',
    params: stablecoinIdParams,
    body: mintRequest,
    idempotent: true,
    keyRequired: true,
    answer: created,
    responses: {
      201: { description: 'Mint operation created', schema: operation },
      ...errors(400, 401, 403, 404, 409, 503),
    },
  },
  async ({ actor, params, body }) => operations.mint(actor.platformId, params.stablecoinId, body),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(mint);
