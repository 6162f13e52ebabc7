import { endpoint, created, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { agentIdParams, deviceCode } from '@/lib/agents/schema';
import { regenerate } from '@/lib/agents/device-codes';

// POST /agents/{agentId}/device-codes – a new device code; earlier unredeemed ones stop working
const create = endpoint(
  {
    method: 'POST',
    path: '/agents/{agentId}/device-codes',
    summary: 'Regenerate a device code',
    tags: ['Agent Management'],
    permission: 'MANAGE',
    params: agentIdParams,
    responses: { 201: { description: 'New device code', schema: deviceCode }, ...errors(400, 401, 403, 404, 409) },
  },
  async ({ actor, params }) => created(await regenerate(actor.platformId, params.agentId)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(create);
