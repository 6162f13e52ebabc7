import { commandEndpoint, created, ok, routes } from '@/lib/http/endpoint';
import * as stablecoins from '@/lib/stablecoins/commands';
import { errors } from '@/lib/http/docs';
import { stablecoin, stablecoinList, stablecoinRegister, stablecoinsQuery } from '@/lib/stablecoins/schema';

// POST /stablecoins – register a provider-created token as a Grid Stablecoin
const register = commandEndpoint(
  {
    method: 'POST',
    path: '/stablecoins',
    answer: created,
    summary: 'Register an existing provider-created stablecoin',
    tags: ['Stablecoins'],
    body: stablecoinRegister,
    responses: {
      201: { description: 'Stablecoin registered', schema: stablecoin },
      ...errors(400, 401, 403, 404, 409),
    },
  },
  stablecoins.register,
  ({ body }) => body,
);

// GET /stablecoins – the platform's registered stablecoins, newest first
const list = commandEndpoint(
  {
    method: 'GET',
    path: '/stablecoins',
    answer: ok,
    summary: 'List stablecoins',
    tags: ['Stablecoins'],
    query: stablecoinsQuery,
    responses: { 200: { description: 'Successful operation', schema: stablecoinList }, ...errors(400, 401, 403) },
  },
  stablecoins.list,
  ({ query }) => query,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(register, list);
