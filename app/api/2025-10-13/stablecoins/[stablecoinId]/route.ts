import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { stablecoin, stablecoinIdParams } from '@/lib/stablecoins/schema';
import * as stablecoins from '@/lib/stablecoins/service';

// GET /stablecoins/{stablecoinId} – one registered stablecoin
const get = endpoint(
  {
    method: 'GET',
    path: '/stablecoins/{stablecoinId}',
    summary: 'Get a stablecoin',
    tags: ['Stablecoins'],
    permission: 'VIEW',
    params: stablecoinIdParams,
    responses: { 200: { description: 'Successful operation', schema: stablecoin }, ...errors(401, 403, 404) },
  },
  async ({ actor, params }) => ok(await stablecoins.get(actor.platformId, params.stablecoinId)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(get);
