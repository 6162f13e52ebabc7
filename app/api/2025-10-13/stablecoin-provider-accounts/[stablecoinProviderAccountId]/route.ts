import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { providerAccount, providerAccountIdParams } from '@/lib/stablecoins/schema';
import * as links from '@/lib/stablecoins/links';

// GET /stablecoin-provider-accounts/{stablecoinProviderAccountId} – one provider account link
const get = endpoint(
  {
    method: 'GET',
    path: '/stablecoin-provider-accounts/{stablecoinProviderAccountId}',
    summary: 'Get a stablecoin provider account link',
    tags: ['Stablecoins'],
    permission: 'VIEW',
    params: providerAccountIdParams,
    responses: { 200: { description: 'Successful operation', schema: providerAccount }, ...errors(401, 403, 404) },
  },
  async ({ actor, params }) => ok(await links.get(actor.platformId, params.stablecoinProviderAccountId)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(get);
