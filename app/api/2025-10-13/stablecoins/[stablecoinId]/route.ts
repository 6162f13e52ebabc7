import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as stablecoins from '@/lib/stablecoins/commands';
import { errors } from '@/lib/http/docs';
import { stablecoin, stablecoinIdParams } from '@/lib/stablecoins/schema';

// GET /stablecoins/{stablecoinId} – one registered stablecoin
const get = commandEndpoint(
  {
    method: 'GET',
    path: '/stablecoins/{stablecoinId}',
    answer: ok,
    summary: 'Get a stablecoin',
    tags: ['Stablecoins'],
    params: stablecoinIdParams,
    responses: { 200: { description: 'Successful operation', schema: stablecoin }, ...errors(401, 403, 404) },
  },
  stablecoins.get,
  ({ params }) => params,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(get);
