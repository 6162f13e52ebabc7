import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/agents/commands';
import { actionParams, agentAction } from '@/lib/agents/schema';

// POST /agents/{agentId}/actions/{actionId}/approve – approve and execute once (409 when no longer pending)
const approve = commandEndpoint(
  {
    method: 'POST',
    path: '/agents/{agentId}/actions/{actionId}/approve',
    summary: 'Approve an agent action',
    tags: ['Agent Management'],
    params: actionParams,
    answer: ok,
    responses: { 200: { description: 'Action approved', schema: agentAction }, ...errors(400, 401, 403, 404, 409) },
  },
  commands.approveAction,
  ({ params }) => params,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(approve);
