import { commandEndpoint, created, routes } from '@/lib/http/endpoint';
import * as stablecoins from '@/lib/stablecoins/commands';
import { errors } from '@/lib/http/docs';
import { mintRequest, operation, stablecoinIdParams } from '@/lib/stablecoins/schema';

// POST /stablecoins/{stablecoinId}/mints – a provider-backed mint, funded by wire, ACH debit, an internal account or the provider balance
const mint = commandEndpoint(
  {
    method: 'POST',
    path: '/stablecoins/{stablecoinId}/mints',
    answer: created,
    summary: 'Create a stablecoin mint operation',
    tags: ['Stablecoins'],
    params: stablecoinIdParams,
    body: mintRequest,
    responses: {
      201: { description: 'Mint operation created', schema: operation },
      ...errors(400, 401, 403, 404, 409, 503),
    },
  },
  stablecoins.mint,
  ({ params, body }) => ({ stablecoinId: params.stablecoinId, body }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(mint);
