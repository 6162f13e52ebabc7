import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/agents/commands';
import { agent, agentIdParams, agentPolicyUpdate } from '@/lib/agents/schema';

// PATCH /agents/{agentId}/policy – partial policy update, effective at once everywhere
const update = commandEndpoint(
  {
    method: 'PATCH',
    path: '/agents/{agentId}/policy',
    summary: 'Update agent policy',
    tags: ['Agent Management'],
    params: agentIdParams,
    body: agentPolicyUpdate,
    answer: ok,
    responses: { 200: { description: 'Agent policy updated', schema: agent }, ...errors(400, 401, 403, 404) },
  },
  commands.updateAgentPolicy,
  ({ params, body }) => ({ agentId: params.agentId, changes: body }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(update);
