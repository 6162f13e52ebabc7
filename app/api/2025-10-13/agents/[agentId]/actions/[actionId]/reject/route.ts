import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { actionParams, agentAction, rejectRequest } from '@/lib/agents/schema';
import { rejectAction } from '@/lib/agents/approvals';

// POST /agents/{agentId}/actions/{actionId}/reject – refuse; nothing moves, the reason is kept
const reject = endpoint(
  {
    method: 'POST',
    path: '/agents/{agentId}/actions/{actionId}/reject',
    summary: 'Reject an agent action',
    tags: ['Agent Management'],
    permission: 'TRANSACT',
    params: actionParams,
    body: rejectRequest,
    idempotent: true,
    answer: ok,
    responses: { 200: { description: 'Action rejected', schema: agentAction }, ...errors(400, 401, 403, 404, 409) },
  },
  async ({ actor, params, body }) => rejectAction(actor, params.agentId, params.actionId, body.reason),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(reject);
