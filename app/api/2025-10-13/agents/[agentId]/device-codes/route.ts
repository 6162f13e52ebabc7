import { commandEndpoint, created, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/agents/commands';
import { agentIdParams, deviceCode } from '@/lib/agents/schema';

// POST /agents/{agentId}/device-codes – a new device code; earlier unredeemed ones stop working
const create = commandEndpoint(
  {
    method: 'POST',
    path: '/agents/{agentId}/device-codes',
    summary: 'Regenerate a device code',
    tags: ['Agent Management'],
    params: agentIdParams,
    answer: created,
    responses: { 201: { description: 'New device code', schema: deviceCode }, ...errors(400, 401, 403, 404, 409) },
  },
  commands.regenerateDeviceCode,
  ({ params }) => params,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(create);
