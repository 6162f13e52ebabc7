import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/agents/commands';
import { codeParams, deviceCodeStatus } from '@/lib/agents/schema';

// GET /agents/device-codes/{code}/status – whether the agent software has redeemed the code
const get = commandEndpoint(
  {
    method: 'GET',
    path: '/agents/device-codes/{code}/status',
    summary: 'Get device code status',
    tags: ['Agent Management'],
    params: codeParams,
    answer: ok,
    responses: { 200: { description: 'Successful operation', schema: deviceCodeStatus }, ...errors(401, 403, 404) },
  },
  commands.deviceCodeStatus,
  ({ params }) => params,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(get);
