import { created, endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { stablecoin, stablecoinList, stablecoinRegister, stablecoinsQuery } from '@/lib/stablecoins/schema';
import * as stablecoins from '@/lib/stablecoins/service';

// POST /stablecoins – register a provider-created token as a Grid Stablecoin
const register = endpoint(
  {
    method: 'POST',
    path: '/stablecoins',
    summary: 'Register an existing provider-created stablecoin',
    tags: ['Stablecoins'],
    permission: 'MANAGE',
    body: stablecoinRegister,
    idempotent: true,
    keyRequired: true,
    answer: created,
    responses: {
      201: { description: 'Stablecoin registered', schema: stablecoin },
      ...errors(400, 401, 403, 404, 409),
    },
  },
  async ({ actor, body }) => stablecoins.register(actor.platformId, body),
);

// GET /stablecoins – the platform's registered stablecoins, newest first
const list = endpoint(
  {
    method: 'GET',
    path: '/stablecoins',
    summary: 'List stablecoins',
    tags: ['Stablecoins'],
    permission: 'VIEW',
    query: stablecoinsQuery,
    responses: { 200: { description: 'Successful operation', schema: stablecoinList }, ...errors(400, 401, 403) },
  },
  async ({ actor, query: { issuanceStatus, gridOperationsStatus, provider, limit, cursor } }) =>
    ok(await stablecoins.list(actor.platformId, { issuanceStatus, gridOperationsStatus, provider }, limit, cursor)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(register, list);
