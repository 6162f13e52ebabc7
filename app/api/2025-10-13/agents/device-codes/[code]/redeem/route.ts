import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { codeParams, redeemResponse } from '@/lib/agents/schema';
import { redeem } from '@/lib/agents/device-codes';

// POST /agents/device-codes/{code}/redeem – the agent software's one-time exchange of its code for an access token
const post = endpoint(
  {
    method: 'POST',
    path: '/agents/device-codes/{code}/redeem',
    summary: 'Redeem device code',
    tags: ['Agent Management'],
    auth: 'none',
    params: codeParams,
    responses: { 200: { description: 'Device code redeemed', schema: redeemResponse }, ...errors(400, 404) },
  },
  async ({ params }) => ok(await redeem(params.code)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(post);
