import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/agents/commands';
import { codeParams, redeemResponse } from '@/lib/agents/schema';

// POST /agents/device-codes/{code}/redeem – the agent software's one-time exchange of its code for an access token
const post = commandEndpoint(
  {
    method: 'POST',
    path: '/agents/device-codes/{code}/redeem',
    summary: 'Redeem device code',
    tags: ['Agent Management'],
    auth: 'none',
    params: codeParams,
    answer: ok,
    responses: { 200: { description: 'Device code redeemed', schema: redeemResponse }, ...errors(400, 404) },
  },
  commands.redeemDeviceCode,
  ({ params }) => params,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(post);
