import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as stablecoins from '@/lib/stablecoins/commands';
import { errors } from '@/lib/http/docs';
import { providerAccount, providerAccountIdParams } from '@/lib/stablecoins/schema';

// GET /stablecoin-provider-accounts/{stablecoinProviderAccountId} – one provider account link
const get = commandEndpoint(
  {
    method: 'GET',
    path: '/stablecoin-provider-accounts/{stablecoinProviderAccountId}',
    answer: ok,
    summary: 'Get a stablecoin provider account link',
    tags: ['Stablecoins'],
    params: providerAccountIdParams,
    responses: { 200: { description: 'Successful operation', schema: providerAccount }, ...errors(401, 403, 404) },
  },
  stablecoins.getProviderAccount,
  ({ params }) => params,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(get);
