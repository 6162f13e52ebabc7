import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { agent, agentIdParams, agentPolicyUpdate } from '@/lib/agents/schema';
import * as agents from '@/lib/agents/service';

// PATCH /agents/{agentId}/policy – partial policy update, effective at once everywhere
const update = endpoint(
  {
    method: 'PATCH',
    path: '/agents/{agentId}/policy',
    summary: 'Update agent policy',
    tags: ['Agent Management'],
    permission: 'MANAGE',
    params: agentIdParams,
    body: agentPolicyUpdate,
    responses: { 200: { description: 'Agent policy updated', schema: agent }, ...errors(400, 401, 403, 404) },
  },
  async ({ actor, params, body }) => ok(await agents.updatePolicy(actor.platformId, params.agentId, body)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(update);
