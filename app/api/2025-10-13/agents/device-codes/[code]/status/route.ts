import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { codeParams, deviceCodeStatus } from '@/lib/agents/schema';
import { status } from '@/lib/agents/device-codes';

// GET /agents/device-codes/{code}/status – whether the agent software has redeemed the code
const get = endpoint(
  {
    method: 'GET',
    path: '/agents/device-codes/{code}/status',
    summary: 'Get device code status',
    tags: ['Agent Management'],
    permission: 'VIEW',
    params: codeParams,
    responses: { 200: { description: 'Successful operation', schema: deviceCodeStatus }, ...errors(401, 403, 404) },
  },
  async ({ actor, params }) => ok(await status(actor.platformId, params.code)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(get);
