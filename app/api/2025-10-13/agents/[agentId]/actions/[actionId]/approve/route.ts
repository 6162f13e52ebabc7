import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { actionParams, agentAction } from '@/lib/agents/schema';
import { approveAction } from '@/lib/agents/approvals';

// POST /agents/{agentId}/actions/{actionId}/approve – approve and execute once (409 when no longer pending)
const approve = endpoint(
  {
    method: 'POST',
    path: '/agents/{agentId}/actions/{actionId}/approve',
    summary: 'Approve an agent action',
    tags: ['Agent Management'],
    permission: 'TRANSACT',
    params: actionParams,
    idempotent: true,
    answer: ok,
    responses: { 200: { description: 'Action approved', schema: agentAction }, ...errors(400, 401, 403, 404, 409) },
  },
  async ({ actor, params }) => approveAction(actor, params.agentId, params.actionId),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(approve);
